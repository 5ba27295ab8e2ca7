/**
 * Pages drawn on the server for each visit (`services/api/src/http/drawnPages.ts`, with the real
 * build's `web/dist-ssr`): the HTML already holds the page's title, heading, styles and data, and
 * the answers it was drawn with for the app to start from. A signed-in page shows that visitor's
 * data and no one else's; a page that sends the visitor elsewhere answers with a redirect.
 */
import { request } from 'node:http';
import { brotliDecompressSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lifePath } from './adminFixtures.ts';
import { builtWebApp, startTestServer, type TestServer } from './support.ts';

/** A page asked for with brotli accepted, and a cookie if given: status, headers and HTML. */
function getPage(base: string, path: string, cookie?: string) {
  return new Promise<{ status: number; headers: Record<string, unknown>; html: string }>(
    (resolve, reject) => {
      const headers = { 'accept-encoding': 'br', ...(cookie ? { cookie } : {}) };
      const req = request(new URL(path, base), { headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          const body = Buffer.concat(chunks);
          const compressed = res.headers['content-encoding'] === 'br';
          const html = (compressed ? brotliDecompressSync(body) : body).toString();
          resolve({ status: res.statusCode ?? 0, headers: res.headers, html });
        });
      });
      req.on('error', reject);
      req.end();
    },
  );
}

const rootOf = (html: string) =>
  html.slice(html.indexOf('<div id="root">'), html.indexOf('<script type="application/json"'));

/** The answers the page was drawn with, as the browser's store receives them. */
const drawnState = (html: string) => {
  const json = /<script type="application\/json" id="drawn-state"[^>]*>([^<]*)<\/script>/.exec(
    html,
  );
  return json ? JSON.parse(json[1]!) : null;
};

