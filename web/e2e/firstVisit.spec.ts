/**
 * A newcomer's first visit, as the consumer audit walked it: what the landing and pricing pages
 * promise and what a new account gets, the first greeting, a credit history of real changes, the
 * phone header's balance, a how-to card that stays put away, compatibility in the library and a
 * score that says what it measures.
 */
import type { AppsResponse } from '@astra/contracts';
import { expect, type Page, test } from '@playwright/test';
import { expectAccessible, screenshot, screenshotOf, uniqueEmail } from './support.ts';

test.describe.configure({ mode: 'serial' });

const catalog = async (page: Page) => {
  const answer = await page.request.get('/api/apps');
  expect(answer.ok()).toBe(true);
  return (await answer.json()) as AppsResponse;
};

test('the landing page promises the welcome credits a new account gets, and what they buy', async ({
  page,
}) => {
  await page.clock.install();
  await page.goto('/');
  const { welcomeCredits, items } = await catalog(page);
  expect(welcomeCredits).toBeGreaterThan(0);
  const promise = page
    .getByRole('region', { name: 'The stars are ready when you are' })
    .getByText(/Create your account/);
  await expect(promise).toContainText(`receive ${welcomeCredits} free welcome credits`);
  // Every reading it names is one the credits pay for; none it leaves out is.
  const text = (await promise.textContent()) ?? '';
  const affordable = items.filter((app) => app.creditCost <= welcomeCredits);
  if (affordable.length === items.length) expect(text).toContain('any first reading');
  else
    for (const app of items) expect(text.includes(app.name)).toBe(app.creditCost <= welcomeCredits);

  // The counter writes its number as the static claim does: '5,000+'.
  // Each tick renders before the next is set, so the clock moves on a tick at a time.
  await expect(async () => {
    for (let tick = 0; tick < 20; tick++) await page.clock.runFor(2_000);
    await expect(page.getByText('5,000+ readings completed', { exact: true })).toHaveCount(2, {
      timeout: 200,
    });
  }).toPass();
  await expect(page.getByText(/^5000\+/)).toHaveCount(0);

  // The pricing page tells a visitor the same, and the account then has exactly that.
  await page.goto('/pricing');
  await expect(
    page.getByText(`New here? Your account starts with ${welcomeCredits} free welcome credits`, {
      exact: false,
    }),
  ).toBeVisible();
  const signIn = await page.request.post('/api/auth/dev-login', {
    data: { email: uniqueEmail('promise'), fullName: 'Maya Rivers' },
  });
  expect(((await signIn.json()) as { remainingCredits: number }).remainingCredits).toBe(
    welcomeCredits,
  );
});

