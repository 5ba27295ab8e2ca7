/**
 * Pages arrive drawn by the server (services/api/src/http/drawnPages.ts): readable and styled
 * before any JavaScript runs; the app takes them over on the first intent without a mismatch,
 * for a visitor and for a signed-in person alike, and what was pressed before it ran happens.
 */
import { expect, type Page, test } from '@playwright/test';
import { uniqueEmail } from './support.ts';

/** The console's errors and warnings, and uncaught exceptions, of a page from now on. */
function consoleProblems(page: Page) {
  const problems: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error' || message.type() === 'warning') problems.push(message.text());
  });
  page.on('pageerror', (error) => problems.push(error.message));
  return problems;
}

test('without JavaScript, / and /pricing show their content, styled', async ({ browser }) => {
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();

  await page.goto('/');
  await expect(page).toHaveTitle('Speak to the stars · Astra');
  const hero = page.getByRole('heading', { level: 1, name: 'Speak to the stars.' });
  await expect(hero).toBeVisible();
  // Chakra's styles came with the HTML: the display text style, not the browser's default h1.
  const heroSize = await hero.evaluate((element) => parseFloat(getComputedStyle(element).fontSize));
  expect(heroSize).toBeGreaterThan(40);
  await expect(page.getByRole('link', { name: 'Pricing' }).first()).toBeAttached();

  await page.goto('/pricing');
  await expect(page).toHaveTitle('Choose Your Journey · Astra');
  await expect(page.getByRole('heading', { name: 'Choose Your Journey' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'How credits work' })).toBeVisible();
  // The billing period is chosen without the scripts too (the scripts take it over, below).
  await page.getByRole('radio', { name: 'One-time' }).check();
  await expect(page.getByRole('radio', { name: 'Monthly' })).not.toBeChecked();

  await page.goto('/impressum');
  await expect(page.getByRole('heading', { name: 'Impressum' })).toBeVisible();
  await context.close();
});

test('a visitor’s / and /pricing hydrate without a console message, and work', async ({ page }) => {
  const problems = consoleProblems(page);
  await page.goto('/');
  await expect(page.getByRole('heading', { level: 1, name: 'Speak to the stars.' })).toBeVisible();
  // The header's signed-out links are drawn once the session is known (GET /api/me).
  await expect(page.getByRole('banner').getByRole('link', { name: 'Get Started' })).toBeVisible();

  await page.goto('/pricing');
  // The billing period chosen as soon as the page shows it stays chosen.
  await page.getByRole('radio', { name: 'One-time' }).check();
  await expect(
    page.getByRole('article', { name: 'Starter' }).getByRole('button', { name: 'Buy Credits' }),
  ).toBeVisible();
  await expect(page.getByRole('radio', { name: 'One-time' })).toBeChecked();
  await page.getByRole('radio', { name: 'Monthly' }).check();
  await page
    .getByRole('article', { name: 'Stargazer' })
    .getByRole('button', { name: 'Subscribe' })
    .click();
  await expect(page.getByRole('dialog', { name: 'Sign in to continue' })).toBeVisible();
  expect(problems).toEqual([]);
});

test('a billing period chosen before the scripts run survives the hydration and is bought', async ({
  browser,
}) => {
  const page = await (await browser.newContext()).newPage();
  await page.request.post('/api/auth/dev-login', { data: { email: uniqueEmail('early') } });
  const problems = consoleProblems(page);
  // A slow phone: the page's scripts arrive only once the choice is made.
  let releaseScripts = () => {};
  const scriptsHeld = new Promise<void>((resolve) => {
    releaseScripts = resolve;
  });
  await page.route('**/assets/*.js', async (route) => {
    await scriptsHeld;
    await route.continue();
  });

  await page.goto('/pricing', { waitUntil: 'commit' });
  const oneTime = page.getByRole('radio', { name: 'One-time' });
  await oneTime.check();
  releaseScripts();

  // Hydrated, with the one-time packs (drawn only by the scripts) and the choice kept.
  const buy = page
    .getByRole('article', { name: 'Starter' })
    .getByRole('button', { name: 'Buy Credits' });
  await expect(buy).toBeVisible();
  await expect(oneTime).toBeChecked();
  await expect(page.getByText('Pay once: no subscription, nothing renews.')).toBeVisible();
  const checkoutTab = page.waitForEvent('popup');
  await buy.click();
  const order = (await checkoutTab).getByRole('region', { name: 'Your order' });
  await expect(order.getByText('One-time credit pack', { exact: true })).toBeVisible();
  expect(problems).toEqual([]);
});

