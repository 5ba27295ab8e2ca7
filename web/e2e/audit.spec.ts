/**
 * Audit and finance in the admin panel (issue 12): a user's audit ledger with its running
 * balance and the balance as of an instant, the ledger explorer's filters and paging by
 * position, admin activity, the finance page's month roll-forward with an export whose bytes
 * hash to the checksum shown, and the projections page (lag, ledger:verify, a rebuild).
 */
import { createHash, randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import type { AuditEntry, LedgerExplorerPage } from '@astra/contracts';
import { type APIRequestContext, type Browser, expect, type Page, test } from '@playwright/test';
import { E2E } from './ports.ts';
import {
  ADMIN_EMAIL,
  ADMIN_PASSWORD,
  expectAccessible,
  screenshot,
  uniqueEmail,
} from './support.ts';

test.describe.configure({ mode: 'serial' });

const ADJUSTMENT_REASON = 'Audit trail goodwill';
/** Users signed up for the explorer's paging: more than one page of 10 free grants. */
const EXTRA_USERS = 12;

let admin: Page;
let member: APIRequestContext;
let memberId: string;
let memberEmail: string;

/**
 * Waits until the clock is in the second after the one it is in now: what was recorded before
 * this call and what is recorded after it then lie in different seconds, so an instant between
 * them can be typed (the field takes seconds).
 */
const nextSecond = async () => {
  const next = Math.floor(Date.now() / 1000) * 1000 + 1000;
  await expect.poll(() => Date.now(), { intervals: [50] }).toBeGreaterThan(next);
};

/** The admin, signed in and unlocked (after one wrong password), in a browser not in UTC. */
async function unlockedAdmin(browser: Browser) {
  const context = await browser.newContext({
    timezoneId: 'America/New_York',
    acceptDownloads: true,
  });
  const page = await context.newPage();
  expect(
    (await page.request.post('/api/auth/dev-login', { data: { email: ADMIN_EMAIL } })).ok(),
  ).toBe(true);
  const wrong = await page.request.post('/api/admin/unlock', {
    data: { password: 'not-the-admin-password' },
  });
  expect(wrong.ok()).toBe(false);
  const right = await page.request.post('/api/admin/unlock', {
    data: { password: ADMIN_PASSWORD },
  });
  expect(right.ok()).toBe(true);
  return page;
}

/** The member's credit events as the audit route gives them (every page). */
async function memberEvents(): Promise<AuditEntry[]> {
  const items: AuditEntry[] = [];
  let after: string | null = null;
  do {
    const answer = await admin.request.get('/api/admin/ledger', {
      params: { userId: memberId, limit: 200, ...(after ? { after } : {}) },
    });
    expect(answer.ok()).toBe(true);
    const page = (await answer.json()) as LedgerExplorerPage;
    items.push(...page.items);
    after = page.next;
  } while (after);
  return items;
}

/** An instant as the browser's `datetime-local` value (its own time zone), to the second. */
const localInput = (page: Page, iso: string) =>
  page.evaluate((at) => {
    const date = new Date(at);
    const pad = (n: number) => String(n).padStart(2, '0');
    return (
      `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}` +
      `T${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}`
    );
  }, iso);

const section = (name: string) =>
  admin.getByRole('navigation', { name: 'Admin sections' }).getByRole('link', { name });

async function noSidewaysScroll(page: Page) {
  const overflow = await page.evaluate(
    () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
  );
  expect(overflow).toBeLessThanOrEqual(0);
}

test.beforeAll(async ({ browser, playwright }) => {
  test.setTimeout(120_000);
  admin = await unlockedAdmin(browser);

  // A member: the free credits, a reading, a pack bought on the local checkout, then an admin's
  // adjustment, each in a second of its own so an instant between them can be typed.
  memberEmail = uniqueEmail('audited');
  member = await playwright.request.newContext({ baseURL: E2E.baseUrl });
  const me = await member.post('/api/auth/dev-login', {
    data: { email: memberEmail, fullName: 'Luca Pacioli' },
  });
  expect(me.ok()).toBe(true);
  memberId = (await me.json()).id;
  const reading = await member.post('/api/readings/life-path', {
    data: { firstName: 'Luca', lastName: 'Pacioli', birthDate: '1990-04-12' },
  });
  expect(reading.ok()).toBe(true);
  await nextSecond();
  const checkout = await member.post('/api/checkout', {
    data: { tierId: 1, isSubscription: false },
  });
  expect(checkout.ok()).toBe(true);
  const { url } = (await checkout.json()) as { url: string };
  const sessionId = url.split('/').pop()!;
  // Paid from Germany: the local checkout's table puts 19% VAT in the price.
  expect(
    (await member.post(`/api/checkout/local/${sessionId}/pay`, { data: { country: 'DE' } })).ok(),
  ).toBe(true);
  await nextSecond();
  const adjusted = await admin.request.post(`/api/admin/users/${memberId}/credits`, {
    headers: { 'Idempotency-Key': randomUUID() },
    data: { amount: 25, reason: ADJUSTMENT_REASON },
  });
  expect(adjusted.ok()).toBe(true);

  // More than a page of free grants for the explorer.
  const others = await playwright.request.newContext({ baseURL: E2E.baseUrl });
  for (let i = 0; i < EXTRA_USERS; i += 1) {
    const answer = await others.post('/api/auth/dev-login', {
      data: { email: uniqueEmail(`explorer-${i}`) },
    });
    expect(answer.ok()).toBe(true);
  }
  await others.dispose();
});

test.afterAll(async () => {
  await member?.dispose();
  await admin?.context().close();
});

test("a user's audit ledger: every event with actor, cause and correlation id, the running balance, and the balance as of an instant", async () => {
  const events = await memberEvents();
  const adjustment = events.find((e) => e.type === 'CreditsAdjusted')!;
  const purchase = events.find((e) => e.type === 'CreditsGranted')!;
  expect(adjustment).toBeTruthy();
  expect(purchase).toBeTruthy();
  const beforeAdjustment = events[events.indexOf(adjustment) - 1]!;

  // From User Management's "View ledger" to the audit ledger.
  await admin.goto('/admin');
  const users = admin.getByRole('region', { name: 'User Management' });
  await users.getByRole('searchbox', { name: 'Search users' }).fill(memberEmail);
  await users
    .getByRole('listitem')
    .filter({ hasText: memberEmail })
    .getByRole('button', { name: 'View ledger' })
    .click();
  await admin
    .getByRole('dialog', { name: /Credit ledger/ })
    .getByRole('link', { name: 'Open audit ledger' })
    .click();
  await expect(admin).toHaveURL(new RegExp(`tab=ledger&user=${memberId}`));
  await expect(admin.getByRole('heading', { name: /^Audit ledger: Luca Pacioli/ })).toBeVisible();
  await expect(section('Ledger')).toHaveAttribute('aria-current', 'page');

  const table = admin.getByRole('table', { name: 'Credit events of this user' });
  await expect(table.locator('tbody tr')).toHaveCount(events.length);
  const adjustmentRow = table.locator(`tr[data-position="${adjustment.position}"]`);
  await expect(adjustmentRow.getByText('CreditsAdjusted')).toBeVisible();
  await expect(adjustmentRow.getByText('+25', { exact: true })).toBeVisible();
  await expect(adjustmentRow.getByText('admin', { exact: true })).toBeVisible();
  await expect(adjustmentRow.getByText(ADMIN_EMAIL).first()).toBeVisible();
  await expect(adjustmentRow.getByText(ADJUSTMENT_REASON).first()).toBeVisible();
  await expect(adjustmentRow.getByText(adjustment.correlationId)).toBeVisible();
  // The pack's payment is money on the ledger.
  const purchaseRow = table.locator(`tr[data-position="${purchase.position}"]`);
  expect(purchase.money?.minor).toBeGreaterThan(0);
  await expect(purchaseRow.getByText(/^\+\$\d+\.\d\d$/)).toBeVisible();

  await expect(admin.getByRole('img', { name: /^Balance over time, / })).toBeVisible();
  await expect(admin.getByRole('img', { name: /^Balance over time, / })).toHaveAttribute(
    'aria-label',
    new RegExp(`${events.length} events, .* ${adjustment.balanceAfter} after the last\\.$`),
  );

  // Now: the balance after the last event.
  const value = admin.getByTestId('balance-at-value');
  await expect(value).toHaveText(`${events[events.length - 1]!.balanceAfter} credits`);
  // Just before the adjustment (typed, in the browser's time zone): the balance before it.
  const justBefore = new Date(Math.floor((Date.parse(adjustment.occurredAt) - 1) / 1000) * 1000);
  expect(justBefore.getTime()).toBeGreaterThanOrEqual(Date.parse(beforeAdjustment.occurredAt));
  await admin
    .getByLabel('Balance as of (date and time)')
    .fill(await localInput(admin, justBefore.toISOString()));
  await admin.getByRole('button', { name: 'Show balance' }).click();
  await expect(value).toHaveText(`${beforeAdjustment.balanceAfter} credits`);
  await expect(admin.getByText(/^Lots held$/)).toBeVisible();
  await expect(admin.getByRole('listitem').filter({ hasText: /^purchased \d+$/ })).toBeVisible();
  // At the purchase's own instant, from its row: the replay meets the history's balance after.
  await purchaseRow.getByRole('button', { name: /^Balance here/ }).click();
  await expect(value).toHaveText(`${purchase.balanceAfter} credits`);
  await expect(admin.getByText(/^Matches the history: the balance after position /)).toBeVisible();
  await expectAccessible(admin);
  await screenshot(admin, 'audit-user-ledger');
});

test('the ledger explorer filters by event type, actor and user, and pages by position', async () => {
  await section('Ledger').click();
  await expect(admin.getByRole('heading', { name: 'Ledger explorer' })).toBeVisible();
  const filters = admin.getByRole('form', { name: 'Ledger filters' });
  const rows = admin.getByRole('table', { name: 'Ledger events' }).locator('tbody tr');
  const summary = admin.getByTestId('explorer-summary');

  await filters.getByRole('button', { name: 'FreeCreditsGranted' }).click();
  await expect(filters.getByRole('button', { name: 'FreeCreditsGranted' })).toHaveAttribute(
    'aria-pressed',
    'true',
  );
  await filters.getByLabel('Rows per page').selectOption('10');
  await filters.getByRole('button', { name: 'Apply filters' }).click();
  await expect(summary).toHaveText(/^Page 1: 10 events, positions \d+ to \d+$/);
  await expect(rows).toHaveCount(10);
  await expect(rows.and(admin.locator('[data-type="FreeCreditsGranted"]'))).toHaveCount(10);
  const firstOfPage1 = Number(await rows.first().getAttribute('data-position'));
  const lastOfPage1 = Number(await rows.last().getAttribute('data-position'));
  expect(lastOfPage1).toBeGreaterThan(firstOfPage1);
  await expectAccessible(admin);
  await screenshot(admin, 'audit-explorer');

  await admin.getByRole('button', { name: 'Next page' }).click();
  await expect(summary).toHaveText(/^Page 2: /);
  const firstOfPage2 = Number(await rows.first().getAttribute('data-position'));
  expect(firstOfPage2).toBeGreaterThan(lastOfPage1);
  expect(await rows.count()).toBeGreaterThan(0);
  await expect(rows.and(admin.locator('[data-type="FreeCreditsGranted"]'))).toHaveCount(
    await rows.count(),
  );
  await admin.getByRole('button', { name: 'Previous page' }).click();
  await expect(summary).toHaveText(/^Page 1: 10 events/);
  expect(Number(await rows.first().getAttribute('data-position'))).toBe(firstOfPage1);

  // Adjustments by an admin of one user: the one this test made.
  await filters.getByRole('button', { name: 'FreeCreditsGranted' }).click();
  await filters.getByRole('button', { name: 'CreditsAdjusted' }).click();
  await filters.getByLabel('Actor').selectOption('admin');
  await filters.getByLabel('User id').fill(memberId);
  await filters.getByRole('button', { name: 'Apply filters' }).click();
  await expect(summary).toHaveText(/^Page 1: 1 event, /);
  await expect(rows.first().getByText(ADJUSTMENT_REASON).first()).toBeVisible();
  await expect(rows.first().getByRole('link', { name: memberEmail })).toBeVisible();
  await expect(admin.getByRole('button', { name: 'Next page' })).toBeDisabled();

  // Nothing: said plainly.
  await filters.getByRole('button', { name: 'CreditsAdjusted' }).click();
  await filters.getByRole('button', { name: 'RolloverForfeited' }).click();
  await filters.getByRole('button', { name: 'Apply filters' }).click();
  await expect(admin.getByText('No events match these filters')).toBeVisible();
});

test('a filtered explorer is in the address: the link opens the same view, times with their zone', async () => {
  // The section's own link is the explorer without filters: the form empties.
  await section('Ledger').click();
  await expect(admin).toHaveURL(/\?tab=ledger$/);
  const filters = admin.getByRole('form', { name: 'Ledger filters' });
  await expect(filters.getByLabel('Actor')).toHaveValue('');
  await expect(filters.getByRole('button', { pressed: true })).toHaveCount(0);
  await filters.getByRole('button', { name: 'CreditsAdjusted' }).click();
  await filters.getByLabel('Actor').selectOption('admin');
  await filters.getByLabel('User id').fill(memberId);
  const today = new Date().toISOString().slice(0, 10);
  await filters.getByLabel('From (UTC)').fill('2020-01-01');
  await filters.getByLabel('To (UTC)').fill(today);
  await filters.getByRole('button', { name: 'Apply filters' }).click();
  await expect(admin).toHaveURL(/[?&]types=CreditsAdjusted(&|$)/);
  const address = new URL(admin.url());
  expect(Object.fromEntries(address.searchParams)).toMatchObject({
    tab: 'ledger',
    types: 'CreditsAdjusted',
    actor: 'admin',
    userId: memberId,
    from: '2020-01-01',
    to: today,
  });

  // Sent to someone: a fresh page on the address shows the same filters and the same event.
  const shared = await admin.context().newPage();
  await shared.goto(address.pathname + address.search);
  const sharedFilters = shared.getByRole('form', { name: 'Ledger filters' });
  await expect(sharedFilters.getByRole('button', { name: 'CreditsAdjusted' })).toHaveAttribute(
    'aria-pressed',
    'true',
  );
  await expect(sharedFilters.getByRole('button', { name: 'FreeCreditsGranted' })).toHaveAttribute(
    'aria-pressed',
    'false',
  );
  await expect(sharedFilters.getByLabel('Actor')).toHaveValue('admin');
  await expect(sharedFilters.getByLabel('User id')).toHaveValue(memberId);
  await expect(sharedFilters.getByLabel('From (UTC)')).toHaveValue('2020-01-01');
  await expect(sharedFilters.getByLabel('To (UTC)')).toHaveValue(today);
  await expect(shared.getByTestId('explorer-summary')).toHaveText(/^Page 1: 1 event, /);
  const row = shared.getByRole('table', { name: 'Ledger events' }).locator('tbody tr').first();
  await expect(row.getByText(ADJUSTMENT_REASON).first()).toBeVisible();
  // The browser is in New York: each time says so, and the filters say they are days of UTC.
  await expect(row.locator('time').first()).toHaveText(/\d{2}:\d{2}:\d{2} E[SD]T$/);
  await expect(shared.getByText(/America\/New_York/).first()).toBeVisible();

  // Clearing takes the filters out of the address again.
  await sharedFilters.getByRole('button', { name: 'Clear' }).click();
  await expect(shared).toHaveURL(/\?tab=ledger$/);
  await expect(sharedFilters.getByLabel('Actor')).toHaveValue('');
  await shared.close();
});

test('admin activity lists the unlock attempts and the adjustment, newest first', async () => {
  await section('Activity').click();
  const list = admin.getByRole('list', { name: 'Admin activity entries' });
  await expect(list).toBeVisible();
  const adjustment = list
    .locator('li[data-action="CreditsAdjusted"]')
    .filter({ hasText: memberEmail });
  await expect(adjustment).toHaveCount(1);
  await expect(adjustment.getByText(ADMIN_EMAIL)).toBeVisible();
  await expect(list.locator('li[data-action="AdminUnlocked"]').first()).toBeVisible();
  await expect(list.locator('li[data-action="AdminUnlockFailed"]').first()).toBeVisible();
  const positions = await list
    .locator('li[data-position]')
    .evaluateAll((items) => items.map((item) => BigInt(item.getAttribute('data-position')!)));
  expect(positions.length).toBeGreaterThan(2);
  for (let i = 1; i < positions.length; i += 1)
    expect(positions[i]! < positions[i - 1]!).toBe(true);
  await expectAccessible(admin);
  await screenshot(admin, 'audit-activity');
});

test("finance: the month's roll-forward, and the CSV export hashes to the checksum shown", async () => {
  await section('Finance').click();
  const month = new Date().toISOString().slice(0, 7);
  await expect(admin.getByLabel('Month', { exact: true })).toHaveValue(month);
  const credits = admin.getByRole('region', { name: 'Credit roll-forward table' });
  await expect(credits.locator('tr[data-line="opening"]')).toBeVisible();
  await expect(credits.locator('tr[data-line="purchased"]').getByText(/^\+\d+/)).toBeVisible();
  await expect(
    credits.locator('tr[data-line="adminAdjustments"]').getByText(/^\+\d+/),
  ).toBeVisible();
  await expect(credits.locator('tr[data-line="spentReadings"]').getByText(/^−\d+/)).toBeVisible();
  await expect(admin.getByTestId('credits-difference')).toHaveText('0');
  // The month is one of the finance time zone (UTC here), from its first instant.
  await expect(admin.getByTestId('report-period')).toContainText(
    new RegExp(`in UTC: from \\w{3} 1, \\d{4}, 00:00:00 UTC \\(${month}-01T00:00:00\\.000Z\\)`),
  );
  await expect(admin.getByText(/^No flags: /)).toBeVisible();
  const money = admin.getByRole('region', { name: 'Money roll-forward table' });
  await expect(money.getByRole('columnheader', { name: 'USD' })).toBeVisible();
  await expect(money.locator('tr[data-line="cashIn"]').getByText(/^\$[\d,]+\.\d\d$/)).toBeVisible();
  await expect(money.locator('tr[data-line="invariant"]').getByText('holds')).toBeVisible();
  // The local checkout pays nothing out: no payout to tie to the bank.
  await expect(money.locator('tr[data-line="paidOut"]').getByText('$0.00')).toBeVisible();
  await expect(admin.getByText(/^No payout arrives at the bank in /)).toBeVisible();
  await expect(
    money.locator('tr[data-line="taxPayableClosing"]').getByText(/^\$[\d,]+\.\d\d$/),
  ).toBeVisible();
  const taxes = admin.getByRole('region', { name: 'Tax by country and rate table' });
  await expect(
    taxes.locator('tr[data-line="DE, 19%"]').getByText(/^\$[\d,]+\.\d\d$/),
  ).toBeVisible();
  await expect(admin.getByRole('list', { name: /^Movements of / })).toBeVisible();
  // Revenue by line (what other tests spent: its figures are the API tests'), and the deferred
  // revenue of the member's pack, bought this month.
  await expect(admin.getByRole('heading', { name: 'Revenue by line' })).toBeVisible();
  const aging = admin.getByRole('region', { name: 'Deferred revenue by purchase month table' });
  await expect(aging.locator(`tr[data-line="${month}:closing"]`)).toBeVisible();

  // The CSV of the month (the default range): its SHA-256 is the one shown.
  const csv = admin.locator('[data-format="csv"]');
  const shown = csv.getByTestId('checksum-csv');
  await expect(shown).toHaveText(/^[0-9a-f]{64}$/);
  await csv.getByRole('button', { name: 'Recompute the CSV checksum' }).click();
  await expect(shown).toHaveText(/^[0-9a-f]{64}$/);
  const downloading = admin.waitForEvent('download');
  await csv.getByRole('link', { name: 'Download CSV' }).click();
  const download = await downloading;
  const bytes = await readFile((await download.path())!);
  expect(bytes.length).toBeGreaterThan(0);
  expect(createHash('sha256').update(bytes).digest('hex')).toBe(await shown.textContent());
  await expect(
    csv.getByText(new RegExp(`, ${bytes.length.toLocaleString('en-US')} bytes$`)),
  ).toBeVisible();
  await expect(admin.locator('[data-format="jsonl"]').getByTestId('checksum-jsonl')).toHaveText(
    /^[0-9a-f]{64}$/,
  );
  // The journal of the month, for hledger: balanced transactions, dated in the finance zone.
  const journal = admin.locator('[data-format="journal"]');
  await expect(journal.getByTestId('checksum-journal')).toHaveText(/^[0-9a-f]{64}$/);
  const journaling = admin.waitForEvent('download');
  await journal.getByRole('link', { name: 'Download Journal (hledger)' }).click();
  const journalText = await readFile((await (await journaling).path())!, 'utf8');
  expect(journalText).toContain('dates are days in UTC');
  expect(journalText).toMatch(/\n {4}assets:stripe:clearing +\d+\.\d\d USD\n/);

  // The month report as CSV.
  const reporting = admin.waitForEvent('download');
  await admin.getByRole('link', { name: 'Download month report (CSV)' }).click();
  const report = await readFile((await (await reporting).path())!, 'utf8');
  expect(report.split('\n').slice(0, 2)).toEqual([
    'month,section,line,currency,value',
    `${month},period,time_zone,,UTC`,
  ]);

  await expectAccessible(admin);
  await screenshot(admin, 'audit-finance');
});

test('finance: an admin closes last month; its report says so, and the CSV as closed hashes to the checksum shown', async () => {
  await section('Finance').click();
  await admin.getByRole('button', { name: 'Previous month' }).click();
  const now = new Date();
  const previous = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 1))
    .toISOString()
    .slice(0, 7);
  await expect(admin.getByLabel('Month', { exact: true })).toHaveValue(previous);
  await admin.getByRole('button', { name: 'Close month' }).click();
  const dialog = admin.getByRole('alertdialog');
  await expect(dialog.getByText(/Its report is frozen as it stands now/)).toBeVisible();
  await expectAccessible(admin);
  await dialog.getByRole('button', { name: 'Close month' }).click();
  await expect(dialog).toBeHidden();

  const closed = admin.getByTestId('month-closed');
  await expect(closed.getByText(ADMIN_EMAIL)).toBeVisible();
  await expect(closed.locator('time')).toHaveText(/E[SD]T$/);
  const checksum = closed.getByTestId('closed-sha256');
  await expect(checksum).toHaveText(/^[0-9a-f]{64}$/);
  await expect(admin.getByRole('button', { name: 'Close month' })).toHaveCount(0);
  await screenshot(admin, 'audit-finance-closed');

  // The report's CSV states the close; without those lines it is the CSV that was closed.
  const reporting = admin.waitForEvent('download');
  await admin.getByRole('link', { name: 'Download month report (CSV)' }).click();
  const report = await readFile((await (await reporting).path())!, 'utf8');
  expect(report).toContain(`${previous},period,closed_sha256,,${await checksum.textContent()}`);
  const asClosed = report
    .split(/(?<=\n)/)
    .filter((line) => !line.startsWith(`${previous},period,closed_`))
    .join('');
  expect(createHash('sha256').update(asClosed).digest('hex')).toBe(await checksum.textContent());

  await section('Activity').click();
  const close = admin
    .getByRole('list', { name: 'Admin activity entries' })
    .locator('li[data-action="MonthClosed"]');
  await expect(close).toHaveCount(1);
  await expect(close.getByText('Closed a finance month')).toBeVisible();
  await expect(close.getByText(ADMIN_EMAIL)).toBeVisible();
  await expect(
    close.getByText(new RegExp(`^Closed the month ${previous} \\(UTC\\)`)),
  ).toBeVisible();
});

