import { randomUUID } from 'node:crypto';
import { expect, test } from '@playwright/test';
import Stripe from 'stripe';
import { E2E } from './ports.ts';
import { expectAccessible, nextGoogleAccount, screenshot, uniqueEmail } from './support.ts';

test.describe.configure({ mode: 'serial' });

/** Sends a Stripe event to the app, signed as Stripe signs it. */
async function deliverStripeEvent(type: string, object: Record<string, unknown>) {
  const payload = JSON.stringify({
    id: `evt_${randomUUID()}`,
    object: 'event',
    type,
    created: Math.floor(Date.now() / 1000),
    data: { object },
  });
  const signature = new Stripe('sk_test_signing_only').webhooks.generateTestHeaderString({
    payload,
    secret: E2E.webhookSecret,
  });
  const answer = await fetch(`${E2E.baseUrl}/api/webhooks/stripe`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'stripe-signature': signature },
    body: payload,
  });
  expect(answer.status).toBe(200);
}

test('a visitor chooses a pack, signs in with Google, and the purchase resumes: pay, success, the badge rises', async ({
  browser,
  playwright,
}) => {
  const email = uniqueEmail('buyer');
  // A member who has been here before (birth data known), so sign-in returns to the pricing page.
  const api = await playwright.request.newContext({ baseURL: E2E.baseUrl });
  await api.post('/api/auth/dev-login', { data: { email, fullName: 'Grace Hopper' } });
  await api.patch('/api/me', {
    data: { birthDate: '1990-12-09', birthCity: 'New York', birthCountry: 'United States' },
  });
  await api.dispose();

  const page = await (await browser.newContext()).newPage();
  await page.goto('/pricing');
  await expect(page.getByRole('heading', { name: 'Choose Your Journey' })).toBeVisible();
  await expectAccessible(page);
  await screenshot(page, 'pricing');
  await page.getByRole('radio', { name: 'One-time' }).check();
  const explorer = page.getByRole('article', { name: 'Explorer' });
  await expect(explorer.getByText('17.99')).toBeVisible();
  await explorer.getByRole('button', { name: 'Buy Credits' }).click();

  const dialog = page.getByRole('dialog');
  await expect(dialog).toBeVisible();
  await nextGoogleAccount(email, 'Grace Hopper');
  await dialog.getByRole('button', { name: 'Continue with Google' }).click();

  // Back on /pricing, signed in: 500 ms later the purchase goes on to checkout.
  await expect(page).toHaveURL(/\/checkout\/local\//, { timeout: 20_000 });
  await expect(page.getByText('Explorer').first()).toBeVisible();
  await screenshot(page, 'local-checkout');
  await page.getByRole('button', { name: 'Pay' }).click();
  await expect(page).toHaveURL(/\/success\?session_id=/);
  await expect(page.getByRole('heading', { name: 'Payment Successful!' })).toBeVisible();
  await expect(page.getByText(/100 credits added/)).toBeVisible();
  await expect(page.getByRole('link', { name: /^110 credits/ }).first()).toBeVisible();
  await screenshot(page, 'payment-success');
  await page.context().close();
});

test('a member subscribes in a new tab; the dashboard shows the subscription', async ({
  browser,
}) => {
  const page = await (await browser.newContext()).newPage();
  await page.request.post('/api/auth/dev-login', {
    data: { email: uniqueEmail('subscriber'), fullName: 'Ada Lovelace' },
  });
  await page.goto('/pricing');
  const starter = page.getByRole('article', { name: 'Starter' });
  await expect(starter.getByText('/month')).toBeVisible();
  const checkoutTab = page.waitForEvent('popup');
  await starter.getByRole('button', { name: 'Subscribe' }).click();
  const checkout = await checkoutTab;
  await expect(checkout).toHaveURL(/\/checkout\/local\//);
  await checkout.getByRole('button', { name: 'Pay' }).click();
  await expect(checkout.getByRole('heading', { name: 'Payment Successful!' })).toBeVisible();
  await expect(checkout.getByText(/60 credits added/)).toBeVisible();

  await page.bringToFront();
  await page.goto('/app');
  await expect(page.getByRole('link', { name: /70 credits \(Subscriber\)/ }).first()).toBeVisible();
  await expect(page.getByText('Starter').first()).toBeVisible();
  await expect(page.getByText(/refresh automatically/i)).toBeVisible();
  await expectAccessible(page);
  await screenshot(page, 'dashboard-subscriber');
  await page.context().close();
});

test('a subscriber whose month is due refreshes it, then cancels', async ({ browser }) => {
  const page = await (await browser.newContext()).newPage();
  const me = await (
    await page.request.post('/api/auth/dev-login', {
      data: { email: uniqueEmail('renewer'), fullName: 'Mary Somerville' },
    })
  ).json();
  // Stripe reports the subscription before any invoice: active, its first month still to grant.
  await deliverStripeEvent('customer.subscription.updated', {
    id: `sub_${randomUUID()}`,
    object: 'subscription',
    status: 'active',
    cancel_at_period_end: false,
    metadata: { userId: me.id, tierId: '1', billingType: 'subscription' },
  });

  await page.goto('/app');
  await expect(page.getByText('Credits Available!').first()).toBeVisible();
  await page.getByRole('button', { name: 'Refresh Monthly Credits' }).click();
  await expect(page.getByText('Credits Refreshed!').first()).toBeVisible();
  // The 10 free credits are kept beside the plan's, whether or not the message counts them
  // as rolled over (credit lots: only subscription credits roll over).
  await expect(
    page.getByText(
      /^Monthly credits refreshed! Added 60 credits \+ \d+ rolled over\. New balance: 70\.$/,
    ),
  ).toBeVisible();
  await expect(
    page.getByRole('link', { name: /^70 credits \(Subscriber\)/ }).first(),
  ).toBeVisible();

  await page.getByRole('button', { name: 'Cancel Subscription' }).click();
  await page
    .getByRole('alertdialog')
    .getByRole('button', { name: 'Yes, cancel my subscription' })
    .click();
  await expect(page.getByText('Subscription Cancelled').first()).toBeVisible();
  await expect(page.getByText('Cancelled', { exact: true })).toBeVisible();
  await screenshot(page, 'subscription-cancelled');

  await page.goto('/credits');
  await expect(page.getByText(/Starter monthly credits/)).toBeVisible();
  await page.context().close();
});

test('a canceled checkout lands on the cancel page and charges nothing', async ({ browser }) => {
  const page = await (await browser.newContext()).newPage();
  await page.request.post('/api/auth/dev-login', { data: { email: uniqueEmail('hesitant') } });
  await page.goto('/pricing');
  await page.getByRole('radio', { name: 'One-time' }).check();
  const checkoutTab = page.waitForEvent('popup');
  await page
    .getByRole('article', { name: 'Starter' })
    .getByRole('button', { name: 'Buy Credits' })
    .click();
  const checkout = await checkoutTab;
  await checkout.getByRole('button', { name: 'Cancel' }).click();
  await expect(checkout.getByRole('heading', { name: 'Payment Canceled' })).toBeVisible();
  await expect(checkout.getByRole('link', { name: /^10 credits/ }).first()).toBeVisible();
  await screenshot(checkout, 'payment-canceled');
  await page.context().close();
});
