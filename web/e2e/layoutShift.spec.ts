/**
 * A first load on a phone does not move what is already on screen: the layout shifts a page makes
 * while its scripts, session and data arrive stay under 0.1 (the "good" cumulative layout shift of
 * Core Web Vitals). Loaded at a phone's size, CPU and network, as Lighthouse's mobile preset
 * does, so that scripts and data arrive after the first paint.
 */
import { devices, expect, type Page, test } from '@playwright/test';
import { signedIn, uniqueEmail } from './support.ts';

const GOOD_CLS = 0.1;

/** Sums every layout shift not caused by input, as the browser reports them, from the start. */
const recordShifts = () => {
  const shifts: { value: number; nodes: string[] }[] = [];
  (window as unknown as { shifts: typeof shifts }).shifts = shifts;
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries() as (PerformanceEntry & {
      value: number;
      hadRecentInput: boolean;
      sources: { node: Node | null }[];
    })[]) {
      if (entry.hadRecentInput) continue;
      shifts.push({
        value: entry.value,
        nodes: entry.sources.map((s) => (s.node as Element | null)?.outerHTML?.slice(0, 120) ?? ''),
      });
    }
  }).observe({ type: 'layout-shift', buffered: true });
};

/**
 * The shifts of a first load of `path` on a phone (Lighthouse's mobile preset: the CPU four times
 * slower, a slow 4G network), until its heading is drawn and the network is quiet.
 */
async function firstLoadShifts(page: Page, path: string, drawn: string) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: 150,
    downloadThroughput: (1.6 * 1024 * 1024) / 8,
    uploadThroughput: (750 * 1024) / 8,
  });
  await page.goto(path);
  await expect(page.getByRole('heading', { name: drawn, exact: true })).toBeVisible();
  await page.waitForLoadState('networkidle');
  const shifts = await page.evaluate(
    () => (window as unknown as { shifts: { value: number; nodes: string[] }[] }).shifts,
  );
  return {
    total: shifts.reduce((sum, shift) => sum + shift.value, 0),
    shifts,
  };
}

const phone = { ...devices['Pixel 7'], defaultBrowserType: undefined };

test('public pages: the first load on a phone moves nothing on screen', async ({ browser }) => {
  const context = await browser.newContext(phone);
  await context.addInitScript(recordShifts);
  for (const [path, drawn] of [
    ['/', 'Speak to the stars.'],
    ['/pricing', 'Choose Your Journey'],
  ] as const) {
    const page = await context.newPage();
    const { total, shifts } = await firstLoadShifts(page, path, drawn);
    expect(total, `${path}: ${JSON.stringify(shifts)}`).toBeLessThan(GOOD_CLS);
    await page.close();
  }
  await context.close();
});

test('signed-in pages: the first load on a phone moves nothing on screen', async ({ browser }) => {
  const { page: first, id } = await signedIn(browser, uniqueEmail('shift'), 'Ada Lovelace');
  expect(id).toBeTruthy();
  const cookies = await first.context().cookies();
  await first.context().close();
  const context = await browser.newContext(phone);
  await context.addCookies(cookies);
  await context.addInitScript(recordShifts);
  for (const [path, drawn] of [
    ['/app', 'Choose a Reading'],
    ['/library', 'Your Cosmic Library'],
    ['/credits', 'Credit History'],
  ] as const) {
    const page = await context.newPage();
    const { total, shifts } = await firstLoadShifts(page, path, drawn);
    expect(total, `${path}: ${JSON.stringify(shifts)}`).toBeLessThan(GOOD_CLS);
    await page.close();
  }
  await context.close();
});