test.describe('a new member', () => {
  let page: Page;

  test.beforeAll(async ({ browser }) => {
    page = await (await browser.newContext()).newPage();
    const answer = await page.request.post('/api/auth/dev-login', {
      data: { email: uniqueEmail('maya'), fullName: 'Maya Rivers' },
    });
    expect(answer.ok()).toBe(true);
  });
  test.afterAll(async () => page.context().close());

  test('is greeted as a first visitor after onboarding, and as a returning one later', async () => {
    await page.goto('/onboarding');
    await page.getByRole('button', { name: 'Skip for Now' }).click();
    await expect(page).toHaveURL(/\/app$/);
    await expect(
      page.getByText('Welcome to Astra! What would you like to ask the stars first?'),
    ).toBeVisible();
    await expect(page.getByText(/Welcome back/)).toHaveCount(0);
    // Drawn on the server, which does not know: the greeting comes with the app, which starts
    // on the first intent.
    await page.reload();
    await expect(page.getByText('What would you like to ask the stars today?')).toBeVisible();
    await page.keyboard.press('Tab');
    await expect(
      page.getByText('Welcome back. What would you like to ask the stars today?'),
    ).toBeVisible();
  });

  test('pricing speaks plainly above the cards and explains the credit rules below them', async () => {
    await page.goto('/pricing');
    const cards = page.getByRole('article');
    await expect(cards.first()).toBeVisible();
    await expect(page.getByText(/kept by source|capped at a renewal/)).toHaveCount(0);
    const rules = page.getByRole('heading', { name: 'How credits work' });
    await expect(rules).toBeVisible();
    const lastCard = await cards.last().boundingBox();
    const rulesBox = await rules.boundingBox();
    expect(rulesBox!.y).toBeGreaterThan(lastCard!.y + lastCard!.height);
    await expect(
      page.getByText('Credits from a one-time pack, free credits and gift credits never expire.'),
    ).toBeVisible();
    await expectAccessible(page);
  });

  test('sees only real credit changes in the credit history, not bookkeeping rows of 0', async () => {
    // A plan bought on the local checkout writes rows of 0 (checkout opened and closed, plan
    // started) beside the month's credits.
    const checkout = await page.request.post('/api/checkout', {
      data: { tierId: 1, isSubscription: true },
    });
    expect(checkout.ok()).toBe(true);
    const { sessionId } = (await checkout.json()) as { sessionId: string };
    expect((await page.request.post(`/api/checkout/local/${sessionId}/pay`)).ok()).toBe(true);

    await page.goto('/credits');
    const rows = page.getByRole('table').getByRole('row');
    await expect(rows.filter({ hasText: 'Monthly plan payment' })).toHaveCount(1);
    await expect(rows.filter({ hasText: 'Free welcome credits' })).toHaveCount(1);
    await expect(rows).toHaveCount(3); // the header and the two changes
    for (const bookkeeping of ['Account opened', 'Plan checkout', 'Monthly plan started'])
      await expect(page.getByText(bookkeeping)).toHaveCount(0);
    await screenshot(page, 'first-visit-credit-history');
  });

  test('on a phone, the header badge says credits and Subscriber, as the drawer does', async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto('/app');
    const badge = page.getByRole('banner').getByRole('link', { name: /credits \(Subscriber\)$/ });
    await expect(badge).toBeVisible();
    await expect(badge).toContainText(/\d+ credits/);
    await expect(badge).toContainText('Subscriber');
    // Nothing is pushed off the side of the phone's screen.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
      390,
    );
    await screenshotOf(page.getByRole('banner'), 'first-visit-phone-header');
    await page.setViewportSize({ width: 1280, height: 720 });
  });

  test('a dismissed "How to Use Your Reading" card stays dismissed after a reload', async () => {
    const answer = await page.request.post('/api/readings/tarot-traditional', {
      data: { firstName: 'Maya', question: 'Should I take the new job in Lisbon?' },
    });
    expect(answer.status()).toBe(201);
    const { readingId } = (await answer.json()) as { readingId: string };
    await page.goto(`/tarot-result?readingId=${readingId}`);
    const howTo = page.getByRole('region', { name: 'How to Use Your Reading' });
    await expect(howTo).toBeVisible();
    await page.getByRole('button', { name: 'Dismiss how to use your reading' }).click();
    await expect(howTo).toHaveCount(0);
    await page.reload();
    await expect(page.getByRole('heading', { name: 'Your Tarot Reading' })).toBeVisible();
    await expect(page.getByRole('region', { name: 'Voice Session' })).toBeVisible();
    await expect(howTo).toHaveCount(0);
  });

  test('a compatibility reading: both names in the library, and a score that says what it measures', async () => {
    const person = (firstName: string, birthDate: string, birthTime: string, city: string) => ({
      firstName,
      lastName: firstName === 'Maya' ? 'Rivers' : 'Weber',
      birthDate,
      birthTime,
      city,
      country: city === 'Lisbon' ? 'Portugal' : 'Germany',
    });
    const answer = await page.request.post('/api/readings/compatibility', {
      data: {
        person1: person('Maya', '1990-03-14', '08:30', 'Lisbon'),
        person2: person('Jonas', '1988-07-02', '19:45', 'Hamburg'),
      },
    });
    expect(answer.status()).toBe(201);
    const { readingId, result } = (await answer.json()) as {
      readingId: string;
      result: { compatibility_score: number; aspects: { aspect: string }[] };
    };

    await page.goto('/library');
    await expect(page.getByText('Maya & Jonas')).toBeVisible();

    await page.goto(`/compatibility_result/${readingId}`);
    const scoreCard = page.getByRole('region', { name: 'Your Compatibility Score' });
    // The audit's couple: no points on the scale, yet many contacts between the charts.
    expect(result.compatibility_score).toBe(0);
    await expect(
      scoreCard.getByRole('img', {
        name: 'Compatibility score: 0 out of 44, band 1 of 6 (Minimal)',
      }),
    ).toBeVisible();
    // Never an empty ring: the score's band is lit.
    await expect(scoreCard.locator('[data-band="Minimal"]')).toHaveAttribute('data-lit', 'true');
    await expect(scoreCard.locator('[data-band="Medium"]')).toHaveAttribute('data-lit', 'false');
    await expect(scoreCard).toContainText('counts only the strongest ties between two charts');
    await expect(scoreCard).toContainText('not whether it is a good one');
    await expect(scoreCard).toContainText('band 1 of 6, from Minimal to Rare Exceptional');
    const count = (kinds: string[]) =>
      result.aspects.filter((aspect) => kinds.includes(aspect.aspect)).length;
    await expect(scoreCard.getByTestId('contact-counts')).toContainText(
      `All ${result.aspects.length} contacts between your charts: ${count(['trine', 'sextile'])} harmonious, ${count(['square', 'opposition'])} challenging`,
    );
    expect(count(['trine', 'sextile'])).toBeGreaterThan(0);
    await screenshotOf(scoreCard, 'first-visit-compatibility-score');
    await expectAccessible(page);
  });
});
