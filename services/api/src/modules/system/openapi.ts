import type { Config } from '../../config.ts';
import {
  type ApiRoute,
  describedRouter,
  type RouteDescriptors,
} from '../../http/routeDescriptors.ts';
import { buildOpenApiDocument, type OpenApiDocument } from './openApiDocument.ts';

const html = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c,
  );

type Operation = {
  summary: string;
  tags: string[];
  description?: string;
  parameters?: { name?: string; in?: string; $ref?: string }[];
  requestBody?: { content: Record<string, { schema: unknown }> };
  responses: Record<string, { description: string; content?: Record<string, { schema: unknown }> }>;
  'x-auth': string;
};

/**
 * A page listing the document's routes, for people in development. It is plain HTML built from
 * the document, with no script and nothing from a CDN (the Content-Security-Policy allows
 * neither); schemas open in `<details>`, the document itself is `/api/openapi.json`.
 */
export function referencePage(document: OpenApiDocument) {
  const json = (value: unknown) => `<pre>${html(JSON.stringify(value, null, 2))}</pre>`;
  const sections = document.tags.map(({ name }) => {
    const rows = Object.entries(document.paths).flatMap(([path, methods]) =>
      Object.entries(methods as Record<string, Operation>)
        .filter(([, op]) => op.tags.includes(name))
        .map(([method, op]) => {
          const params = (op.parameters ?? [])
            .filter((p) => p.name)
            .map((p) => `${p.name} (${p.in})`)
            .join(', ');
          const responses = Object.entries(op.responses)
            .map(
              ([status, answer]) =>
                `<li><b>${status}</b> ${html(answer.description)}${
                  answer.content
                    ? `<details><summary>body</summary>${json(answer.content)}</details>`
                    : ''
                }</li>`,
            )
            .join('');
          return `<section id="${html(`${method}-${path}`)}">
<h3><code>${method.toUpperCase()} ${html(path)}</code></h3>
<p>${html(op.summary)}. Auth: <code>${html(op['x-auth'])}</code>. ${html(op.description ?? '')}</p>
${params ? `<p>Parameters: ${html(params)}</p>` : ''}
${op.requestBody ? `<details><summary>request body</summary>${json(op.requestBody.content)}</details>` : ''}
<ul>${responses}</ul></section>`;
        }),
    );
    return `<h2>${html(name)}</h2>${rows.join('\n')}`;
  });
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${html(document.info.title)} reference</title>
<style>body{font:15px/1.5 system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem}
pre{background:#f4f4f4;padding:.5rem;overflow:auto;font-size:12px}section{border-top:1px solid #ddd}
code{font-size:14px}</style></head><body>
<h1>${html(document.info.title)} ${html(document.info.version)}</h1>
<p>Generated from the zod contracts. The machine-readable OpenAPI ${html(document.openapi)}
document is <a href="/api/openapi.json">/api/openapi.json</a>; the rules are in
<code>docs/api.md</code>. Schemas: <code>components.schemas</code> of the document.</p>
${sections.join('\n')}
</body></html>`;
}

const descriptors = {
  openApiDocument: {
    method: 'get',
    path: '/api/openapi.json',
    tag: 'System',
    summary: 'This OpenAPI 3.1 document',
    auth: 'none',
    responses: { 200: { description: 'The OpenAPI document', contentType: 'application/json' } },
    errors: [],
  },
  apiReference: {
    method: 'get',
    path: '/api/docs',
    tag: 'System',
    summary: 'A page listing the routes of this document (development only)',
    auth: 'none',
    responses: { 200: { description: 'An HTML page', contentType: 'text/html' } },
    errors: [],
    onlyWhen: 'NODE_ENV is not production',
  },
} satisfies RouteDescriptors;

export interface OpenApiDeps {
  config: Pick<Config, 'PUBLIC_URL' | 'NODE_ENV'>;
  /** The route table (`http/routeTable.ts`). */
  routes: readonly ApiRoute[];
}

/**
 * `GET /api/openapi.json`: the OpenAPI 3.1 document of this API, built once from the route table,
 * when first asked for (building it takes a few hundred milliseconds that the start need not
 * wait for). `GET /api/docs` (not in production): a page listing its routes.
 */
export const openApiRoutes = describedRouter(descriptors, (deps: OpenApiDeps, route) => {
  const { config, routes } = deps;
  let document: OpenApiDocument | undefined;
  let page: string | undefined;
  const documentOnce = () => {
    document ??= buildOpenApiDocument(routes, { serverUrl: config.PUBLIC_URL });
    return document;
  };
  route('openApiDocument', (_req, res) => {
    res.json(documentOnce());
  });
  if (config.NODE_ENV !== 'production') {
    route('apiReference', (_req, res) => {
      page ??= referencePage(documentOnce());
      res.type('html').send(page);
    });
  }
});
