/**
 * The public pages of the real build arrive drawn (`web/prerender.ts`): the HTML of `/` and
 * `/pricing` already holds the page's title, heading and styles, compressed and revalidated like
 * `index.html`, which every other page still gets.
 */
import { request } from 'node:http';
import { brotliDecompressSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { builtWebApp, startTestServer, type TestServer } from './support.ts';

/** A page asked for with brotli accepted: its headers and decompressed HTML. */
function getPage(base: string, path: string) {
  return new Promise<{ headers: Record<string, unknown>; html: string }>((resolve, reject) => {
    const req = request(new URL(path, base), { headers: { 'accept-encoding': 'br' } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        const body = Buffer.concat(chunks);
        const compressed = res.headers['content-encoding'] === 'br';
        const html = (compressed ? brotliDecompressSync(body) : body).toString();
        resolve({ headers: res.headers, html });
      });
    });
    req.on('error', reject);
    req.end();
  });
}

const rootOf = (html: string) => html.slice(html.indexOf('<div id="root">'));

describe('the prerendered public pages of the build', () => {
  let server: TestServer;
  beforeAll(async () => {
    await builtWebApp();
    server = await startTestServer();
  });
  afterAll(() => server?.close());

  it.each([
    ['/', 'Speak to the stars · Astra', 'Speak to the stars.'],
    ['/pricing', 'Choose Your Journey · Astra', 'Choose Your Journey'],
  ])('%s arrives drawn: title, heading and styles in the HTML', async (path, title, heading) => {
    const { headers, html } = await getPage(server.url, path);
    expect(headers['content-type']).toMatch(/^text\/html/);
    expect(headers['content-encoding']).toBe('br');
    expect(headers['cache-control']).toBe('no-cache');
    const head = html.slice(0, html.indexOf('</head>'));
    expect(head).toContain(`<title>${title}</title>`);
    expect(head).not.toContain('<title>Astra</title>');
    const root = rootOf(html);
    expect(root).toMatch(new RegExp(`<h1[^>]*>${heading.replace('.', '\\.')}</h1>`));
    // Chakra's global styles (reset, colour tokens) and the elements' own classes, inline.
    expect(root).toMatch(/<style data-emotion="css-global [^"]+">[^<]*--chakra-colors-/);
    expect(root).toMatch(/<style data-emotion="css [^"]+">\.css-/);
    // Drawn as a visitor whose session is not known yet: no sign-in links, no account.
    expect(root).not.toContain('Sign In');
  });

  it('serves every other page the empty index.html', async () => {
    const { headers, html } = await getPage(server.url, '/app');
    expect(headers['cache-control']).toBe('no-cache');
    expect(rootOf(html)).toMatch(/^<div id="root"><\/div>/);
    expect(html).toContain('<title>Astra</title>');
  });
});
