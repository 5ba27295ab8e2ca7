import { expect, type Page, test } from '@playwright/test';
import { expectAccessible, screenshot, topUpCredits, uniqueEmail } from './support.ts';

/** Signs a new user in through the development route, topped up to `credits` by an admin. */
async function signInWith(page: Page, credits: number, fullName = 'Albert Einstein') {
  const answer = await page.request.post('/api/auth/dev-login', {
    data: { email: uniqueEmail('details'), fullName },
  });
  const { id, remainingCredits } = await answer.json();
  if (credits !== remainingCredits) await topUpCredits(id, remainingCredits, credits);
  return id as string;
}

/** Chooses a suggestion of the place field `field` for the typed `text`. */
async function choosePlace(page: Page, field: string, text: string, label: string | RegExp) {
  await page.getByRole('combobox', { name: field }).fill(text);
  await page.getByRole('option', { name: label }).first().click();
}

test.describe('every birth date', () => {
  test('natal: the list starts in 1900, an earlier year is typed, and local mean time is said', async ({
    page,
  }) => {
    await signInWith(page, 30);
    await page.goto('/natalbirthchart');
    // A blank form has nothing missing yet.
    await expect(page.getByRole('heading', { name: 'Your Birth Details' })).toBeVisible();
    await expect(page.getByText('Missing birth information')).toHaveCount(0);

    const years = page.getByLabel('Year', { exact: true });
    await expect(years).toBeVisible();
    const options = await years.locator('option').allTextContents();
    expect(options.at(-2)).toBe('1900');
    expect(options.at(-1)).toBe('Before 1900…');

    await page.getByLabel('First name').fill('Albert');
    await expect(page.getByText('Missing birth information')).toBeVisible();
    await page.getByLabel('Last name').fill('Einstein');
    await page.getByLabel('Day').selectOption('14');
    await page.getByLabel('Month').selectOption('03');
    await years.selectOption('earlier');
    const typed = page.getByLabel('Year before 1900');
    await typed.fill('1700');
    await expect(page.getByText('Enter a year from 1800 to 1899.')).toBeVisible();
    await typed.fill('1879');
    await page.getByLabel('Birth time').fill('11:30');
    await choosePlace(page, 'City', 'Ulm', /^Ulm, Germany$/);
    await expect(page.getByLabel('Country', { exact: true })).toHaveValue('Germany');

    const note = page.getByRole('status').filter({ hasText: 'Local mean time' });
    await expect(note).toContainText('Before April 1, 1893 this place kept no standard time');
    await expect(note).toContainText('local mean time of Ulm (UTC+00:39:58)');
    await expect(page.getByText('Missing birth information')).toHaveCount(0);
    await expectAccessible(page);
    await screenshot(page, 'natal-form-1879-lmt');

    await page.getByRole('button', { name: 'Generate My Natal Chart' }).click();
    await expect(page.getByRole('heading', { name: 'Your Full Natal Report' })).toBeVisible({
      timeout: 90_000,
    });
    await expect(page.getByText('March 14, 1879').first()).toBeVisible();
    await expect(page.getByText(/local mean time of its longitude/).first()).toBeVisible();
    // The table and the report write the Sun the same way: 23°30′ Pisces (Astro-Databank).
    await expect(page.getByRole('row', { name: /Sun 23°30′ Pisces/ })).toBeVisible();
    await expect(page.getByText(/the Sun stood at 23°30′ Pisces/)).toBeVisible();
  });

  test('compatibility: both people’s lists start in 1900', async ({ page }) => {
    await signInWith(page, 10);
    await page.goto('/compatibility');
    for (const person of ['Person 1', 'Person 2']) {
      const years = page.getByRole('group', { name: person }).getByLabel('Year', { exact: true });
      await expect(years).toBeVisible();
      const options = await years.locator('option').allTextContents();
      expect(options).toContain('1900');
      expect(options).toContain('1950');
      expect(options.at(-1)).toBe('Before 1900…');
    }
  });
});

