/**
 * Paths that used to lose people (consumer audit 2026-11-28, defects 2, 3, 7 and 8): a plan
 * chosen before signing in, a page opened by its address, an old error toast over a result, and
 * the voice timer after a session ended.
 */
import { expect, type Page, test } from '@playwright/test';
import { E2E } from './ports.ts';
import { nextGoogleAccount, screenshot, signedIn, toast, uniqueEmail } from './support.ts';

/** Counts the checkouts the page asks the server for. */
function countCheckouts(page: Page) {
  const posts: string[] = [];
  page.on('request', (request) => {
    if (request.method() === 'POST' && new URL(request.url()).pathname === '/api/checkout')
      posts.push(request.url());
  });
  return () => posts.length;
}

/** Signed out on /pricing: chooses `tier` (monthly or one-time); the sign-in dialog opens. */
async function chooseSignedOut(page: Page, tier: string, billing: 'Monthly' | 'One-time') {
  await page.goto('/pricing');
  await expect(page.getByRole('heading', { name: 'Choose Your Journey' })).toBeVisible();
  if (billing === 'One-time') await page.getByRole('radio', { name: 'One-time' }).check();
  await page
    .getByRole('article', { name: tier })
    .getByRole('button', { name: billing === 'Monthly' ? 'Subscribe' : 'Buy Credits' })
    .click();
  await expect(page.getByRole('dialog')).toBeVisible();
}