describe('pages drawn on the server', () => {
  let server: TestServer;
  beforeAll(async () => {
    await builtWebApp();
    server = await startTestServer();
  });
  afterAll(() => server?.close());

  it.each([
    ['/', 'Speak to the stars · Astra', 'Speak to the stars.'],
    ['/pricing', 'Choose Your Journey · Astra', 'Choose Your Journey'],
  ])('%s arrives drawn: title, heading, styles and data', async (path, title, heading) => {
    const { status, headers, html } = await getPage(server.url, path);
    expect(status).toBe(200);
    expect(headers['content-type']).toMatch(/^text\/html/);
    expect(headers['content-encoding']).toBe('br');
    expect(headers['cache-control']).toBe('private, no-cache');
    const head = html.slice(0, html.indexOf('</head>'));
    expect(head).toContain(`<title>${title}</title>`);
    expect(head).not.toContain('<title>Astra</title>');
    const root = rootOf(html);
    expect(root).toMatch(new RegExp(`<h1[^>]*>${heading.replace('.', '\\.')}</h1>`));
    // Chakra's global styles (reset, colour tokens) and the elements' own classes, in <head>.
    expect(head).toMatch(/<style data-emotion="css-global [^"]+">[^<]*--chakra-colors-/);
    expect(head).toMatch(/<style data-emotion="css [^"]+">\.css-/);
    expect(root).not.toContain('<style');
    // Drawn for a visitor: the session is known, so the header offers to sign in.
    expect(root).toContain('Sign In');
    expect(drawnState(html).api.queries['getMe(undefined)'].data).toBeNull();
  });

  it('draws the pricing tiers from the API’s answer', async () => {
    const { html } = await getPage(server.url, '/pricing');
    const pricing = drawnState(html).api.queries['getPricing(undefined)'].data;
    expect(pricing.tiers.length).toBeGreaterThan(0);
    for (const tier of pricing.tiers) expect(rootOf(html)).toContain(`>${tier.name}<`);
  });

  it('draws each member’s own dashboard and library, at the same time, and no one else’s', async () => {
    const ada = server.client();
    await ada.signIn(`ada-${Date.now()}@example.com`, 'Ada Lovelace');
    const grace = server.client();
    await grace.signIn(`grace-${Date.now()}@example.com`, 'Grace Hopper');
    expect((await ada.post('/api/readings/life-path', lifePath)).status).toBe(201);

    const [adaApp, graceApp, adaLibrary, graceLibrary] = await Promise.all([
      getPage(server.url, '/app', ada.cookie),
      getPage(server.url, '/app', grace.cookie),
      getPage(server.url, '/library', ada.cookie),
      getPage(server.url, '/library', grace.cookie),
    ]);
    expect(adaApp.headers['cache-control']).toBe('private, no-cache');
    expect(rootOf(adaApp.html)).toContain('Ada&#x27;s Dashboard');
    expect(adaApp.html).not.toContain('Grace');
    expect(rootOf(graceApp.html)).toContain('Grace&#x27;s Dashboard');
    expect(graceApp.html).not.toContain('Ada');
    const adaReadings = drawnState(adaLibrary.html).api.queries;
    const graceReadings = drawnState(graceLibrary.html).api.queries;
    const itemsOf = (queries: Record<string, { endpointName: string; data: { total: number } }>) =>
      Object.values(queries).find((q) => q.endpointName === 'getLibrary')!.data.total;
    expect(itemsOf(adaReadings)).toBe(1);
    expect(itemsOf(graceReadings)).toBe(0);
    expect(rootOf(adaLibrary.html)).toContain('Life Path');
  });

  it('draws dates in the time zone the visitor’s app wrote in its cookie, else in UTC', async () => {
    const member = server.client();
    await member.signIn(`zone-${Date.now()}@example.com`, 'Ada Lovelace');
    expect((await member.post('/api/readings/life-path', lifePath)).status).toBe(201);
    const shown = (createdAt: string, timeZone: string) =>
      new Date(createdAt).toLocaleString('en-US', {
        timeZone,
        year: 'numeric',
        month: 'short',
        day: 'numeric',
        hour: 'numeric',
        minute: '2-digit',
      });
    // UTC+14 and UTC−11: more than a day apart, so the dates differ whenever the reading was made.
    for (const [cookie, zone] of [
      ['tz=Pacific%2FKiritimati', 'Pacific/Kiritimati'],
      ['tz=Pacific%2FPago_Pago', 'Pacific/Pago_Pago'],
      ['tz=Mars%2FOlympus', 'UTC'],
      ['', 'UTC'],
    ] as const) {
      const { html } = await getPage(server.url, '/library', `${member.cookie}; ${cookie}`);
      expect(html).toContain(`data-time-zone="${encodeURIComponent(zone)}"`);
      const library = Object.values(
        drawnState(html).api.queries as Record<string, { endpointName: string; data: unknown }>,
      ).find((q) => q.endpointName === 'getLibrary')!.data as { items: { createdAt: string }[] };
      const { createdAt } = library.items[0]!;
      expect(rootOf(html)).toContain(
        `<time dateTime="${createdAt}">${shown(createdAt, zone)}</time>`,
      );
    }
  });

  it('redirects where the page sends the visitor: signed out to sign in, signed in from / to the dashboard', async () => {
    const signedOut = await getPage(server.url, '/library');
    expect(signedOut.status).toBe(302);
    expect(signedOut.headers.location).toBe('/auth?returnUrl=%2Flibrary');

    const member = server.client();
    await member.signIn(`redirected-${Date.now()}@example.com`, 'Ada Lovelace');
    const home = await getPage(server.url, '/', member.cookie);
    expect(home.status).toBe(302);
    expect(home.headers.location).toBe('/app');
  });

  it('keeps what the API answered from ending the state element early', async () => {
    const member = server.client();
    await member.signIn(`script-${Date.now()}@example.com`, '</script><script>alert(1)</script>');
    const { html } = await getPage(server.url, '/app', member.cookie);
    expect(html).not.toContain('<script>alert(1)');
    expect(drawnState(html).api.queries['getMe(undefined)'].data.fullName).toBe(
      '</script><script>alert(1)</script>',
    );
  });

  it('leaves to the browser an address with a query, and a page it does not draw', async () => {
    for (const path of ['/pricing?return=x', '/auth']) {
      const { headers, html } = await getPage(server.url, path);
      expect(headers['cache-control']).toBe('no-cache');
      expect(html).toContain('<div id="root"></div>');
      expect(html).not.toContain('drawn-state');
    }
  });
});