test.describe('places everywhere', () => {
  test('the profile keeps a chosen place, and Import from Profile brings it along', async ({
    page,
  }) => {
    await signInWith(page, 10);
    await page.goto('/profile');
    await page.getByRole('button', { name: 'Edit Profile' }).click();
    await choosePlace(page, 'Birth city', 'Ulm', /^Ulm, Germany$/);
    await expect(page.getByLabel('Birth country')).toHaveValue('Germany');
    await page.getByRole('button', { name: /^Save/ }).click();
    await expect(page.getByText('Profile updated successfully!')).toBeVisible();
    const me = await (await page.request.get('/api/me')).json();
    expect(me.birthPlace).toMatchObject({ name: 'Ulm', country: 'DE', timezone: 'Europe/Berlin' });

    await page.goto('/natalbirthchart');
    await page.getByRole('button', { name: 'Import from Profile' }).click();
    await expect(page.getByRole('combobox', { name: 'City' })).toHaveValue('Ulm');
    await expect(page.getByText(/We could not find/)).toHaveCount(0);
  });

  test('a profile city nobody found is said, and the person picks the place', async ({ page }) => {
    await signInWith(page, 10);
    await page.request.patch('/api/me', {
      data: { birthDate: '1990-12-10', birthTime: '13:00', birthCity: 'Zur', birthCountry: '' },
    });
    await page.goto('/profile');
    await expect(page.getByText(/could not find your birth city/)).toBeVisible();

    await page.goto('/natalbirthchart');
    await page.getByRole('button', { name: 'Import from Profile' }).click();
    const city = page.getByRole('combobox', { name: 'City' });
    await expect(city).toHaveValue('Zur');
    await expect(
      page.getByText('We could not find “Zur” from your profile.', { exact: false }),
    ).toBeVisible();
    await expect(page.getByRole('button', { name: 'Generate My Natal Chart' })).toBeDisabled();
    await city.focus();
    await page.getByRole('option', { name: /^Zürich, Switzerland$/ }).click();
    await expect(page.getByLabel('Country', { exact: true })).toHaveValue('Switzerland');
    await expect(page.getByText(/We could not find/)).toHaveCount(0);
    await screenshot(page, 'natal-import-unknown-place-chosen');
  });
});

test.describe('small frictions', () => {
  test('a visitor’s public pages log no 401, and the Impressum shows the configured operator', async ({
    page,
  }) => {
    const failures: string[] = [];
    page.on('response', (response) => {
      if (response.status() >= 400) failures.push(`${response.status()} ${response.url()}`);
    });
    page.on('console', (message) => {
      if (message.type() === 'error') failures.push(message.text());
    });
    for (const path of ['/', '/pricing', '/about', '/legal', '/impressum']) {
      await page.goto(path);
      await expect(page.getByRole('contentinfo')).toBeVisible();
    }
    await expect(page.getByText('Astra development (not a company)')).toBeVisible();
    await expect(page.getByText('development stand-ins')).toBeVisible();
    // No SOCIAL_LINKS configured: no links to generic home pages.
    await expect(page.getByRole('navigation', { name: 'Follow Us' })).toHaveCount(0);
    expect(failures).toEqual([]);
  });

  test('toasts stay below the header and replace each other', async ({ page }) => {
    await signInWith(page, 10);
    await page.goto('/tarot-traditional');
    const buy = page.getByRole('link', { name: 'Buy Credits' });
    const profile = page.getByRole('button', { name: 'Profile', exact: true });
    await expect(buy).toBeVisible();
    await page.getByRole('button', { name: /Draw/ }).click();
    const toasts = page.locator('[data-scope="toast"][data-part="root"]');
    await expect(toasts).toHaveCount(1);
    await page.getByRole('button', { name: /Draw/ }).click();
    await page.getByRole('button', { name: 'Import from Profile' }).click();
    await expect(toasts.filter({ hasText: 'Profile data imported' })).toBeVisible();
    await expect(toasts).toHaveCount(1);
    const toast = (await toasts.first().boundingBox())!;
    for (const control of [buy, profile]) {
      const box = (await control.boundingBox())!;
      const overlaps =
        toast.x < box.x + box.width &&
        box.x < toast.x + toast.width &&
        toast.y < box.y + box.height &&
        box.y < toast.y + toast.height;
      expect(overlaps).toBe(false);
    }
  });

  test('on a phone the balance is in the header, outside the menu', async ({ browser }) => {
    const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
    const page = await context.newPage();
    await signInWith(page, 10);
    await page.goto('/app');
    const balance = page.getByRole('banner').getByRole('link', { name: '10 credits' });
    await expect(balance).toBeVisible();
    await expect(page.getByRole('dialog')).toHaveCount(0);
    await context.close();
  });

  test('a signed-in visitor to /auth goes to the returnUrl', async ({ page }) => {
    await signInWith(page, 10);
    await page.request.patch('/api/me', {
      data: { birthDate: '1990-12-10', birthCity: 'London', birthCountry: 'United Kingdom' },
    });
    await page.goto('/auth?returnUrl=%2Flibrary');
    await expect(page).toHaveURL(/\/library$/);
    await page.goto('/auth?returnUrl=https%3A%2F%2Fevil.example');
    await expect(page).toHaveURL(/\/app$/);
  });
});
