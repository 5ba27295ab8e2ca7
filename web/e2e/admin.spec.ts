/**
 * The admin panel as staff use it (spec §2 "Admin panel", §4 "Admin access", §8): who gets in,
 * the four stats, Credit Management and User Management with each action's outcome, and what a
 * blocked user meets on a reading form.
 */
import { adminMessages } from '@astra/contracts';
import { expect, type Locator, type Page, test } from '@playwright/test';
import {
  ADMIN_EMAIL,
  ADMIN_PASSWORD,
  expectAccessible,
  screenshot,
  signedIn,
  toast,
  uniqueEmail,
} from './support.ts';

test.describe.configure({ mode: 'serial' });

let admin: Page;
let member: Page;
let memberEmail: string;

test.beforeAll(async ({ browser }) => {
  memberEmail = uniqueEmail('managed');
  member = (await signedIn(browser, memberEmail, 'Marie Curie')).page;
});
test.afterAll(async () => {
  await admin?.context().close();
  await member?.context().close();
});

test('a visitor who is not signed in is sent to sign in', async ({ page }) => {
  await page.goto('/admin');
  await expect(page).toHaveURL(/\/auth\?returnUrl=%2Fadmin/);
  await expect(page.getByText(adminMessages.signInRequired)).toBeVisible();
});

test('a signed-in member without the admin role is sent to the dashboard', async () => {
  await member.goto('/admin');
  await expect(member).toHaveURL(/\/app$/);
  await expect(member.getByText(adminMessages.accessDenied)).toBeVisible();
});

test('an admin meets the password gate: a wrong password is refused and cleared, the right one opens the panel', async ({
  browser,
}) => {
  admin = (await signedIn(browser, ADMIN_EMAIL)).page;
  await admin.goto('/app');
  await admin.getByRole('button', { name: 'Profile' }).click();
  await admin.getByRole('menuitem', { name: 'Admin Panel' }).click();
  await expect(admin).toHaveURL(/\/admin$/);
  await expect(admin.getByRole('heading', { name: 'Admin Access' })).toBeVisible();
  await expectAccessible(admin);
  await screenshot(admin, 'admin-gate');

  const password = admin.getByLabel('Admin password');
  await password.fill('not-the-password');
  await admin.getByRole('button', { name: 'Unlock Admin Panel' }).click();
  await expect(toast(admin, adminMessages.incorrectPassword)).toBeVisible();
  await expect(password).toHaveValue('');
  await expect(admin.getByRole('heading', { name: 'Admin Panel' })).toHaveCount(0);

  await password.fill(ADMIN_PASSWORD);
  await admin.getByRole('button', { name: 'Unlock Admin Panel' }).click();
  await expect(toast(admin, adminMessages.accessGranted)).toBeVisible();
  await expect(admin.getByRole('heading', { name: 'Admin Panel', level: 1 })).toBeVisible();
  await expect(admin.getByText(/^Unlocked until /)).toBeVisible();
});

test('the stat cards show numbers, a 30-day chart and when they are as of', async () => {
  for (const label of [
    'Total Users',
    'Active Users',
    'Credits Used',
    'Revenue',
    'Cash collected',
  ]) {
    const card = admin.locator('.chakra-stat__root', { hasText: label });
    await expect(card.getByTestId('stat-value')).toHaveText(/\d/);
  }
  // Recognized revenue and cash, each amount with its currency.
  await expect(admin.getByTestId('stat-value').nth(3)).toHaveText(/^[$€£]|[A-Z]{3}/);
  await expect(admin.getByTestId('stat-value').nth(4)).toHaveText(/^[$€£]|[A-Z]{3}/);
  await expect(admin.getByText(/^\d[\d,]* blocked · \d[\d,]* deleted$/)).toBeVisible();
  await expect(admin.getByRole('img', { name: /^New sign-ups per day, / })).toBeVisible();
  await expect(admin.getByRole('img', { name: /^Credits used per day, / })).toBeVisible();
  await expect(
    admin.getByRole('img', { name: /^Cash collected per day in [A-Z]{3}, / }),
  ).toBeVisible();
  await expect(admin.getByText(/^as of /)).toBeVisible();
  await expectAccessible(admin);
  await screenshot(admin, 'admin-panel');
});