test('admin activity records the downloads with their admin; the chosen group is in the address', async () => {
  await section('Activity').click();
  await admin.getByLabel('Show').selectOption('access');
  await expect(admin).toHaveURL(/[?&]show=access(&|$)/);
  const list = admin.getByRole('list', { name: 'Admin activity entries' });
  const downloads = list.locator('li[data-action="AdminDataExported"]');
  await expect(downloads.first()).toBeVisible();
  // Only data access: the downloads, and the starts of ledger exports recorded before them.
  await expect(
    list.locator(
      'li:not([data-action="AdminDataExported"]):not([data-action="AdminExportStarted"])',
    ),
  ).toHaveCount(0);
  await expect(list.locator('li[data-action="AdminExportStarted"]').first()).toBeVisible();
  await expect(downloads.filter({ hasText: /month report/ }).first()).toBeVisible();
  const ledger = downloads.filter({ hasText: /the ledger export .*\(csv\)/ }).first();
  await expect(ledger.getByText('Downloaded finance data')).toBeVisible();
  await expect(ledger.getByText(ADMIN_EMAIL)).toBeVisible();
  await expect(ledger.getByText(/SHA-256 [0-9a-f]{64}/)).toBeVisible();
  await expect(ledger.locator('time')).toHaveText(/E[SD]T$/);

  await admin.reload();
  await expect(admin.getByLabel('Show')).toHaveValue('access');
  await expect(list.locator('li').first()).toHaveAttribute('data-action', 'AdminDataExported');
  await admin.getByLabel('Show').selectOption('');
  await expect(admin).not.toHaveURL(/show=/);
});

