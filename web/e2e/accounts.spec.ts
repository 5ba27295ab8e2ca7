import { expect, type Page, test } from '@playwright/test';
import { expectAccessible, nextGoogleAccount, screenshot, uniqueEmail } from './support.ts';

test.describe.configure({ mode: 'serial' });

test.describe('a visitor', () => {
  test('sees the landing page, with the visitor counter climbing', async ({ page }) => {
    await page.goto('/');
    await expect(
      page.getByRole('heading', { level: 1, name: 'Speak to the stars.' }),
    ).toBeVisible();
    // The counter writes thousands as the static claim does ('4,847+').
    const counter = page
      .getByRole('region', { name: 'What seekers are saying' })
      .getByText(/^\d,\d{3}\+ readings completed$/);
    const count = async () =>
      Number((await counter.textContent())?.match(/^[\d,]+/)?.[0].replace(',', ''));
    const first = await count();
    expect(first).toBeGreaterThanOrEqual(4847);
    await expect.poll(count, { timeout: 7000 }).toBeGreaterThan(first);
    await expectAccessible(page);
    await screenshot(page, 'landing');
  });

  test('gets the 404 page for an unknown path, with a link home', async ({ page }) => {
    await page.goto('/no/such/page');
    await expect(page.getByText('Oops! Page not found')).toBeVisible();
    await screenshot(page, 'not-found');
    await page.getByRole('link', { name: /home/i }).first().click();
    await expect(page).toHaveURL(/\/$/);
  });

  test('is sent to sign-in from a protected page', async ({ page }) => {
    await page.goto('/profile');
    await expect(page).toHaveURL(/\/auth/);
    await expect(page.getByRole('heading', { name: 'Enter the Cosmos' })).toBeVisible();
    await screenshot(page, 'auth');
  });
});

test.describe('a new member', () => {
  let page: Page;
  const email = uniqueEmail('ada');

  test.beforeAll(async ({ browser }) => {
    page = await (await browser.newContext()).newPage();
  });
  test.afterAll(async () => page.context().close());

  test('signs in with Google, lands on onboarding, fills it and reaches the dashboard with the free credits', async () => {
    await nextGoogleAccount(email, 'Ada Lovelace');
    await page.goto('/');
    await page.getByRole('link', { name: 'Get Started' }).first().click();
    await expect(page).toHaveURL(/\/auth/);
    await page.getByRole('button', { name: 'Continue with Google' }).click();

    await expect(page).toHaveURL(/\/onboarding/);
    await expect(page.getByRole('heading', { name: 'Welcome to Your Journey' })).toBeVisible();
    await expect(page.getByText(/pre-filled from your sign-in account/i)).toBeVisible();
    await expect(page.getByLabel('First name')).toHaveValue('Ada');
    await page.getByLabel('Day').selectOption('10');
    await page.getByLabel('Month').selectOption('12');
    await page.getByLabel('Year').selectOption('1990');
    await page.getByLabel('Birth time (optional)').fill('08:30');
    await page.getByLabel('Birth city').fill('London');
    await page.getByLabel('Birth country').fill('United Kingdom');
    await screenshot(page, 'onboarding');
    await page.getByRole('button', { name: 'Save and Continue' }).click();

    await expect(page).toHaveURL(/\/app$/);
    await expect(page.getByRole('link', { name: /10 credits/ }).first()).toBeVisible();
    await expect(page.getByText('Coming Soon')).toBeVisible();
    await expectAccessible(page);
    await screenshot(page, 'dashboard');
  });

  test('edits the profile', async () => {
    await page.goto('/profile');
    await expect(
      page.getByText('Email cannot be changed. Contact support if needed.'),
    ).toBeVisible();
    await expectAccessible(page);
    await page.getByRole('button', { name: 'Edit Profile' }).click();
    await page.getByLabel('Birth city').fill('Paris');
    await page.getByLabel('Birth country').fill('France');
    await page.getByRole('button', { name: 'Save Changes' }).click();
    await expect(page.getByText('Profile updated successfully!')).toBeVisible();
    await page.reload();
    await expect(page.getByText('Paris')).toBeVisible();
    await expectAccessible(page);
    await screenshot(page, 'profile');
  });

  test('opens the credit history', async () => {
    await page
      .getByRole('link', { name: /10 credits/ })
      .first()
      .click();
    await expect(page).toHaveURL(/\/credits/);
    await expect(page.getByText('Free welcome credits')).toBeVisible();
    await expect(page.getByRole('img', { name: /balance/i })).toBeVisible();
    await screenshot(page, 'credit-history');
  });

  test('uses the menu drawer on a 375 px phone', async () => {
    await page.setViewportSize({ width: 375, height: 812 });
    await page.goto('/app');
    await page.getByRole('button', { name: 'Open menu' }).click();
    const drawer = page.getByRole('dialog');
    await expect(drawer.getByRole('link', { name: 'Library' })).toBeVisible();
    await expect(drawer.getByRole('link', { name: /Buy Credits/ })).toBeVisible();
    await screenshot(page, 'mobile-drawer');
    await drawer.getByRole('link', { name: /Profile Settings/ }).click();
    await expect(page).toHaveURL(/\/profile/);
    await page.setViewportSize({ width: 1280, height: 800 });
  });

  test('deletes the account; signing in again with the same e-mail gets no new free credits', async () => {
    await page.goto('/profile');
    await page.getByRole('button', { name: 'Delete Account' }).click();
    await page.getByRole('button', { name: 'Yes, delete my account' }).click();
    await expect(page.getByText('Account Deleted')).toBeVisible();
    await expect(page).toHaveURL(/\/$/);
    await page.goto('/app');
    await expect(page).toHaveURL(/\/auth/);

    await nextGoogleAccount(email, 'Ada Lovelace');
    await page.getByRole('button', { name: 'Continue with Google' }).click();
    await expect(page).toHaveURL(/\/onboarding/);
    await page.getByRole('button', { name: 'Skip for Now' }).click();
    await expect(page).toHaveURL(/\/app$/);
    await expect(page.getByRole('link', { name: /^0 credits/ }).first()).toBeVisible();
  });
});