const users = () => admin.getByRole('region', { name: 'User Management' });
const memberRow = (): Locator => users().getByRole('listitem').filter({ hasText: memberEmail });

test('search finds a user by part of the e-mail', async () => {
  const part = memberEmail.split('@')[0]!.slice(0, 22);
  await users().getByRole('searchbox', { name: 'Search users' }).fill(part.toUpperCase());
  await expect(memberRow()).toHaveCount(1);
  await expect(memberRow().getByText('Marie Curie')).toBeVisible();
  await expect(users().getByText(/^1 user matching /)).toBeVisible();
  await expect(users().getByText(/^Page 1 of 1$/)).toBeVisible();
  await expect(users().getByRole('listitem')).toHaveCount(1);
});

test('an admin cannot block themselves: the server says why', async () => {
  const search = users().getByRole('searchbox', { name: 'Search users' });
  await search.fill(ADMIN_EMAIL);
  const own = users().getByRole('listitem').filter({ hasText: ADMIN_EMAIL });
  await own.getByRole('button', { name: 'Block' }).click();
  await expect(toast(admin, adminMessages.statusFailed)).toBeVisible();
  await expect(toast(admin, 'You cannot block your own account')).toBeVisible();
  await expect(own.getByText('Active')).toBeVisible();
  await search.fill(memberEmail);
  await expect(users().getByText(/^1 user matching /)).toBeVisible();
});

test('block: the blocked user is turned away from reading forms; unblock lets them back', async () => {
  await memberRow().getByRole('button', { name: 'Block' }).click();
  await expect(toast(admin, adminMessages.blocked)).toBeVisible();
  await expect(memberRow().getByText('Blocked', { exact: true })).toBeVisible();

  await member.goto('/lifepathnumber');
  await expect(member).toHaveURL(/\/app$/);
  await expect(member.getByText(adminMessages.accountBlocked)).toBeVisible();
  await screenshot(member, 'admin-blocked-user');

  await memberRow().getByRole('button', { name: 'Unblock' }).click();
  await expect(toast(admin, adminMessages.unblocked)).toBeVisible();
  await expect(memberRow().getByText('Active', { exact: true })).toBeVisible();

  await member.goto('/lifepathnumber');
  await expect(member.getByRole('heading', { level: 1 })).toBeVisible();
  await expect(member).toHaveURL(/\/lifepathnumber$/);
});

test('promote, then demote', async () => {
  await memberRow().getByRole('button', { name: 'Promote' }).click();
  await expect(toast(admin, adminMessages.promoted)).toBeVisible();
  await expect(memberRow().getByText('Admin', { exact: true })).toBeVisible();
  await memberRow().getByRole('button', { name: 'Demote' }).click();
  await expect(toast(admin, adminMessages.demoted)).toBeVisible();
  await expect(memberRow().getByText('User', { exact: true })).toBeVisible();
});

