import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { type Browser, expect, type Locator, type Page, request } from '@playwright/test';
import { E2E } from './ports.ts';

const screenshots = join(import.meta.dirname, '../../test-results/screenshots');

/** Chooses who the loopback OAuth server signs in next, like picking a Google account. */
export async function nextGoogleAccount(email: string, name: string) {
  const response = await fetch(`http://127.0.0.1:${E2E.controlPort}/identity`, {
    method: 'POST',
    body: JSON.stringify({ email, name }),
  });
  expect(response.status).toBe(204);
}

/** The admin the app under test knows (`ADMIN_EMAILS`, `ADMIN_PASSWORD` in serve.ts). */
export const ADMIN_EMAIL = 'admin@example.com';
export const ADMIN_PASSWORD = 'e2e-admin-password';

/** A fresh browser context signed in (development sign-in) as `email`: its page and the user id. */
export async function signedIn(browser: Browser, email: string, fullName?: string) {
  const page = await (await browser.newContext()).newPage();
  const answer = await page.request.post('/api/auth/dev-login', {
    data: fullName ? { email, fullName } : { email },
  });
  expect(answer.ok()).toBe(true);
  return { page, id: ((await answer.json()) as { id: string }).id };
}

/** A toast with `text` in the page's notifications. */
export const toast = (page: Page, text: string) =>
  page
    .getByRole('region', { name: /notifications/i })
    .getByText(text)
    .first();

/**
 * Screenshots for people to look at (test-results/screenshots), taken with E2E_SCREENSHOTS=1:
 * each costs about a second of software rendering, which the suite's time cannot afford.
 */
const keepScreenshots = process.env.E2E_SCREENSHOTS === '1';
if (keepScreenshots) mkdirSync(screenshots, { recursive: true });

/** A full-page screenshot kept as a test artifact. */
export async function screenshot(page: Page, name: string) {
  if (keepScreenshots)
    await page.screenshot({ path: join(screenshots, `${name}.png`), fullPage: true });
}

/** One part of the page (a card) as a screenshot, for states a full page makes too small to see. */
export async function screenshotOf(locator: Locator, name: string) {
  if (keepScreenshots) await locator.screenshot({ path: join(screenshots, `${name}.png`) });
}

/**
 * axe-core on the page as it is once its transitions are over (a dialog fading in is still
 * translucent, and its text then fails the contrast check): no serious or critical violations.
 */
export async function expectAccessible(page: Page) {
  await page.evaluate(() =>
    Promise.all(
      document
        .getAnimations()
        // A spinner runs for ever: only what ends is waited for.
        .filter((animation) => animation.effect?.getComputedTiming().endTime !== Infinity)
        .map((animation) => animation.finished.catch(() => {})),
    ),
  );
  const { violations } = await new AxeBuilder({ page }).analyze();
  const grave = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(
    grave.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`),
  ).toEqual([]);
}

export const uniqueEmail = (who: string) =>
  `${who}-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.com`;

/** An admin (of `ADMIN_EMAILS`) sets the user's balance to `credits` with an adjustment. */
export async function topUpCredits(userId: string, from: number, credits: number) {
  const admin = await request.newContext({ baseURL: E2E.baseUrl });
  await admin.post('/api/auth/dev-login', { data: { email: 'admin@example.com' } });
  expect(
    (await admin.post('/api/admin/unlock', { data: { password: 'e2e-admin-password' } })).ok(),
  ).toBe(true);
  expect(
    (
      await admin.post(`/api/admin/users/${userId}/credits`, {
        data: { amount: credits - from, reason: 'Browser tests' },
      })
    ).ok(),
  ).toBe(true);
  await admin.dispose();
}
