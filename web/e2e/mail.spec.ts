/**
 * Transactional e-mail as development shows it (no `SMTP_URL`): a member buys a pack on the local
 * checkout, /success says the confirmation is in the development mailbox (never that an e-mail is
 * on its way), and /dev/mail lists the receipt for their address with its HTML and plain text; an
 * admin sees the `mail` reactor on the Projections page.
 */
import { expect, type Page, test } from '@playwright/test';
import {
  ADMIN_EMAIL,
  ADMIN_PASSWORD,
  expectAccessible,
  screenshot,
  signedIn,
  uniqueEmail,
} from './support.ts';

test.describe.configure({ mode: 'serial' });

let page: Page;
let email: string;
/** The pack's credits, as /success reports them. */
let credits: string;

test.beforeAll(async ({ browser }) => {
  email = uniqueEmail('receipt');
  ({ page } = await signedIn(browser, email, 'Hedy Lamarr'));
});
test.afterAll(async () => page?.context().close());

test('a member pays a pack on the local checkout; /success points to the development mailbox', async () => {
  const checkout = await page.request.post('/api/checkout', {
    data: { tierId: 1, isSubscription: false },
  });
  expect(checkout.ok()).toBe(true);
  const { sessionId } = (await checkout.json()) as { sessionId: string };
  await page.goto(`/checkout/local/${encodeURIComponent(sessionId)}`);
  await page.getByRole('button', { name: 'Pay' }).click();

  await expect(page).toHaveURL(/\/success\?session_id=/);
  await expect(page.getByRole('heading', { name: 'Payment Successful!' })).toBeVisible();
  const added = page.getByText(/^\d+ credits added to your balance\.$/);
  await expect(added).toBeVisible();
  credits = /^(\d+)/.exec((await added.textContent()) ?? '')?.[1] ?? '';
  expect(credits).not.toBe('');

  await expect(
    page.getByText(
      'No e-mail leaves this development server: the confirmation is in the development mailbox.',
    ),
  ).toBeVisible();
  // Nothing leaves this server: no page may say an e-mail is on its way.
  await expect(page.getByText(/on its way to|follows shortly/)).toHaveCount(0);
  const mailbox = page.getByRole('link', { name: 'development mailbox' });
  await expect(mailbox).toHaveAttribute('href', '/dev/mail');
  await screenshot(page, 'mail-success-development-mailbox');
  await mailbox.click();
  await expect(page).toHaveURL(/\/dev\/mail$/);
});

test('/dev/mail lists the receipt for their address, with its HTML and its plain text', async () => {
  await expect(page.getByRole('heading', { name: 'Development mailbox', level: 1 })).toBeVisible();
  const messages = page.getByRole('list', { name: 'Messages, newest first' });
  // The reactor sends shortly after the payment; the list refreshes every few seconds.
  const receipt = messages
    .getByRole('button')
    .filter({ hasText: email })
    .filter({ hasText: /^Your Astra receipt/ });
  await expect(receipt).toHaveCount(1, { timeout: 30_000 });
  await expect(receipt).toContainText('Purchase receipt');
  await expect(receipt).toContainText('sent');
  await receipt.click();
  await expect(receipt).toHaveAttribute('aria-current', 'true');

  const message = page.getByTestId('mail-message');
  await expect(message.getByRole('heading', { name: /^Your Astra receipt/ })).toContainText(
    `${credits} credits`,
  );
  await expect(message.getByText(email, { exact: true })).toBeVisible();
  await expect(message.getByText(/^<.+@.+>$/)).toBeVisible();

  // The HTML, in a frame that may run nothing and reach nothing of this page.
  const frame = message.locator('iframe');
  await expect(frame).toHaveAttribute('sandbox', '');
  await expect(frame).toHaveAttribute('title', /^HTML of “Your Astra receipt/);
  await expect(message.frameLocator('iframe').locator('body')).toContainText(`${credits} credits`);
  await screenshot(page, 'dev-mail-receipt');

  await message.getByRole('button', { name: 'Plain text' }).click();
  await expect(message.getByRole('button', { name: 'Plain text' })).toHaveAttribute(
    'aria-pressed',
    'true',
  );
  await expect(message.locator('iframe')).toHaveCount(0);
  await expect(message.getByLabel(/^Plain text of “Your Astra receipt/)).toContainText(
    `${credits} credits`,
  );
  // Checked without the message's frame: a sandboxed frame runs no script, axe's included.
  await expectAccessible(page);

  const templates = page.getByRole('region', { name: 'Templates', exact: true });
  const purchase = templates.locator('details[data-kind="purchase_receipt"]');
  await expect(purchase).toBeVisible();
  await purchase.locator('summary').click();
  await expect(purchase.locator('iframe')).toHaveAttribute('sandbox', '');
  await expect(purchase.frameLocator('iframe').locator('body')).not.toBeEmpty();
  await screenshot(page, 'dev-mail-templates');
});

test('an admin sees the mail reactor on the Projections page', async ({ browser }) => {
  const admin = (await signedIn(browser, ADMIN_EMAIL)).page;
  try {
    expect(
      (await admin.request.post('/api/admin/unlock', { data: { password: ADMIN_PASSWORD } })).ok(),
    ).toBe(true);
    await admin.goto('/admin?tab=projections');
    const section = admin.getByRole('region', { name: 'Reactors', exact: true });
    await expect(section.getByRole('heading', { name: 'Reactors' })).toBeVisible();
    const row = section
      .getByRole('table', { name: 'Reactors', exact: true })
      .locator('tr[data-reactor="mail"]');
    await expect(row).toBeVisible();
    await expect(row.getByRole('cell').first()).toHaveText('mail');
    await expect(row.getByTestId('reactor-lag-events')).toHaveText(/^\d[\d,]*$/);
    // The development mailbox keeps every message: nothing fails or is parked.
    await expect(section.getByTestId('reactor-problems-mail')).toContainText(
      'No failing or parked messages.',
    );
    await expectAccessible(admin);
    await screenshot(admin, 'admin-projections-reactors');
  } finally {
    await admin.context().close();
  }
});