test('adjust credits from the list: confirmed on the balance shown, a deduction beyond the balance refused, the ledger shows it', async () => {
  const balance = memberRow().getByTestId('user-balance');
  const before = Number((await balance.textContent())!.replace(/\D/g, ''));
  await memberRow().getByRole('button', { name: 'Adjust credits' }).click();

  const card = admin.getByRole('region', { name: 'Credit Management' });
  const customer = card.getByTestId('credit-customer');
  await expect(customer).toContainText('Marie Curie');
  await expect(customer).toContainText(memberEmail);
  await expect(customer).toContainText(`Current balance: ${before} credits`);
  await expect(card.getByLabel('Amount')).toBeFocused();
  const confirmation = admin.getByRole('alertdialog', { name: 'Confirm credit adjustment' });
  /** Update Credits, then Confirm on a confirmation that states `statement`. */
  const updateAndConfirm = async (statement: string) => {
    await card.getByRole('button', { name: 'Update Credits' }).click();
    await expect(confirmation.getByTestId('credit-confirmation')).toHaveText(statement);
    await confirmation.getByRole('button', { name: 'Confirm' }).click();
    await expect(confirmation).toHaveCount(0);
  };
  const who = `Marie Curie (${memberEmail})`;

  await card.getByLabel('Amount').fill('twelve');
  await card.getByLabel('Reason').fill('Goodwill for a failed reading');
  await card.getByRole('button', { name: 'Update Credits' }).click();
  await expect(card.getByText(adminMessages.invalidNumber)).toBeVisible();
  await expect(confirmation).toHaveCount(0);

  await card.getByLabel('Amount').fill('25');
  await updateAndConfirm(`Add 25 credits to ${who}: ${before} → ${before + 25}`);
  await expect(toast(admin, 'Added 25 credits successfully')).toBeVisible();
  await expect(balance).toHaveText(`${before + 25} credits`);
  await expect(customer).toContainText(`Current balance: ${before + 25} credits`);
  await expect(card.getByLabel('Amount')).toHaveValue('');

  await card.getByLabel('Amount').fill('-100000');
  await card.getByLabel('Reason').fill('Too much');
  await updateAndConfirm(
    `Deduct 100,000 credits from ${who}: ${before + 25} → ${(before + 25 - 100_000).toLocaleString('en-US')}`,
  );
  await expect(toast(admin, adminMessages.creditsFailed)).toBeVisible();
  await expect(admin.getByText(`the balance is ${before + 25}`).first()).toBeVisible();

  await card.getByLabel('Amount').fill('-5');
  await updateAndConfirm(`Deduct 5 credits from ${who}: ${before + 25} → ${before + 20}`);
  await expect(toast(admin, 'Deducted 5 credits successfully')).toBeVisible();
  await expect(balance).toHaveText(`${before + 20} credits`);

  await memberRow().getByRole('button', { name: 'View ledger' }).click();
  const ledger = admin.getByRole('dialog', { name: /Credit ledger/ });
  await expect(ledger.getByText('Goodwill for a failed reading')).toBeVisible();
  await expect(ledger.getByText('Too much')).toBeVisible();
  await expectAccessible(admin);
  await screenshot(admin, 'admin-user-ledger');
  await ledger.getByRole('button', { name: 'Close' }).first().click();
  await expect(ledger).toHaveCount(0);
});

test('at 390 px wide and in dark mode the panel stays usable', async () => {
  await admin.setViewportSize({ width: 390, height: 844 });
  await admin.reload();
  await expect(admin.getByRole('heading', { name: 'Admin Panel', level: 1 })).toBeVisible();
  await users().getByRole('searchbox', { name: 'Search users' }).fill(memberEmail);
  await expect(users().getByText(/^1 user matching /)).toBeVisible();
  await expect(users().getByRole('listitem')).toHaveCount(1);
  const overflow = await admin.evaluate(
    () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
  );
  expect(overflow).toBeLessThanOrEqual(0);
  await screenshot(admin, 'admin-panel-390');

  await admin.setViewportSize({ width: 1280, height: 900 });
  await admin.evaluate(() => window.localStorage.setItem('astra-color-mode', 'dark'));
  await admin.reload();
  await expect(admin.locator('html')).toHaveClass(/dark/);
  await expect(admin.getByRole('heading', { name: 'Admin Panel', level: 1 })).toBeVisible();
  await expect(admin.getByTestId('stat-value').first()).toHaveText(/\d/);
  await expectAccessible(admin);
  await screenshot(admin, 'admin-panel-dark');
  await admin.evaluate(() => window.localStorage.setItem('astra-color-mode', 'light'));
});

test('delete asks first, then removes the user', async () => {
  await admin.reload();
  await users().getByRole('searchbox', { name: 'Search users' }).fill(memberEmail);
  await memberRow().getByRole('button', { name: 'Delete' }).click();
  const confirm = admin.getByRole('alertdialog', { name: 'Delete user' });
  await expect(confirm.getByText(adminMessages.deleteConfirm)).toBeVisible();
  await confirm.getByRole('button', { name: 'Delete' }).click();
  await expect(toast(admin, adminMessages.deleted)).toBeVisible();
  await expect(memberRow()).toHaveCount(0);
  await expect(users().getByText('No users match this search.')).toBeVisible();
});

test('Lock returns to the password gate', async () => {
  await admin.getByRole('button', { name: 'Lock' }).click();
  await expect(admin.getByRole('heading', { name: 'Admin Access' })).toBeVisible();
  await admin.reload();
  await expect(admin.getByRole('heading', { name: 'Admin Access' })).toBeVisible();
});
