/**
 * Money correctness as a buyer sees it: what the balance is made of and what a renewal keeps,
 * never paying twice for a plan, pages that claim only what the server confirms, and running
 * out of credits as a way to the plans and back rather than a dead end.
 */
import type { PricingResponse } from '@astra/contracts';
import { expect, type Page, test } from '@playwright/test';
import { expectAccessible, screenshot, uniqueEmail } from './support.ts';

test.describe.configure({ mode: 'serial' });

/** A new member with the 10 free credits, signed in inside a fresh browser context. */
async function newMember(browser: import('@playwright/test').Browser, who: string) {
  const page = await (await browser.newContext()).newPage();
  const answer = await page.request.post('/api/auth/dev-login', {
    data: { email: uniqueEmail(who), fullName: 'Emmy Noether' },
  });
  expect(answer.ok()).toBe(true);
  return page;
}

/** Buys on /pricing (already open): the checkout opens in a new tab and is paid there. */
async function buy(page: Page, billing: 'Monthly' | 'One-time', tier: string) {
  await page.getByRole('radio', { name: billing }).check();
  const checkoutTab = page.waitForEvent('popup');
  await page
    .getByRole('article', { name: tier })
    .getByRole('button', { name: billing === 'Monthly' ? 'Subscribe' : 'Buy Credits' })
    .click();
  const checkout = await checkoutTab;
  await expect(checkout).toHaveURL(/\/checkout\/local\//);
  // The country sets the tax in the price (the local stand-in for Stripe Tax).
  await checkout.getByLabel('Country (for the tax)').selectOption('FR');
  await checkout.getByRole('button', { name: 'Pay' }).click();
  await expect(checkout.getByRole('heading', { name: 'Payment Successful!' })).toBeVisible();
  return checkout;
}

test('a pack bought before subscribing is kept: the balance is the sum and the card says so', async ({
  browser,
}) => {
  const page = await newMember(browser, 'lots');
  await page.goto('/pricing');
  await expect(
    page.getByText('Credits from a one-time pack, free credits and gift credits never expire.'),
  ).toBeVisible();
  await expectAccessible(page);

  const pack = await buy(page, 'One-time', 'Explorer');
  await expect(pack.getByText(/100 credits added/)).toBeVisible();
  await pack.close();
  const plan = await buy(page, 'Monthly', 'Starter');
  await expect(plan.getByText(/60 credits added/)).toBeVisible();
  // 10 free + 100 bought + 60 of the plan: nothing was taken away by subscribing.
  await expect(plan.getByText(/new balance is 170 credits/)).toBeVisible();
  await plan.close();

  await page.goto('/app');
  await expect(
    page.getByRole('link', { name: /^170 credits \(Subscriber\)/ }).first(),
  ).toBeVisible();
  await expect(
    page.getByText(
      '60 subscription credits roll over; your 110 purchased and free credits never expire.',
      { exact: false },
    ),
  ).toBeVisible();
  // The month's bar counts the plan's own credits, not the pack's.
  await expect(page.getByText('60 / 60')).toBeVisible();
  await expectAccessible(page);
  await screenshot(page, 'money-dashboard-lots');

  await page.goto('/credits');
  await expect(page.getByText('Credit pack purchase').first()).toBeVisible();
  await expect(page.getByText('Rollover forfeited')).toHaveCount(0);
  await page.context().close();
});

test('a subscriber cannot buy their plan again; another plan is a change from the next renewal', async ({
  browser,
}) => {
  const page = await newMember(browser, 'planner');
  await page.goto('/pricing');
  (await buy(page, 'Monthly', 'Starter')).close();

  await page.reload();
  const starter = page.getByRole('article', { name: 'Starter' });
  await expect(starter.getByRole('button', { name: 'Your plan' })).toBeDisabled();
  await expect(starter.getByRole('button', { name: 'Subscribe' })).toHaveCount(0);
  await screenshot(page, 'money-pricing-subscriber');

  await page
    .getByRole('article', { name: 'Explorer' })
    .getByRole('button', { name: 'Change plan' })
    .click();
  const dialog = page.getByRole('alertdialog');
  await expect(dialog).toContainText('from your next renewal date');
  await expect(dialog).toContainText('Nothing is charged now.');
  await expectAccessible(page);
  await screenshot(page, 'money-change-plan-dialog');
  await dialog.getByRole('button', { name: 'Change to Explorer' }).click();
  await expect(page.getByText('Plan changed').first()).toBeVisible();
  await expect(dialog).toBeHidden();

  await page.goto('/app');
  await expect(page.getByRole('heading', { name: 'Explorer Subscription' })).toBeVisible();
  await screenshot(page, 'money-dashboard-changed-plan');
  await page.context().close();
});

test('an open plan checkout is continued, not started twice; a running plan is named', async ({
  browser,
}) => {
  const page = await newMember(browser, 'double');
  // A first plan checkout, left open (as in a tab closed before paying).
  const open = await page.request.post('/api/checkout', {
    data: { tierId: 1, isSubscription: true },
  });
  expect(open.ok()).toBe(true);
  const { sessionId } = (await open.json()) as { sessionId: string };

  await page.goto('/pricing');
  const checkoutTab = page.waitForEvent('popup');
  await page
    .getByRole('article', { name: 'Explorer' })
    .getByRole('button', { name: 'Subscribe' })
    .click();
  const checkout = await checkoutTab;
  // The server answers 409 checkout_in_progress with the open checkout: that one continues.
  await expect(checkout).toHaveURL(new RegExp(`/checkout/local/${sessionId}`));
  await expect(page.getByText('Your checkout is still open').first()).toBeVisible();
  await checkout.close();

  // A plan that started elsewhere while this page was open (simulated 409 subscription_active).
  await page.route('**/api/checkout', (route) =>
    route.fulfill({
      status: 409,
      json: {
        error: 'subscription_active',
        message: 'You already have a plan. Change it from the pricing page instead.',
      },
    }),
  );
  await page.getByRole('radio', { name: 'Monthly' }).check();
  const blankTab = page.waitForEvent('popup');
  await page
    .getByRole('article', { name: 'Stargazer' })
    .getByRole('button', { name: 'Subscribe' })
    .click();
  // The tab opened for the checkout is closed again (it may close before a listener could attach).
  const tab = await blankTab;
  await expect.poll(() => tab.isClosed()).toBe(true);
  await expect(page.getByText('You already have a plan').first()).toBeVisible();
  await page.context().close();
});

test('/success claims only a payment the server confirms', async ({ browser }) => {
  const page = await newMember(browser, 'claims');

  for (const address of ['/success', '/success?session_id=cs_local_nope']) {
    await page.goto(address);
    await expect(
      page.getByRole('heading', { name: "We couldn't find this payment" }),
    ).toBeVisible();
    await expect(page.getByText('Payment Successful!')).toHaveCount(0);
    await expect(page.getByText(/confirmation e-mail/)).toHaveCount(0);
    await expect(page.getByRole('link', { name: 'View Plans' })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Credit History', exact: true })).toBeVisible();
  }
  await expectAccessible(page);
  await screenshot(page, 'money-success-unknown');

  // A checkout that exists but was never paid.
  const open = await page.request.post('/api/checkout', {
    data: { tierId: 1, isSubscription: false },
  });
  const { sessionId } = (await open.json()) as { sessionId: string };
  await page.goto(`/success?session_id=${sessionId}`);
  await expect(page.getByRole('heading', { name: 'Confirming your payment…' })).toBeVisible();
  await expect(page.getByText('Payment Successful!')).toHaveCount(0);
  await expect(page.getByText(/confirmation e-mail/)).toHaveCount(0);
  await expectAccessible(page);
  await screenshot(page, 'money-success-unconfirmed');
  await page.context().close();
});

test('prices, features and terms speak of one currency and the true features', async ({
  browser,
}) => {
  const page = await newMember(browser, 'reader');
  const pricing = (await (await page.request.get('/api/pricing')).json()) as PricingResponse;
  const code = pricing.currency.toUpperCase();

  await page.goto('/pricing');
  await expect(page.getByText(`All prices are in ${code}`)).toBeVisible();
  for (const [billing, type] of [
    ['Monthly', 'subscription'],
    ['One-time', 'one_time'],
  ] as const) {
    await page.getByRole('radio', { name: billing }).check();
    for (const tier of pricing.tiers) {
      const row = tier.rows.find((candidate) => candidate.billingType === type);
      if (!row) continue;
      const features = page.getByRole('article', { name: tier.name }).getByRole('listitem');
      await expect(features).toHaveText(row.features.slice(0, 5));
    }
  }
  await screenshot(page, 'money-pricing-one-time');

  await page.goto('/terms-of-service');
  const prices = page.getByText(/All prices are in/);
  await expect(prices).toContainText(code);
  await expect(page.getByText(/Approved refunds are paid within 14 days/)).toContainText(code);
  for (const other of ['EUR', 'USD', 'GBP'].filter((candidate) => candidate !== code)) {
    await expect(page.getByRole('main')).not.toContainText(other);
  }
  await expect(page.getByRole('main')).not.toContainText(/\beuros?\b/i);
  await screenshot(page, 'money-terms-currency');

  // Credit history: words for people; the processor's ids only behind the disclosure.
  await page.goto('/pricing');
  (await buy(page, 'One-time', 'Starter')).close();
  await page.goto('/credits');
  const row = page.getByRole('row').filter({ hasText: 'Credit pack purchase' });
  await expect(row).toBeVisible();
  const references = row.getByText('Payment references');
  const checkoutId = row.getByText(/^cs_local_/);
  await expect(checkoutId).toBeHidden();
  await references.click();
  await expect(checkoutId).toBeVisible();
  await expect(page.getByText(/Invoice: in_local_/)).toHaveCount(0);
  await expectAccessible(page);
  await screenshot(page, 'money-credit-history');
  await page.context().close();
});

test('too few credits: cost and balance up front, then to the plans and back to the form', async ({
  browser,
}) => {
  const page = await newMember(browser, 'short');
  // The Celtic Cross costs 12; a new member has 10.
  await page.goto('/tarot-celtic-cross');
  await expect(
    page.getByText('This reading costs 12 credits and your balance is 10 credits.'),
  ).toBeVisible();
  await expect(page.getByRole('link', { name: 'Buy credits for this reading' })).toBeVisible();
  await expectAccessible(page);
  await screenshot(page, 'money-form-insufficient');

  await page.getByLabel('First name').fill('Emmy');
  await page.getByLabel('Your question').fill('Where does my work go next?');
  await page.getByRole('button', { name: 'Reveal the Celtic Cross' }).click();
  await expect(page).toHaveURL(/\/pricing\?returnTo=%2Ftarot-celtic-cross/);
  await expect(
    page.getByText("You don't have enough credits. Please purchase more to continue.").first(),
  ).toBeVisible();
  await screenshot(page, 'money-pricing-return');

  const checkout = await buy(page, 'One-time', 'Starter');
  await checkout.getByRole('link', { name: 'Back to Tarot Celtic Cross' }).click();
  await expect(checkout).toHaveURL(/\/tarot-celtic-cross$/);
  await expect(
    checkout.getByText(/This reading costs 12 credits\. Your balance: 50 credits\./),
  ).toBeVisible();
  await page.context().close();
});

test("the server's 402 shows the spec's message and leads to the plans with the way back", async ({
  browser,
}) => {
  const page = await newMember(browser, 'raced');
  // Another tab spent the credits meanwhile: the server refuses what the page thought affordable.
  await page.route('**/api/readings/tarot-traditional/start', (route) =>
    route.fulfill({
      status: 402,
      json: { error: 'insufficient_credits', message: 'Insufficient credits' },
    }),
  );
  await page.goto('/tarot-traditional');
  await expect(
    page.getByText(/This reading costs 4 credits\. Your balance: 10 credits\./),
  ).toBeVisible();
  await page.getByLabel('First name').fill('Emmy');
  await page.getByLabel('Your question').fill('What should I focus on?');
  await page.getByRole('button', { name: 'Draw My Cards' }).click();
  await expect(page).toHaveURL(/\/pricing\?returnTo=%2Ftarot-traditional/);
  await expect(
    page.getByText("You don't have enough credits. Please purchase more to continue.").first(),
  ).toBeVisible();
  await page.context().close();
});
