import { readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import ts from 'typescript';
import type { Plugin } from 'vite';
import { everyPageRequests, firstRequests } from './src/app/firstRequests.ts';

/**
 * The app's pages as the server needs to know them, read at build time from the one route table
 * (`src/app/router.tsx`), never listed by hand a second time:
 * - `path`: the address pattern, as react-router matches it ('/natalbirthchart_result/:readingId');
 *   '*' is the not-found page;
 * - `module`: the source module the route loads lazily (its key in Vite's manifest), or null for a
 *   page in the first chunk;
 * - `signedIn`: under `<RequireAuth />`, so drawn only for a session;
 * - `requests`: the API requests the page makes as it first draws (`src/app/firstRequests.ts`).
 * The build writes them to `dist/.vite/routes.json` (not served; beside Vite's `manifest.json`).
 */
export interface RouteEntry {
  path: string;
  module: string | null;
  signedIn: boolean;
  requests: string[];
}

export interface RouteTable {
  /** Requests every page makes (the session, the site's details): `src/app/firstRequests.ts`. */
  everyPage: string[];
  routes: RouteEntry[];
}

export const ROUTE_TABLE_FILE = '.vite/routes.json';

/** The source file of an import specifier, relative to `root` with '/' ('src/features/x/Page.tsx'). */
function moduleKey(root: string, fromFile: string, specifier: string): string {
  const base = join(dirname(fromFile), specifier);
  const file = ['', '.tsx', '.ts', '/index.tsx', '/index.ts']
    .map((suffix) => base + suffix)
    .find((candidate) => statSync(candidate, { throwIfNoEntry: false })?.isFile());
  if (!file) throw new Error(`route table: cannot find the module ${specifier}`);
  return relative(root, file).split(sep).join('/');
}

/**
 * Reads the route objects of `routerFile` (its exported `routes`), following the arrays and lazy
 * loaders it names by constant (`...publicRoutes`, `lazy: tarotForm`). Throws on a shape it
 * does not know rather than leave a page out.
 */
export function readRoutes(root: string, routerFile: string): Omit<RouteEntry, 'requests'>[] {
  const source = ts.createSourceFile(
    routerFile,
    readFileSync(routerFile, 'utf8'),
    ts.ScriptTarget.Latest,
    true,
    ts.ScriptKind.TSX,
  );
  const constants = new Map<string, ts.Expression>();
  for (const statement of source.statements) {
    if (!ts.isVariableStatement(statement)) continue;
    for (const d of statement.declarationList.declarations) {
      if (ts.isIdentifier(d.name) && d.initializer) constants.set(d.name.text, d.initializer);
    }
  }
  const resolve = (e: ts.Expression): ts.Expression =>
    ts.isIdentifier(e) && constants.has(e.text) ? resolve(constants.get(e.text)!) : e;
  const lazyModule = (e: ts.Expression): string => {
    let specifier: string | undefined;
    const visit = (node: ts.Node) => {
      if (
        ts.isCallExpression(node) &&
        node.expression.kind === ts.SyntaxKind.ImportKeyword &&
        node.arguments[0] &&
        ts.isStringLiteral(node.arguments[0])
      )
        specifier = node.arguments[0].text;
      else node.forEachChild(visit);
    };
    visit(resolve(e));
    if (!specifier) throw new Error(`route table: a lazy route without import(): ${e.getText()}`);
    return moduleKey(root, routerFile, specifier);
  };

  const found: Omit<RouteEntry, 'requests'>[] = [];
  const walk = (list: ts.Expression, parent: string, signedIn: boolean) => {
    const array = resolve(list);
    if (!ts.isArrayLiteralExpression(array))
      throw new Error(`route table: not an array of routes: ${list.getText()}`);
    for (const element of array.elements) {
      if (ts.isSpreadElement(element)) {
        walk(element.expression, parent, signedIn);
        continue;
      }
      if (!ts.isObjectLiteralExpression(element))
        throw new Error(`route table: not a route object: ${element.getText()}`);
      const props = new Map<string, ts.Expression>();
      for (const p of element.properties) {
        if (ts.isPropertyAssignment(p) && ts.isIdentifier(p.name))
          props.set(p.name.text, p.initializer);
        else if (ts.isShorthandPropertyAssignment(p)) props.set(p.name.text, p.name);
      }
      const pathProp = props.get('path');
      const segment = pathProp && ts.isStringLiteral(pathProp) ? pathProp.text : '';
      const path = segment === '*' ? '*' : `${parent.replace(/\/$/, '')}/${segment}`;
      const elementProp = props.get('element');
      const guarded =
        signedIn || (!!elementProp && /^<RequireAuth\b/.test(elementProp.getText().trim()));
      const lazy = props.get('lazy');
      if (lazy) found.push({ path, module: lazyModule(lazy), signedIn: guarded });
      else if (props.has('index') || props.has('Component'))
        found.push({ path, module: null, signedIn: guarded });
      const children = props.get('children');
      if (children) walk(children, path === '*' ? parent : path, guarded);
    }
  };
  const routes = constants.get('routes');
  if (!routes) throw new Error(`route table: ${routerFile} has no \`routes\``);
  walk(routes, '', false);
  if (!found.some((r) => r.signedIn) || !found.some((r) => r.path === '*'))
    throw new Error('route table: expected signed-in pages and a not-found page');
  return found;
}

/** The route table of the app under `root` (the `web` directory), with each page's requests. */
export function routeTable(root: string): RouteTable {
  const routes = readRoutes(root, join(root, 'src/app/router.tsx'));
  for (const path of Object.keys(firstRequests)) {
    if (!routes.some((r) => r.path === path))
      throw new Error(`src/app/firstRequests.ts names ${path}, which is not a route`);
  }
  return {
    everyPage: [...everyPageRequests],
    routes: routes.map((r) => ({ ...r, requests: [...(firstRequests[r.path] ?? [])] })),
  };
}

/** The Vite plugin: writes `dist/.vite/routes.json` with the build. */
export function routeTablePlugin(): Plugin {
  let root = '';
  return {
    name: 'astra-route-table',
    apply: 'build',
    configResolved(config) {
      root = config.root;
    },
    generateBundle() {
      this.emitFile({
        type: 'asset',
        fileName: ROUTE_TABLE_FILE,
        source: `${JSON.stringify(routeTable(root), null, 2)}\n`,
      });
    },
  };
}