/** Runs ledger:verify from the panel and waits for its answer. */
async function verify() {
  const answered = admin.waitForResponse(
    (response) =>
      response.url().endsWith('/api/admin/projections/verify') &&
      response.request().method() === 'POST',
    { timeout: 60_000 },
  );
  await admin.getByRole('button', { name: 'Run ledger:verify' }).click();
  expect((await answered).ok()).toBe(true);
  await expect(admin.getByRole('button', { name: 'Run ledger:verify' })).toBeEnabled();
}

test('projections: no lag, ledger:verify runs, and a rebuild completes', async () => {
  test.setTimeout(120_000);
  await section('Projections').click();
  const table = admin.getByRole('table', { name: 'Projections' });
  await expect(table.locator('tbody tr').first()).toBeVisible();
  await expect(admin.getByTestId('projector-leader')).toHaveText(
    'Applied inside the API process (PROJECTOR=in-process).',
  );
  await expect(async () => {
    await admin.reload();
    await expect(table.locator('tbody tr').first()).toBeVisible();
    const lags = await admin.getByTestId('lag-events').allTextContents();
    expect(lags.length).toBeGreaterThan(0);
    expect(lags.every((lag) => lag === '0')).toBe(true);
  }).toPass({ timeout: 20_000 });
  await expect(admin.getByTestId('head-position')).toHaveText(/^\d+$/);

  const result = admin.getByTestId('verify-result');
  await verify();
  await expect(result.getByText('ok', { exact: true })).toBeVisible();
  await expect(result.getByText(/from the panel/)).toBeVisible();

  await admin.getByRole('button', { name: 'Rebuild read models' }).click();
  const confirm = admin.getByRole('alertdialog', { name: 'Rebuild the read models?' });
  await confirm.getByRole('button', { name: 'Start rebuild' }).click();
  await expect(confirm).toHaveCount(0);
  const status = admin.getByTestId('rebuild-status');
  await expect(status).toHaveAttribute('data-state', 'done', { timeout: 90_000 });
  await expect(status.getByText('100%')).toBeVisible();
  await expect(status.getByText('Rebuild done')).toBeVisible();
  // The rebuilt read models still answer, and still agree with the log.
  await verify();
  await expect(result.getByText('ok', { exact: true })).toBeVisible();
  await expectAccessible(admin);
  await screenshot(admin, 'audit-projections');
});