test('a dark-mode visitor’s page hydrates, then offers the light mode', async ({ browser }) => {
  const page = await (await browser.newContext({ colorScheme: 'dark' })).newPage();
  const problems = consoleProblems(page);
  await page.goto('/pricing');
  await expect(page.locator('html')).toHaveClass(/\bdark\b/);
  await expect(page.getByRole('button', { name: 'Switch to light mode' })).toBeVisible();
  await page.getByRole('button', { name: 'Switch to light mode' }).click();
  await expect(page.locator('html')).toHaveClass(/\blight\b/);
  expect(problems).toEqual([]);
});

test('signed in, / goes on to the dashboard and /pricing shows the signed-in header', async ({
  browser,
}) => {
  const page = await (await browser.newContext()).newPage();
  const answer = await page.request.post('/api/auth/dev-login', {
    data: { email: uniqueEmail('prerendered'), fullName: 'Ada Lovelace' },
  });
  expect(answer.ok()).toBe(true);
  const problems = consoleProblems(page);

  await page.goto('/pricing');
  const header = page.getByRole('banner');
  await expect(header.getByRole('link', { name: 'Library' })).toBeVisible();
  await expect(header.getByRole('link', { name: 'Get Started' })).toHaveCount(0);

  await page.goto('/');
  await expect(page).toHaveURL(/\/(app|onboarding)$/);
  expect(problems).toEqual([]);
});

test('dates are drawn in UTC until the app has told the server the visitor’s time zone, then in it', async ({
  browser,
}) => {
  // UTC+14: every time of day reads differently from UTC.
  const page = await (await browser.newContext({ timezoneId: 'Pacific/Kiritimati' })).newPage();
  await page.request.post('/api/auth/dev-login', {
    data: { email: uniqueEmail('zone'), fullName: 'Ada Lovelace' },
  });
  const made = await page.request.post('/api/readings/life-path', {
    data: { firstName: 'Ada', lastName: 'Lovelace', birthDate: '1990-12-10' },
  });
  expect(made.ok()).toBe(true);
  const problems = consoleProblems(page);
  const madeAt = page.locator('time[datetime]').first();
  const shownIn = (timeZone: string) =>
    madeAt.evaluate(
      (element, zone) =>
        new Date(element.getAttribute('datetime')!).toLocaleString('en-US', {
          timeZone: zone,
          year: 'numeric',
          month: 'short',
          day: 'numeric',
          hour: 'numeric',
          minute: '2-digit',
        }),
      timeZone,
    );

  // The first drawing knows no zone: UTC, and the app, once started, shows the visitor's.
  await page.goto('/library');
  await expect(madeAt).toHaveText(await shownIn('UTC'));
  await page.keyboard.press('Shift');
  await expect(madeAt).toHaveText(await shownIn('Pacific/Kiritimati'));
  const cookies = await page.context().cookies();
  expect(cookies.find((cookie) => cookie.name === 'tz')?.value).toBe('Pacific%2FKiritimati');

  // From then on the server draws the visitor's time, and the app takes it over as it is.
  await page.reload();
  const visitorsTime = await shownIn('Pacific/Kiritimati');
  await expect(madeAt).toHaveText(visitorsTime);
  await page.getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByRole('alertdialog', { name: 'Delete this reading?' })).toContainText(
    `reading from ${visitorsTime} will be removed`,
  );
  await expect(madeAt).toHaveText(visitorsTime);
  expect(problems).toEqual([]);
});
