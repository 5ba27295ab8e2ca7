/**
 * Credit Management is bound to one customer (issue 24, the staff audit's D1 and D4): a new
 * search lets the earlier choice go, the customer is shown by name, e-mail and a balance read
 * fresh, and nothing is adjusted before a confirmation that states the change on that balance.
 * The server refuses an adjustment made on a balance that has moved since (the confirmation asks
 * again on the balance now), and an admin's adjustment of their own credits.
 */
import { adminMessages } from '@astra/contracts';
import {
  type APIRequestContext,
  type Browser,
  expect,
  type Page,
  request,
  test,
} from '@playwright/test';
import { E2E } from './ports.ts';
import {
  ADMIN_EMAIL,
  ADMIN_PASSWORD,
  expectAccessible,
  screenshot,
  toast,
  uniqueEmail,
} from './support.ts';

test.describe.configure({ mode: 'serial' });

/** A member signed in once (development sign-in), with their id. */
async function member(email: string, fullName: string) {
  const context = await request.newContext({ baseURL: E2E.baseUrl });
  const answer = await context.post('/api/auth/dev-login', { data: { email, fullName } });
  expect(answer.ok()).toBe(true);
  const { id } = (await answer.json()) as { id: string };
  await context.dispose();
  return id;
}

/** The admin's API session (unlocked once), standing for "someone else, meanwhile". */
let api: APIRequestContext;
let admin: Page;
let alice: { id: string; email: string };
let bob: { id: string; email: string };

const balanceOf = async (id: string) => {
  const answer = await api.get(`/api/admin/users/${id}`);
  expect(answer.ok()).toBe(true);
  return ((await answer.json()) as { balance: number }).balance;
};
const adjust = async (id: string, amount: number, reason: string) => {
  const answer = await api.post(`/api/admin/users/${id}/credits`, { data: { amount, reason } });
  expect(answer.ok(), await answer.text()).toBe(true);
};
/** The admin adjustments on a user's ledger, newest first. */
const adjustmentsOf = async (id: string) => {
  const answer = await api.get(`/api/admin/users/${id}/ledger`);
  const { items } = (await answer.json()) as { items: { type: string; reason: string }[] };
  return items.filter((item) => item.type === 'CreditsAdjusted').map((item) => item.reason);
};

async function unlockedAdminPage(browser: Browser) {
  const page = await (await browser.newContext()).newPage();
  expect(
    (await page.request.post('/api/auth/dev-login', { data: { email: ADMIN_EMAIL } })).ok(),
  ).toBe(true);
  await page.goto('/admin');
  await page.getByLabel('Admin password').fill(ADMIN_PASSWORD);
  await page.getByRole('button', { name: 'Unlock Admin Panel' }).click();
  await expect(page.getByRole('heading', { name: 'Admin Panel', level: 1 })).toBeVisible();
  return page;
}

const card = () => admin.getByRole('region', { name: 'Credit Management' });
const customer = () => card().getByTestId('credit-customer');
const confirmation = () => admin.getByRole('alertdialog', { name: 'Confirm credit adjustment' });

test.beforeAll(async ({ browser }) => {
  alice = { email: uniqueEmail('alice'), id: '' };
  bob = { email: uniqueEmail('bob'), id: '' };
  alice.id = await member(alice.email, 'Alice Anders');
  bob.id = await member(bob.email, 'Bob Baker');
  api = await request.newContext({ baseURL: E2E.baseUrl });
  await api.post('/api/auth/dev-login', { data: { email: ADMIN_EMAIL } });
  expect((await api.post('/api/admin/unlock', { data: { password: ADMIN_PASSWORD } })).ok()).toBe(
    true,
  );
  // The audit's balances: Alice 93, Bob 12 (each starts with the free 10).
  await adjust(alice.id, 83, 'Audit set-up');
  await adjust(bob.id, 2, 'Audit set-up');
  admin = await unlockedAdminPage(browser);
});
test.afterAll(async () => {
  await admin?.context().close();
  await api?.dispose();
});