test('at 390 px wide and in dark mode the audit screens stay usable', async () => {
  await admin.setViewportSize({ width: 390, height: 844 });
  for (const name of ['Ledger', 'Finance', 'Activity', 'Projections']) {
    await section(name).click();
    await expect(section(name)).toHaveAttribute('aria-current', 'page');
    await expect(admin.getByRole('heading', { level: 2 }).first()).toBeVisible();
    await noSidewaysScroll(admin);
  }
  await section('Finance').click();
  await expect(admin.getByTestId('checksum-csv')).toHaveText(/^[0-9a-f]{64}$/);
  await screenshot(admin, 'audit-finance-390');
  await admin.goto(`/admin?tab=ledger&user=${memberId}`);
  await expect(admin.getByTestId('balance-at-value')).toHaveText(/credits$/);
  await noSidewaysScroll(admin);
  await screenshot(admin, 'audit-user-ledger-390');

  await admin.setViewportSize({ width: 1280, height: 900 });
  await admin.evaluate(() => window.localStorage.setItem('astra-color-mode', 'dark'));
  await admin.goto('/admin?tab=finance');
  await expect(admin.locator('html')).toHaveClass(/dark/);
  await expect(admin.getByTestId('credits-difference')).toHaveText('0');
  await expectAccessible(admin);
  await screenshot(admin, 'audit-finance-dark');
  await admin.goto(`/admin?tab=ledger&user=${memberId}`);
  await expect(admin.getByRole('img', { name: /^Balance over time, / })).toBeVisible();
  await expectAccessible(admin);
  await screenshot(admin, 'audit-user-ledger-dark');
  await admin.evaluate(() => window.localStorage.setItem('astra-color-mode', 'light'));
});