/** The local checkout page, its order for `tier` billed as `billing`. */
async function expectCheckoutOf(page: Page, tier: string, billing: string) {
  await expect(page).toHaveURL(/\/checkout\/local\//, { timeout: 20_000 });
  const order = page.getByRole('region', { name: 'Your order' });
  await expect(order.getByText(tier, { exact: true })).toBeVisible();
  await expect(order.getByText(billing, { exact: true })).toBeVisible();
}

test.describe('a plan chosen before signing in resumes after any sign-in, once', () => {
  test('closing the dialog, then the developer sign-in at /auth as a new user: onboarding, then the checkout of the chosen plan; cancelling it does not bring it back', async ({
    browser,
  }) => {
    const page = await (await browser.newContext()).newPage();
    await page.clock.install();
    const checkouts = countCheckouts(page);
    await chooseSignedOut(page, 'Stargazer', 'Monthly');
    await page.getByRole('dialog').getByRole('button', { name: 'Close' }).click();
    await expect(page.getByRole('dialog')).toBeHidden();

    await page.goto('/auth?returnUrl=/pricing');
    await page.getByLabel('E-mail').fill(uniqueEmail('pending-new'));
    await page.getByLabel('Full name (optional)').fill('Maya Rivers');
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();

    // A new member finishes onboarding first; nothing is bought behind it.
    await expect(page).toHaveURL(/\/onboarding$/);
    await page.clock.runFor(2000);
    expect(checkouts()).toBe(0);
    await page.getByRole('button', { name: 'Skip for Now' }).click();

    await expectCheckoutOf(page, 'Stargazer', 'Monthly subscription');
    expect(checkouts()).toBe(1);
    await screenshot(page, 'paths-resumed-after-onboarding');

    // Cancelled: the choice was used up, it does not open again.
    await page.getByRole('button', { name: 'Cancel' }).click();
    await expect(page.getByRole('heading', { name: 'Payment Canceled' })).toBeVisible();
    await page.goto('/pricing');
    await expect(page.getByRole('heading', { name: 'Choose Your Journey' })).toBeVisible();
    await page.clock.runFor(2000);
    await expect(page).toHaveURL(/\/pricing$/);
    expect(checkouts()).toBe(1);
    await page.context().close();
  });

  test('Google from the sign-in page (header Sign In): the checkout of the chosen pack opens once', async ({
    browser,
  }) => {
    const email = uniqueEmail('pending-google');
    // A member who has been here before (birth data known): the sign-in goes to the dashboard.
    const member = await browser.newContext();
    await member.request.post(`${E2E.baseUrl}/api/auth/dev-login`, {
      data: { email, fullName: 'Grace Hopper' },
    });
    await member.request.patch(`${E2E.baseUrl}/api/me`, {
      data: { birthDate: '1990-12-09', birthCity: 'New York', birthCountry: 'United States' },
    });
    await member.close();

    const page = await (await browser.newContext()).newPage();
    await page.clock.install();
    const checkouts = countCheckouts(page);
    await chooseSignedOut(page, 'Explorer', 'One-time');
    await page.getByRole('dialog').getByRole('button', { name: 'Close' }).click();
    await page.getByRole('banner').getByRole('link', { name: 'Sign In' }).click();
    await expect(page).toHaveURL(/\/auth$/);
    await nextGoogleAccount(email, 'Grace Hopper');
    await page.getByRole('button', { name: 'Continue with Google' }).click();

    await expectCheckoutOf(page, 'Explorer', 'One-time credit pack');
    await page.clock.runFor(2000);
    expect(checkouts()).toBe(1);
    await page.context().close();
  });

  test("the dialog's own developer sign-in: one checkout, not two", async ({ browser }) => {
    const page = await (await browser.newContext()).newPage();
    await page.clock.install();
    const checkouts = countCheckouts(page);
    await chooseSignedOut(page, 'Starter', 'One-time');
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('E-mail').fill(uniqueEmail('pending-dialog'));
    await dialog.getByRole('button', { name: 'Sign in', exact: true }).click();
    await expectCheckoutOf(page, 'Starter', 'One-time credit pack');
    await page.clock.runFor(2000);
    expect(checkouts()).toBe(1);
    await page.context().close();
  });

  test('a choice left waiting for over half an hour is not bought', async ({ browser }) => {
    const page = await (await browser.newContext()).newPage();
    await page.clock.install();
    const checkouts = countCheckouts(page);
    await chooseSignedOut(page, 'Celestial Pro', 'Monthly');
    await page.getByRole('dialog').getByRole('button', { name: 'Close' }).click();
    await page.clock.fastForward('31:00');
    await page.getByRole('banner').getByRole('link', { name: 'Sign In' }).click();
    await page.getByLabel('E-mail').fill(uniqueEmail('pending-stale'));
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await expect(page).toHaveURL(/\/onboarding$/);
    await page.getByRole('button', { name: 'Skip for Now' }).click();
    await expect(page).toHaveURL(/\/app$/);
    await page.clock.runFor(2000);
    await expect(page).toHaveURL(/\/app$/);
    expect(checkouts()).toBe(0);
    await page.context().close();
  });
});

test.describe('on a phone', () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test('a page opened by its address starts at the top; back still returns to where you were', async ({
    page,
  }) => {
    const scrollY = () => page.evaluate(() => window.scrollY);
    await page.goto('/privacy-policy');
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await page.evaluate(() => window.scrollTo(0, 1500));
    await expect.poll(scrollY).toBe(1500);

    // Typed into the address bar: a full page load of another (long) page.
    await page.goto('/terms-of-service');
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await expect.poll(scrollY).toBe(0);
    await screenshot(page, 'paths-phone-terms-by-address');

    // Inside the app: away (the header's logo) and back restores the position.
    await page.evaluate(() => window.scrollTo(0, 900));
    await expect.poll(scrollY).toBe(900);
    await page.getByRole('banner').getByRole('link', { name: 'Astra home' }).click();
    await expect(page).toHaveURL(`${E2E.baseUrl}/`);
    await expect.poll(scrollY).toBe(0);
    await page.goBack();
    await expect(page).toHaveURL(/\/terms-of-service$/);
    await expect.poll(scrollY).toBe(900);

    // Back to the page loaded before: where it was left.
    await page.goBack();
    await expect(page).toHaveURL(/\/privacy-policy$/);
    await expect.poll(scrollY).toBe(1500);

    // A page read before (at 900), opened anew by its address: the top.
    await page.goto('/terms-of-service');
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await expect.poll(scrollY).toBe(0);
  });
});

