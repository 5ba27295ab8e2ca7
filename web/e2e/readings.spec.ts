import { expect, type Page, type Route, test } from '@playwright/test';
import { ADA, fillBirthData, fillLifePath } from './forms.ts';
import { screenshot, toast, topUpCredits, uniqueEmail } from './support.ts';

test.describe.configure({ mode: 'serial' });

test.describe('readings', () => {
  let page: Page;
  let credits = 0;

  test.beforeAll(async ({ browser }) => {
    page = await (await browser.newContext()).newPage();
    const me = await page.request.post('/api/auth/dev-login', {
      data: { email: uniqueEmail('reader'), fullName: 'Ada Lovelace' },
    });
    const { id, remainingCredits } = await me.json();
    // An admin tops the account up for five readings (24 + 4 + 12 + 8 + 5).
    await topUpCredits(id, remainingCredits, 100);
    credits = 100;
  });
  test.afterAll(async () => page.context().close());

  const expectBadge = async () =>
    expect(
      page.getByRole('link', { name: new RegExp(`^${credits} credits`) }).first(),
    ).toBeVisible();

  test('tarot traditional: three cards for past, present and future', async () => {
    await page.goto('/app');
    await page
      .getByRole('link', { name: /Tarot Traditional/ })
      .first()
      .click();
    await expect(page).toHaveURL(/\/tarot-traditional/);
    await page.getByLabel('First name').fill('Ada');
    await page
      .getByLabel('Your question')
      .fill('Should I start the analytical engine project this year?');
    await expect(page.getByText('9/300 words')).toBeVisible();
    await page.getByRole('button', { name: 'Draw My Cards' }).click();
    await expect(page.getByRole('heading', { name: 'Your Tarot Reading' })).toBeVisible({
      timeout: 45_000,
    });
    await expect(page).toHaveURL(/\/tarot-result\?readingId=/);
    for (const slot of ['Past', 'Present', 'Future'])
      await expect(page.getByText(slot, { exact: true }).first()).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Your Full Tarot Reading' })).toBeVisible();
    // 'Go to Reading' moves focus to the report and highlights it for two seconds.
    await page.getByRole('button', { name: 'Go to Reading' }).click();
    const report = page.getByRole('region', { name: 'Your Full Tarot Reading' });
    await expect(report).toBeFocused();
    await expect(report).toHaveAttribute('data-highlighted', 'true');
    await expect(report).not.toHaveAttribute('data-highlighted', { timeout: 5_000 });
    credits -= 4;
    await expectBadge();
    await screenshot(page, 'result-tarot-traditional');
  });

  test('Celtic Cross: ten positions with their traditional names', async () => {
    await page.goto('/tarot-celtic-cross');
    await page.getByLabel('First name').fill('Ada');
    await page
      .getByLabel('Your question')
      .fill('What do I need to know about my work with Charles?');
    await page.getByRole('button', { name: 'Reveal the Celtic Cross' }).click();
    await expect(page.getByRole('heading', { name: 'Your Celtic Cross Reading' })).toBeVisible({
      timeout: 45_000,
    });
    for (const position of ['The Challenge', 'Hopes and Fears', 'The Outcome']) {
      await expect(page.getByText(position).first()).toBeVisible();
    }
    credits -= 12;
    await expectBadge();
    await screenshot(page, 'result-celtic-cross');
  });

  test('life path: the three numbers', async () => {
    await page.goto('/lifepathnumber');
    await fillLifePath(page, ADA);
    await page.getByRole('button', { name: 'Calculate My Numbers' }).click();
    await expect(page.getByRole('heading', { name: 'Your Life Path Reading' })).toBeVisible({
      timeout: 45_000,
    });
    // 1990-12-10: 1+9+9+0 = 19 → 1, 12 → 3, 10 → 1; 1 + 3 + 1 = 5
    await expect(page.getByText('Life Path', { exact: false }).first()).toBeVisible();
    await expect(page.getByText('5', { exact: true }).first()).toBeVisible();
    credits -= 5;
    await expectBadge();
    await screenshot(page, 'result-life-path');
  });

  test('compatibility: a score out of 44 and both people', async () => {
    await page.goto('/compatibility');
    await fillBirthData(page.getByRole('group', { name: 'Person 1' }), ADA);
    await fillBirthData(page.getByRole('group', { name: 'Person 2' }), {
      first: 'Charles',
      last: 'Babbage',
      day: '26',
      month: '12',
      year: '1991',
      time: '09:15',
      city: 'Paris',
      country: 'France',
    });
    await page.getByRole('button', { name: 'Analyze Compatibility' }).click();
    await expect(page.getByRole('heading', { name: 'Compatibility Reading' })).toBeVisible({
      timeout: 45_000,
    });
    await expect(page).toHaveURL(/\/compatibility_result\//);
    await expect(page.getByRole('heading', { name: 'Your Compatibility Score' })).toBeVisible();
    await expect(page.getByText(/\/\s*44/).first()).toBeVisible();
    await expect(page.getByText('Charles').first()).toBeVisible();
    credits -= 8;
    await expectBadge();
    await screenshot(page, 'result-compatibility');
  });

  test('natal chart: the wheel and the full report', async () => {
    await page.goto('/natalbirthchart');
    await fillBirthData(page, ADA);
    await page.getByRole('button', { name: 'Generate My Natal Chart' }).click();
    await expect(page.getByRole('heading', { name: 'Natal Birth Chart' })).toBeVisible({
      timeout: 90_000,
    });
    await expect(page).toHaveURL(/\/natalbirthchart_result\//);
    await expect(page.getByRole('img', { name: /chart/i }).first()).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Your Full Natal Report' })).toBeVisible();
    await expect(page.getByText(/Sun in Sagittarius/).first()).toBeVisible();
    credits -= 24;
    await expectBadge();
    await screenshot(page, 'result-natal-chart');
    // The wheel's colours are the theme's tokens: the dark mode draws them brighter.
    const conjunction = page
      .getByRole('list', { name: 'Aspect line colours' })
      .locator('line')
      .first();
    const stroke = () => conjunction.evaluate((line) => getComputedStyle(line).stroke);
    const lightStroke = await stroke();
    await page.getByRole('button', { name: 'Switch to dark mode' }).first().click();
    await expect.poll(stroke).not.toBe(lightStroke);
    await screenshot(page, 'result-natal-chart-dark');
    await page.getByRole('button', { name: 'Switch to light mode' }).first().click();
    await expect.poll(stroke).toBe(lightStroke);
    // A reload reads the reading again by its id.
    await page.reload();
    await expect(page.getByRole('heading', { name: 'Your Full Natal Report' })).toBeVisible();
  });

  test('the library finds, opens and deletes readings', async () => {
    await page.goto('/library');
    await expect(page.getByRole('heading', { name: 'Your Cosmic Library' })).toBeVisible();
    const items = page.getByRole('list', { name: 'Saved readings' }).getByRole('listitem');
    await expect(items).toHaveCount(5);
    await screenshot(page, 'library');

    await page.getByLabel('Search readings').fill('charles');
    await expect(items).toHaveCount(1);
    await items.first().getByRole('link', { name: 'Tarot Celtic Cross' }).click();
    await expect(page.getByRole('heading', { name: 'Your Celtic Cross Reading' })).toBeVisible();

    await page.goto('/library');
    await expect(items).toHaveCount(5);
    // Each DELETE is held back here, so the list is seen before the server answers.
    const held: Route[] = [];
    await page.route('**/api/readings/*', (route) =>
      route.request().method() === 'DELETE' ? held.push(route) : route.fallback(),
    );
    const row = (app: string) => items.filter({ has: page.getByRole('link', { name: app }) });
    const deleteRow = async (app: string) => {
      await row(app).getByRole('button', { name: 'Delete' }).click();
      await page.getByRole('alertdialog').getByRole('button', { name: 'Delete' }).click();
      await expect(row(app)).toHaveCount(0);
      await expect.poll(() => held.length).toBe(1);
      return held.pop()!;
    };

    await (await deleteRow('Tarot Traditional')).continue();
    await expect(toast(page, 'Reading deleted successfully')).toBeVisible();
    await expect(items).toHaveCount(4);

    // A refused delete puts the reading back.
    await (await deleteRow('Life Path Number')).fulfill({ status: 503, json: {} });
    await expect(toast(page, 'Failed to delete reading')).toBeVisible();
    await expect(row('Life Path Number')).toHaveCount(1);
    await expect(items).toHaveCount(4);
    await page.unroute('**/api/readings/*');
  });
});
