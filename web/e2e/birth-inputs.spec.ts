import { expect, type Page, test } from '@playwright/test';
import { ADA, fillBirthData } from './forms.ts';
import { screenshot, topUpCredits, uniqueEmail } from './support.ts';

test.describe.configure({ mode: 'serial' });

/** A birthplace the list lacks, by its coordinates; a chart without a birth time. */
test.describe('birth inputs', () => {
  let page: Page;

  test.beforeAll(async ({ browser }) => {
    page = await (await browser.newContext()).newPage();
    const me = await page.request.post('/api/auth/dev-login', {
      data: { email: uniqueEmail('jung'), fullName: 'Carl Jung' },
    });
    const { id, remainingCredits } = await me.json();
    await topUpCredits(id, remainingCredits, 100);
  });
  test.afterAll(async () => page.context().close());

  /** C. G. Jung's name and birth day (1875: a year typed, before the list's 1900). */
  const fillJung = async (day: string, time: string | null) => {
    await page.getByLabel('First name').fill('Carl');
    await page.getByLabel('Last name').fill('Jung');
    await page.getByLabel('Day').selectOption(day);
    await page.getByLabel('Month').selectOption('07');
    await page.getByLabel('Year', { exact: true }).selectOption('earlier');
    await page.getByLabel('Year before 1900').fill('1875');
    if (time) await page.getByLabel('Birth time').fill(time);
  };

  test('a natal chart for Kesswil by its coordinates, the zone shown before buying', async () => {
    await page.goto('/natalbirthchart');
    await fillJung('26', '19:32');
    // The list has Uttwil next door, but no Kesswil.
    const city = page.getByLabel('City', { exact: true });
    await city.fill('Uttwil');
    await expect(page.getByRole('option', { name: 'Uttwil, Switzerland' })).toBeVisible();
    await city.fill('Kesswil');
    await expect(page.getByRole('listbox', { name: 'Place suggestions' })).toBeHidden();
    await expect(page.getByRole('option', { name: /Kesswil/ })).toHaveCount(0);
    await page
      .getByRole('button', { name: 'Birthplace not in the list? Enter its coordinates' })
      .click();

    // Wrong coordinates are named on their field, and nothing can be bought.
    await page.getByLabel('Latitude').fill('147.5');
    await page.getByLabel('Longitude').fill('9,3257');
    await expect(
      page.getByText('Must be between -90 and 90 (decimal degrees, north positive)'),
    ).toBeVisible();
    await expect(page.getByText('Must be a decimal number of degrees, e.g. 9.3257')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Generate My Natal Chart' })).toBeDisabled();

    await page.getByLabel('Latitude').fill('47.5957');
    await page.getByLabel('Longitude').fill('9.3257');
    await page.getByLabel('Place name (optional)').fill('Kesswil');
    const zone = page.getByRole('status', { name: 'Time zone of the coordinates' });
    await expect(zone).toContainText('Europe/Zurich');
    await expect(zone).toContainText('Kesswil, Switzerland');
    await screenshot(page, 'birth-inputs-coordinates');

    await page.getByRole('button', { name: 'Generate My Natal Chart' }).click();
    await expect(page).toHaveURL(/\/natalbirthchart_result\//, { timeout: 90_000 });
    await expect(page.getByRole('heading', { name: 'Your Full Natal Report' })).toBeVisible({
      timeout: 90_000,
    });
    await expect(page.getByText('Kesswil', { exact: true })).toBeVisible();
    await expect(page.getByText(/in Kesswil, Switzerland/).first()).toBeVisible();
    await expect(page.getByText(/rising on the eastern horizon/).first()).toBeVisible();
  });

  test('a natal chart without a birth time: no houses, the Moon’s uncertainty said', async () => {
    await page.goto('/natalbirthchart');
    await fillJung('27', null);
    await page.getByLabel('City', { exact: true }).fill('Zürich');
    await page.getByRole('option', { name: /^Zürich, Switzerland$/ }).click();
    // The checkbox's input is visually hidden (Chakra): a person clicks its label.
    await page.getByText('I don’t know my time of birth').click();
    await expect(page.getByLabel('I don’t know my time of birth')).toBeChecked();
    await expect(page.getByLabel('Birth time', { exact: true })).toBeDisabled();
    await expect(
      page.getByText(/Without a birth time the chart is drawn for 12:00 noon/),
    ).toBeVisible();

    await page.getByRole('button', { name: 'Generate My Natal Chart' }).click();
    await expect(page).toHaveURL(/\/natalbirthchart_result\//, { timeout: 90_000 });
    await expect(page.getByText('Unknown (chart for 12:00 noon)')).toBeVisible({ timeout: 90_000 });
    const note = page.getByRole('note', { name: 'Birth time unknown' });
    await expect(note).toContainText('There are no houses, Ascendant or Midheaven');
    await expect(note).toContainText('its sign may be Taurus or Gemini');
    // The wheel has no house cusps; its description says so.
    await expect(page.getByRole('img', { name: /no houses \(birth time unknown\)/ })).toBeVisible();
    await expect(page.locator('svg title', { hasText: /^House \d+$/ })).toHaveCount(0);
    await expect(page.getByRole('heading', { name: 'Your Full Natal Report' })).toBeVisible();
    await expect(page.getByText(/The Moon moves 12–15° a day/).first()).toBeVisible();
    await screenshot(page, 'birth-inputs-unknown-time');
  });

  test('a compatibility with one person’s birth time unknown', async () => {
    await page.goto('/compatibility');
    await fillBirthData(page.getByRole('group', { name: 'Person 1' }), ADA);
    const second = page.getByRole('group', { name: 'Person 2' });
    await fillBirthData(second, {
      ...ADA,
      first: 'Charles',
      last: 'Babbage',
      day: '26',
      time: '',
      city: 'Zürich',
      country: 'Switzerland',
    });
    await second.getByText('I don’t know my time of birth').click();
    await expect(second.getByLabel('Birth time', { exact: true })).toBeDisabled();
    await page.getByRole('button', { name: 'Analyze Compatibility' }).click();
    await expect(page).toHaveURL(/\/compatibility_result\//, { timeout: 90_000 });
    const charles = page.getByRole('region', { name: /Person 2: Charles/ });
    await expect(charles).toContainText('Unknown (chart for 12:00 noon)', { timeout: 90_000 });
    await expect(page.getByText(/Without Charles’s birth time/).first()).toBeVisible();
  });

  test('the profile keeps a birthplace by coordinates and a time said to be unknown', async () => {
    await page.goto('/profile');
    await page.getByRole('button', { name: 'Edit Profile' }).click();
    await page.getByText('I don’t know my time of birth').click();
    await page
      .getByRole('button', { name: 'Birthplace not in the list? Enter its coordinates' })
      .click();
    await page.getByLabel('Latitude').fill('47.5957');
    await page.getByLabel('Longitude').fill('9.3257');
    await page.getByLabel('Place name (optional)').fill('Kesswil');
    await expect(page.getByRole('status', { name: 'Time zone of the coordinates' })).toContainText(
      'Europe/Zurich',
    );
    await page.getByRole('button', { name: /^Save/ }).click();
    await expect(page.getByText('Profile updated successfully!')).toBeVisible();
    const me = await (await page.request.get('/api/me')).json();
    expect(me).toMatchObject({ birthTime: null, birthTimeUnknown: true, birthCity: 'Kesswil' });
    expect(me.birthPlace).toMatchObject({
      name: 'Kesswil',
      country: 'CH',
      timezone: 'Europe/Zurich',
    });

    await page.goto('/natalbirthchart');
    await page.getByRole('button', { name: 'Import from Profile' }).click();
    await expect(page.getByRole('combobox', { name: 'City' })).toHaveValue('Kesswil');
    await expect(page.getByLabel('I don’t know my time of birth')).toBeChecked();
  });
});
