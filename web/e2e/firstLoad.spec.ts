/**
 * A signed-in page's first load. A page drawn on the server (services/api/src/http/drawnPages.ts)
 * arrives with its data: the browser asks the API for nothing until the visitor reaches for a
 * control, and the app then takes the page over without a message. A page the browser draws
 * (here: an address with a query) gets its first API requests named in its HTML
 * (`<link rel="preload" as="fetch">`, services/api/src/http/pageHints.ts) so they start with the
 * HTML. Each must be asked for by the page's own code (a preload it never uses is fetched for
 * nothing, and Chromium warns of it) and reach the network once: the page's `fetch()` takes the
 * preloaded answer instead of asking again.
 */
import { expect, type Page, test } from '@playwright/test';
import { signedIn, topUpCredits, uniqueEmail } from './support.ts';

/** Every API request the page makes, and its console's warnings and errors. */
function watch(page: Page) {
  const requests: string[] = [];
  const console: string[] = [];
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (url.pathname.startsWith('/api/')) requests.push(`${url.pathname}${url.search}`);
  });
  page.on('console', (message) => {
    if (message.type() === 'warning' || message.type() === 'error') console.push(message.text());
  });
  return { requests, console };
}

/** Records the URLs the page's own code passes to fetch() (RTK Query passes a Request). */
const recordFetches = () => {
  const fetched: string[] = [];
  (window as unknown as { fetched: string[] }).fetched = fetched;
  const original = window.fetch;
  window.fetch = (input, init) => {
    const url = new URL(input instanceof Request ? input.url : String(input), location.href);
    fetched.push(`${url.pathname}${url.search}`);
    return original(input, init);
  };
};

/** The URLs the page's HTML preloads as fetches. */
const preloaded = (page: Page) =>
  page
    .locator('link[rel="preload"][as="fetch"]')
    .evaluateAll((links) => links.map((l) => l.getAttribute('href') ?? ''));

const once = (requests: string[], url: string) => requests.filter((r) => r === url).length;

test('a signed-in first load asks for the session and each page’s data once', async ({
  browser,
}) => {
  const { page, id } = await signedIn(browser, uniqueEmail('first-load'), 'Ada Lovelace');
  await topUpCredits(id, 10, 100);
  await page.addInitScript(recordFetches);
  const natal = await page.request.post('/api/readings/natal-chart', {
    data: {
      firstName: 'Ada',
      lastName: 'Lovelace',
      birthDate: '1815-12-10',
      birthTime: '13:00',
      city: 'London',
      country: 'United Kingdom',
      latitude: 51.5074,
      longitude: -0.1278,
    },
  });
  expect(natal.ok(), await natal.text()).toBe(true);
  const { readingId } = (await natal.json()) as { readingId: string };

  const pages = [
    { path: '/app', drawn: page.getByRole('heading', { name: 'Choose a Reading' }) },
    { path: '/library', drawn: page.getByRole('heading', { name: 'Your Cosmic Library' }) },
    {
      path: `/natalbirthchart_result/${readingId}`,
      drawn: page.getByRole('heading', { name: 'Your Chart', exact: true }),
    },
  ];
  for (const { path, drawn } of pages) {
    const seen = watch(page);
    await page.goto(path);
    await expect(drawn).toBeVisible();
    await page.waitForLoadState('networkidle');
    expect(seen.requests, path).toEqual([]);
    expect(await preloaded(page), path).toEqual([]);
    // The first intent starts the app, which takes the drawn page over as it is.
    await page.keyboard.press('Tab');
    await expect(page.locator(':focus')).toBeVisible();
    await expect
      .poll(() =>
        page.evaluate(() =>
          Object.keys(document.getElementById('root')!).some((k) =>
            k.startsWith('__reactContainer$'),
          ),
        ),
      )
      .toBe(true);
    await expect(drawn).toBeVisible();
    expect(seen.console, path).toEqual([]);
    page.removeAllListeners('request');
    page.removeAllListeners('console');
    // Leaves the started app, so its requests are not taken for the next page's.
    await page.goto('about:blank');
  }

  // Drawn by the browser: an address with a query.
  for (const { path, drawn } of pages) {
    const seen = watch(page);
    await page.goto(`${path}?from=test`);
    await expect(drawn).toBeVisible();
    await page.waitForLoadState('networkidle');
    const hinted = await preloaded(page);
    expect(hinted, path).toContain('/api/session');
    expect(hinted.length, path).toBeGreaterThan(2); // the page's own data as well
    const fetched = await page.evaluate(() => (window as unknown as { fetched: string[] }).fetched);
    for (const url of hinted) {
      expect(fetched, `${path}: ${url} asked for by the page`).toContain(url);
      expect(once(seen.requests, url), `${path}: ${url} on the network`).toBe(1);
    }
    expect(once(seen.requests, '/api/session'), path).toBe(1);
    expect(seen.requests, path).not.toContain('/api/me');
    expect(seen.console, path).toEqual([]);
    page.removeAllListeners('request');
    page.removeAllListeners('console');
  }
});
