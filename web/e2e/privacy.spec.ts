/**
 * Forget on request (issue 25), as a person and the staff meet it: a member downloads their
 * data, deletes the account and signs in again with the same address, and finds nothing of the
 * old account; an admin still sees the old account's money lines, without its e-mail or name.
 */
import { readFile } from 'node:fs/promises';
import type { PersonalDataExport } from '@astra/contracts';
import { expect, type Page, test } from '@playwright/test';
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

const QUESTION = 'Will my secret affair with Bruno stay hidden?';
const FIRST = 'Clarissa';
const LAST = 'Vandermeer';

let page: Page;
let email: string;
let oldId: string;

test.beforeAll(async ({ browser }) => {
  email = uniqueEmail('forget-me');
  ({ page, id: oldId } = await signedIn(browser, email, `${FIRST} ${LAST}`));
});
test.afterAll(async () => page?.context().close());

test('the Privacy page says what outlives a deletion, and how to get a copy or ask for deletion', async () => {
  await page.goto('/privacy-policy');
  const kept = page.getByRole('heading', { name: /What is kept after you delete your account/ });
  await expect(kept).toBeVisible();
  for (const line of [/Payments, for 10 years/, /The usage log/, /free credits will not reset/])
    await expect(page.getByRole('listitem').filter({ hasText: line })).toBeVisible();
  await expect(page.getByText(/destroys that key/)).toBeVisible();
  await expect(page.getByRole('link', { name: 'profile page' })).toHaveAttribute(
    'href',
    '/profile',
  );
  await expect(page.getByRole('link', { name: /^support@/ })).toBeVisible();
  await expectAccessible(page);
  await screenshot(page, 'privacy-policy');
});

test('a new member fills the birth profile, asks a tarot reading and buys a pack', async () => {
  await page.goto('/profile');
  await page.getByRole('button', { name: 'Edit Profile' }).click();
  await page.getByLabel('Day').selectOption('14');
  await page.getByLabel('Month').selectOption('02');
  await page.getByLabel('Year').selectOption('1991');
  await page.getByLabel('Birth time (optional)').fill('23:10');
  await page.getByLabel('Birth city').fill('Zürich');
  await page.getByLabel('Birth city').press('Escape');
  await page.getByLabel('Birth country').fill('Switzerland');
  await page.getByRole('button', { name: 'Save Changes' }).click();
  await expect(toast(page, 'Profile updated successfully!')).toBeVisible();
  await expect(page.getByText('Zürich')).toBeVisible();

  await page.goto('/tarot-traditional');
  await page.getByLabel('First name').fill(FIRST);
  await page.getByLabel('Your question').fill(QUESTION);
  await page.getByRole('button', { name: 'Draw My Cards' }).click();
  await expect(page.getByRole('heading', { name: 'Your Tarot Reading' })).toBeVisible({
    timeout: 45_000,
  });

  // A pack on the local checkout (its page is another spec's): money the books must keep.
  const checkout = await page.request.post('/api/checkout', {
    data: { tierId: 1, isSubscription: false },
  });
  expect(checkout.ok()).toBe(true);
  const { sessionId } = (await checkout.json()) as { sessionId: string };
  expect((await page.request.post(`/api/checkout/local/${sessionId}/pay`)).ok()).toBe(true);
});

test('Download my data saves a JSON file with the profile, the question and the payment', async () => {
  await page.goto('/profile');
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('link', { name: 'Download my data' }).click(),
  ]);
  expect(download.suggestedFilename()).toMatch(/^astra-data-\d{4}-\d{2}-\d{2}\.json$/);
  const data = JSON.parse(await readFile((await download.path())!, 'utf8')) as PersonalDataExport;
  expect(data.profile).toMatchObject({
    id: oldId,
    email,
    firstName: FIRST,
    lastName: LAST,
    birthDate: '1991-02-14',
    birthTime: '23:10',
    birthCity: 'Zürich',
  });
  expect(data.readings.map((r) => r.question)).toEqual([QUESTION]);
  expect(data.readings[0]!.input).toMatchObject({ question: QUESTION });
  expect(data.payments).toHaveLength(1);
  expect(data.creditEvents.map((e) => e.type)).toEqual(
    expect.arrayContaining(['FreeCreditsGranted', 'CreditsSpent', 'CreditsGranted']),
  );
  await screenshot(page, 'profile-download-data');
});

test('deletes the account', async () => {
  await page.goto('/profile');
  await page.getByRole('button', { name: 'Delete Account' }).click();
  await page.getByRole('button', { name: 'Yes, delete my account' }).click();
  await expect(toast(page, 'Account Deleted')).toBeVisible();
  await expect(page).toHaveURL(/\/$/);
});

test('signing in again with the same address shows nothing of the old account', async ({
  browser,
}) => {
  const again = await signedIn(browser, email);
  expect(again.id).not.toBe(oldId);
  const fresh = again.page;
  try {
    await fresh.goto('/profile');
    await expect(fresh.getByRole('heading', { name: 'Birth Information' })).toBeVisible();
    for (const label of ['First name', 'Last name', 'Birth date', 'Birth time', 'Birth city'])
      await expect(fresh.getByText(label, { exact: true }).locator('..')).toContainText('Not set');
    await expect(fresh.getByText(FIRST)).toHaveCount(0);
    await expect(fresh.getByText('Zürich')).toHaveCount(0);

    await fresh.goto('/library');
    await expect(
      fresh.getByRole('heading', { name: 'Your library is waiting for its first reading' }),
    ).toBeVisible();
    // The free credits were this address's once: they do not reset.
    await expect(fresh.getByRole('link', { name: /^0 credits/ }).first()).toBeVisible();

    const copy = await fresh.request.get('/api/me/export');
    expect(copy.ok()).toBe(true);
    const text = await copy.text();
    expect(text).not.toContain(QUESTION);
    expect(text).not.toContain(oldId);
    await screenshot(fresh, 'library-after-erasure');
  } finally {
    await fresh.context().close();
  }
});

test("an admin sees the erased account's money lines, without its e-mail or name", async ({
  browser,
}) => {
  const admin = (await signedIn(browser, ADMIN_EMAIL)).page;
  try {
    expect(
      (await admin.request.post('/api/admin/unlock', { data: { password: ADMIN_PASSWORD } })).ok(),
    ).toBe(true);
    await admin.goto(`/admin?tab=ledger&user=${oldId}`);
    await expect(admin.getByRole('heading', { name: /^Audit ledger/ })).toBeVisible();
    await expect(admin.getByText(`user id ${oldId}`)).toBeVisible();
    const table = admin.getByRole('table', { name: 'Credit events of this user' });
    for (const type of [
      'FreeCreditsGranted',
      'CreditsSpent',
      'CreditsGranted',
      'CreditsForfeited',
      'CreditAccountClosed',
    ])
      await expect(table.getByText(type, { exact: true }).first()).toBeVisible();
    // The pack's payment is still money on the books.
    await expect(table.getByText(/^\+\$\d+\.\d\d$/)).toBeVisible();
    // Nothing that names the person.
    const shown = await admin.locator('main').innerText();
    expect(shown).not.toContain(email);
    expect(shown).not.toContain(FIRST);
    expect(shown).not.toContain(LAST);
    await screenshot(admin, 'admin-erased-user-ledger');
  } finally {
    await admin.context().close();
  }
});
