/**
 * The staff audit's D2, as people would meet it: an admin blocked by another admin loses the
 * panel at once, in the browser they were using, and every admin request they send is refused.
 */
import { adminMessages } from '@astra/contracts';
import { expect, type Page, test } from '@playwright/test';
import {
  ADMIN_EMAIL,
  ADMIN_PASSWORD,
  screenshot,
  signedIn,
  toast,
  uniqueEmail,
} from './support.ts';

test.describe.configure({ mode: 'serial' });

/** The password gate, as an admin meets it. */
async function unlock(page: Page) {
  await page.goto('/admin');
  await page.getByLabel('Admin password').fill(ADMIN_PASSWORD);
  await page.getByRole('button', { name: 'Unlock Admin Panel' }).click();
}

test('an admin blocked by another admin loses the panel and every admin power at once', async ({
  browser,
}) => {
  const boss = await signedIn(browser, ADMIN_EMAIL);
  await unlock(boss.page);
  await expect(boss.page.getByRole('heading', { name: 'Admin Panel', level: 1 })).toBeVisible();

  const heidiEmail = uniqueEmail('heidi');
  const heidi = await signedIn(browser, heidiEmail, 'Heidi Hahn');
  const probe = await signedIn(browser, uniqueEmail('probe'), 'Paul Probe');

  // Boss promotes Heidi in User Management; Heidi unlocks her own panel.
  const users = boss.page.getByRole('region', { name: 'User Management' });
  await users.getByRole('searchbox', { name: 'Search users' }).fill(heidiEmail);
  const heidiRow = users.getByRole('listitem').filter({ hasText: heidiEmail });
  await heidiRow.getByRole('button', { name: 'Promote' }).click();
  await expect(toast(boss.page, adminMessages.promoted)).toBeVisible();
  await unlock(heidi.page);
  await expect(heidi.page.getByRole('heading', { name: 'Admin Panel', level: 1 })).toBeVisible();
  await screenshot(heidi.page, 'staff-heidi-unlocked');

  // Boss blocks her.
  await heidiRow.getByRole('button', { name: 'Block' }).click();
  await expect(toast(boss.page, adminMessages.blocked)).toBeVisible();
  await expect(heidiRow.getByText('Blocked', { exact: true })).toBeVisible();
  await screenshot(boss.page, 'staff-heidi-blocked');

  // Her requests are refused: stats and credits to someone else (the audit's two).
  const stats = await heidi.page.request.get('/api/admin/stats');
  expect(stats.status()).toBe(403);
  const credit = await heidi.page.request.post(`/api/admin/users/${probe.id}/credits`, {
    data: { amount: 1, reason: 'blocked admin test' },
  });
  expect(credit.status()).toBe(403);
  expect(((await credit.json()) as { error: string }).error).toBe('admin_required');

  // Her open panel gives way: the gate again, and the password no longer opens it.
  await heidi.page.reload();
  await expect(heidi.page.getByRole('heading', { name: 'Admin Access' })).toBeVisible();
  await heidi.page.getByLabel('Admin password').fill(ADMIN_PASSWORD);
  await heidi.page.getByRole('button', { name: 'Unlock Admin Panel' }).click();
  await expect(toast(heidi.page, adminMessages.accessDenied)).toBeVisible();
  await expect(heidi.page).toHaveURL(/\/app$/);
  await screenshot(heidi.page, 'staff-heidi-refused');

  // The probe's balance never moved.
  const probeUser = await boss.page.request.get(`/api/admin/users/${probe.id}`);
  expect(((await probeUser.json()) as { balance: number }).balance).toBe(10);

  for (const page of [boss.page, heidi.page, probe.page]) await page.context().close();
});