test('an error toast of a reading form goes when the form is sent successfully, or left', async ({
  browser,
}) => {
  const { page } = await signedIn(browser, uniqueEmail('toasts'), 'Ada Lovelace');
  const missing = () => toast(page, 'Please enter your name and question');

  await page.goto('/tarot-traditional');
  await page.getByRole('button', { name: /Draw My Cards/ }).click();
  await expect(missing()).toBeVisible();
  await page.getByLabel('First name').fill('Ada');
  await page.getByLabel('Your question').fill('Should I start the analytical engine this year?');
  await page.getByRole('button', { name: /Draw My Cards/ }).click();
  await expect(page.getByRole('heading', { name: 'Your Tarot Reading' })).toBeVisible();
  // Well inside the toast's own five seconds: it went with the successful submit.
  await expect(missing()).toBeHidden({ timeout: 3000 });
  await screenshot(page, 'paths-result-without-old-toast');

  // Left for another page: the form's error goes with it.
  await page.goto('/tarot-traditional');
  await page.getByRole('button', { name: /Draw My Cards/ }).click();
  await expect(missing()).toBeVisible();
  await page.getByRole('link', { name: 'Library' }).first().click();
  await expect(page).toHaveURL(/\/library/);
  await expect(missing()).toBeHidden({ timeout: 3000 });

  // A message that belongs to the next page still shows there: too few credits for a natal chart.
  await page.goto('/natalbirthchart');
  await page.getByLabel('First name').fill('Ada');
  await page.getByLabel('Last name').fill('Lovelace');
  await page.getByLabel('Day').selectOption('10');
  await page.getByLabel('Month').selectOption('12');
  await page.getByLabel('Year').selectOption('1990');
  await page.getByLabel('Birth time').fill('13:00');
  await page.getByLabel('City', { exact: true }).fill('London');
  await page.getByLabel('City', { exact: true }).press('Escape');
  await page.getByLabel('Country', { exact: true }).fill('United Kingdom');
  await page.getByRole('button', { name: /Generate My Natal Chart/ }).click();
  await expect(page).toHaveURL(/\/pricing/);
  await expect(toast(page, 'Insufficient credits')).toBeVisible();
  await page.context().close();
});

test('after a voice session ends, every reading shows the 5:00 a reactivation gives', async ({
  browser,
}) => {
  const { page } = await signedIn(browser, uniqueEmail('voice-rest'), 'Ada Lovelace');
  await page.clock.install();
  const start = async (kind: string, data: unknown) => {
    const answer = await page.request.post(`/api/readings/${kind}`, { data });
    expect(answer.status()).toBe(201);
    return ((await answer.json()) as { readingId: string }).readingId;
  };
  const tarot = await start('tarot-traditional', {
    firstName: 'Ada',
    question: 'Should I start the analytical engine this year?',
  });
  const lifePath = await start('life-path', {
    firstName: 'Ada',
    lastName: 'Lovelace',
    birthDate: '1990-12-10',
  });

  for (const path of [
    `/tarot-result?readingId=${tarot}`,
    `/lifepathnumber-result?readingId=${lifePath}`,
  ]) {
    await page.goto(path);
    const card = page.getByRole('region', { name: 'Voice Session' });
    const timer = card.getByRole('timer');
    await card.getByRole('button', { name: /Speak to Voice Guide|Activate Voice Guide/ }).click();
    await expect(page.getByText('Voice agent activated! 5 minutes remaining.')).toBeVisible();
    await page.clock.runFor(4000);
    await expect(timer).not.toHaveText('5:00');
    await card.getByRole('button', { name: 'End Session Early' }).click();
    await expect(page.getByText('Voice session ended', { exact: true })).toBeVisible();
    await expect(
      card.getByRole('button', { name: 'Reactivate Voice Agent (2 credits)' }),
    ).toBeVisible();
    await expect(timer).toHaveText('5:00');
  }
  await screenshot(page, 'paths-voice-ended-shows-next-session');
  await page.context().close();
});