test('the audit: Adjust credits on Alice, then a search for Bob lets Alice go; +5 reaches Bob after a confirmation', async () => {
  // 1. In User Management, search Alice and press Adjust credits on her.
  const users = admin.getByRole('region', { name: 'User Management' });
  await users.getByRole('searchbox', { name: 'Search users' }).fill(alice.email);
  const aliceRow = users.getByRole('listitem').filter({ hasText: alice.email });
  await aliceRow.getByRole('button', { name: 'Adjust credits' }).click();
  await expect(customer()).toContainText('Alice Anders');
  await expect(customer()).toContainText(alice.email);
  await expect(customer()).toContainText('Current balance: 93 credits');
  await expect(card().getByLabel('Amount')).toBeFocused();

  // 2. Type Bob in "Find user": one match, and Alice is no longer the one adjusted.
  await card().getByRole('searchbox', { name: 'Find user' }).fill(bob.email.split('@')[0]!);
  await expect(card().getByText(/^1 match/)).toBeVisible();
  await expect(customer()).toHaveText('No user chosen. Find one and choose them under User.');
  const userSelect = card().getByLabel('User', { exact: true });
  await expect(userSelect).toHaveValue('');
  await expect(userSelect.locator('option', { hasText: 'Alice Anders' })).toHaveCount(0);

  // 3. Amount 5, reason "Goodwill for Bob", Update Credits: there is no one to adjust yet.
  await card().getByLabel('Amount').fill('5');
  await card().getByLabel('Reason').fill('Goodwill for Bob');
  await card().getByRole('button', { name: 'Update Credits' }).click();
  await expect(card().getByText('Please choose a user')).toBeVisible();
  await expect(confirmation()).toHaveCount(0);
  await screenshot(admin, 'admin-credits-new-search-lets-go');

  // Bob, chosen: shown by name, e-mail and his balance now; the confirmation states the change.
  await userSelect.selectOption({ label: `Bob Baker · ${bob.email}` });
  await expect(customer()).toContainText('Bob Baker');
  await expect(customer()).toContainText(bob.email);
  await expect(customer()).toContainText('Current balance: 12 credits');
  await card().getByRole('button', { name: 'Update Credits' }).click();
  await expect(confirmation().getByTestId('credit-confirmation')).toHaveText(
    `Add 5 credits to Bob Baker (${bob.email}): 12 → 17`,
  );
  await expect(confirmation().getByText('Reason: Goodwill for Bob')).toBeVisible();
  await expectAccessible(admin);
  await screenshot(admin, 'admin-credits-confirm');

  // 4. Confirmed: Bob has 17, Alice still 93 with no adjustment but her set-up.
  await confirmation().getByRole('button', { name: 'Confirm' }).click();
  await expect(toast(admin, 'Added 5 credits successfully')).toBeVisible();
  await expect(confirmation()).toHaveCount(0);
  await expect(card().getByRole('status')).toHaveText(
    'Added 5 credits successfully. Bob Baker now has 17 credits.',
  );
  await expect(customer()).toContainText('Current balance: 17 credits');
  expect(await balanceOf(bob.id)).toBe(17);
  expect(await balanceOf(alice.id)).toBe(93);
  expect(await adjustmentsOf(alice.id)).toEqual(['Audit set-up']);
  expect(await adjustmentsOf(bob.id)).toEqual(['Goodwill for Bob', 'Audit set-up']);
  await screenshot(admin, 'admin-credits-added');
});

test('a balance that moved after the admin saw it is refused; the confirmation asks again on the balance now', async () => {
  await expect(customer()).toContainText('Current balance: 17 credits');
  // Meanwhile, elsewhere: Bob's balance moves to 15, which this page has not seen.
  await adjust(bob.id, -2, 'Spent elsewhere');
  await expect(customer()).toContainText('Current balance: 17 credits');

  await card().getByLabel('Amount').fill('-2');
  await card().getByLabel('Reason').fill('Correction');
  await card().getByRole('button', { name: 'Update Credits' }).click();
  const statement = confirmation().getByTestId('credit-confirmation');
  await expect(statement).toHaveText(`Deduct 2 credits from Bob Baker (${bob.email}): 17 → 15`);
  await confirmation().getByRole('button', { name: 'Confirm' }).click();

  // Refused (409 balance_changed): nothing written, and the question again with 15.
  await expect(
    confirmation().getByText(
      'The balance changed: it is 15 credits now, not 17. Check the adjustment and try again.',
    ),
  ).toBeVisible();
  await expect(statement).toHaveText(`Deduct 2 credits from Bob Baker (${bob.email}): 15 → 13`);
  expect(await balanceOf(bob.id)).toBe(15);
  expect(await adjustmentsOf(bob.id)).not.toContain('Correction');
  await expectAccessible(admin);
  await screenshot(admin, 'admin-credits-balance-changed');

  await confirmation().getByRole('button', { name: 'Confirm' }).click();
  await expect(toast(admin, 'Deducted 2 credits successfully')).toBeVisible();
  await expect(card().getByRole('status')).toHaveText(
    'Deducted 2 credits successfully. Bob Baker now has 13 credits.',
  );
  await expect(customer()).toContainText('Current balance: 13 credits');
  expect(await balanceOf(bob.id)).toBe(13);
});

test("an admin's own credits are refused with the server's reason (another admin must adjust them)", async () => {
  const me = (await (await api.get('/api/me')).json()) as { id: string; remainingCredits: number };
  const shown = me.remainingCredits.toLocaleString('en-US');
  await card().getByRole('searchbox', { name: 'Find user' }).fill(ADMIN_EMAIL);
  const userSelect = card().getByLabel('User', { exact: true });
  const own = userSelect.locator('option', { hasText: / · admin@example\.com$/ });
  await expect(own).toHaveCount(1);
  await userSelect.selectOption((await own.getAttribute('value'))!);
  await expect(customer()).toContainText(ADMIN_EMAIL);
  await expect(customer()).toContainText(`Current balance: ${shown} credit`);

  await card().getByLabel('Amount').fill('1000');
  await card().getByLabel('Reason').fill('self-grant test');
  await card().getByRole('button', { name: 'Update Credits' }).click();
  await expect(confirmation().getByTestId('credit-confirmation')).toHaveText(
    new RegExp(`^Add 1,000 credits to .*admin@example\\.com.*: ${shown} → `),
  );
  await confirmation().getByRole('button', { name: 'Confirm' }).click();
  await expect(toast(admin, adminMessages.creditsFailed)).toBeVisible();
  await expect(
    toast(admin, 'You cannot adjust your own credits: another admin must do it'),
  ).toBeVisible();
  await expect(confirmation()).toHaveCount(0);
  await screenshot(admin, 'admin-credits-own-refused');
  expect(((await (await api.get('/api/me')).json()) as typeof me).remainingCredits).toBe(
    me.remainingCredits,
  );
});
