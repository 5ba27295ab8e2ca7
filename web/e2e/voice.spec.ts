/**
 * The voice guide on the result pages (issue 15), with the offline guide (no ElevenLabs key in
 * the browser tests). Playwright's clock drives the countdown, so five minutes pass at once; the
 * server's clock is real, so what the server records for a browser-side time-up is not asserted.
 */
import { type VoiceStatus, voiceMessages } from '@astra/contracts';
import {
  type APIRequestContext,
  expect,
  type Page,
  type Request,
  type request,
  test,
} from '@playwright/test';
import { E2E } from './ports.ts';
import { expectAccessible, screenshot, screenshotOf, uniqueEmail } from './support.ts';

test.describe.configure({ mode: 'serial' });

/** An admin's request context, unlocked, to set a member's balance. */
async function adminContext(playwright: { request: { newContext: typeof request.newContext } }) {
  const admin = await playwright.request.newContext({ baseURL: E2E.baseUrl });
  await admin.post('/api/auth/dev-login', { data: { email: 'admin@example.com' } });
  expect(
    (await admin.post('/api/admin/unlock', { data: { password: 'e2e-admin-password' } })).ok(),
  ).toBe(true);
  return admin;
}

async function adjustCredits(admin: APIRequestContext, userId: string, amount: number) {
  const answer = await admin.post(`/api/admin/users/${userId}/credits`, {
    data: { amount, reason: 'Voice browser tests' },
    headers: { 'Idempotency-Key': `voice-e2e-${Date.now()}-${Math.random()}` },
  });
  expect(answer.ok()).toBe(true);
}

/** A new member (10 free credits) signed in inside a fresh browser context with a fake clock. */
async function newMember(browser: import('@playwright/test').Browser, who: string) {
  const page = await (await browser.newContext()).newPage();
  await page.clock.install();
  const answer = await page.request.post('/api/auth/dev-login', {
    data: { email: uniqueEmail(who), fullName: 'Ada Lovelace' },
  });
  expect(answer.ok()).toBe(true);
  const { id } = (await answer.json()) as { id: string };
  return { page, userId: id };
}

async function createReading(page: Page, kind: string, data: unknown): Promise<string> {
  const answer = await page.request.post(`/api/readings/${kind}`, { data });
  expect(answer.status()).toBe(201);
  return ((await answer.json()) as { readingId: string }).readingId;
}

const voiceStatus = async (page: Page, readingId: string) => {
  const answer = await page.request.get(`/api/readings/${readingId}/voice`);
  expect(answer.ok()).toBe(true);
  return (await answer.json()) as VoiceStatus;
};

/** '4:57' → 297 */
const seconds = (shown: string | null) => {
  const [minutes, rest] = (shown ?? '').trim().split(':');
  return Number(minutes) * 60 + Number(rest);
};

test('Celtic Cross: its own time-up message, the timer back at 5:00; compatibility says "Activate"', async ({
  browser,
  playwright,
}) => {
  const { page, userId } = await newMember(browser, 'voice-cross');
  const admin = await adminContext(playwright);
  await adjustCredits(admin, userId, 10);
  await admin.dispose();
  const crossId = await createReading(page, 'tarot-celtic-cross', {
    firstName: 'Ada',
    question: 'What do I need to know about my work with Charles?',
  });
  const person = (first: string, last: string, birthDate: string) => ({
    firstName: first,
    lastName: last,
    birthDate,
    birthTime: '12:00',
    city: 'London',
    country: 'United Kingdom',
  });
  const compatibility = await page.request.post('/api/readings/compatibility', {
    data: {
      person1: person('Ada', 'Lovelace', '1990-12-10'),
      person2: person('Charles', 'Babbage', '1991-12-26'),
    },
  });

  await page.goto(`/tarot-celtic-cross-result?readingId=${crossId}`);
  const card = page.getByRole('region', { name: 'Voice Session' });
  await card.getByRole('button', { name: 'Speak to Voice Guide' }).click();
  await expect(page.getByText('Voice agent activated! 5 minutes remaining.')).toBeVisible();
  await page.clock.fastForward('05:00');
  await expect(page.getByText('Voice consultation time has ended')).toBeVisible();
  await expect(card.getByRole('timer')).toHaveText('5:00');
  await expect(
    card.getByRole('button', { name: 'Reactivate Voice Agent (2 credits)' }),
  ).toBeVisible();
  await expectAccessible(page);
  await screenshot(page, 'voice-celtic-cross-time-up');

  if (compatibility.status() === 201) {
    const { readingId } = (await compatibility.json()) as { readingId: string };
    await page.goto(`/compatibility_result/${readingId}`);
    await expect(card.getByRole('button', { name: 'Activate Voice Guide' })).toBeVisible();
    await expect(
      page
        .getByRole('region', { name: 'How to Use Your Reading' })
        .getByRole('button', { name: 'Activate Voice Guide' }),
    ).toBeVisible();
  } else {
    throw new Error(
      `compatibility reading: ${compatibility.status()} ${await compatibility.text()}`,
    );
  }
  await page.context().close();
});

test.describe('the voice guide of a tarot reading', () => {
  let page: Page;
  let userId: string;
  let readingId: string;
  let admin: APIRequestContext;
  let credits = 10;

  const voiceCard = () => page.getByRole('region', { name: 'Voice Session' });
  const howTo = () => page.getByRole('region', { name: 'How to Use Your Reading' });
  const timer = () => voiceCard().getByRole('timer');
  const badge = () =>
    expect(
      page.getByRole('link', { name: new RegExp(`^${credits} credits`) }).first(),
    ).toBeVisible();
  const openResult = async () => {
    await page.goto(`/tarot-result?readingId=${readingId}`);
    await expect(page.getByRole('heading', { name: 'Your Tarot Reading' })).toBeVisible();
  };

  test.beforeAll(async ({ browser, playwright }) => {
    ({ page, userId } = await newMember(browser, 'voice'));
    admin = await adminContext(playwright);
    readingId = await createReading(page, 'tarot-traditional', {
      firstName: 'Ada',
      question: 'Should I start the analytical engine project this year?',
    });
    credits -= 4;
  });
  test.afterAll(async () => {
    await admin.dispose();
    await page.context().close();
  });

  test('with a voice service, a refused or missing microphone is said with Retry and nothing starts', async () => {
    // The browser tests' server has no ElevenLabs key: its status is made to name the service.
    const statusUrl = `**/api/readings/${readingId}/voice`;
    await page.route(statusUrl, async (route) => {
      const response = await route.fetch();
      const json = { ...((await response.json()) as VoiceStatus), provider: 'elevenlabs' };
      await route.fulfill({ response, json });
    });
    const starts: string[] = [];
    const onRequest = (request: Request) => {
      if (request.method() === 'POST' && request.url().includes('/voice/sessions'))
        starts.push(request.url());
    };
    page.on('request', onRequest);
    try {
      await openResult();
      // A microphone refused, then none at all.
      await page.evaluate(() => {
        const probe = window as unknown as { micAsked: number; micError: string };
        probe.micAsked = 0;
        probe.micError = 'NotAllowedError';
        Object.defineProperty(navigator, 'mediaDevices', {
          configurable: true,
          value: {
            getUserMedia: async () => {
              probe.micAsked += 1;
              throw new DOMException('No microphone for the test', probe.micError);
            },
          },
        });
      });
      await voiceCard().getByRole('button', { name: 'Speak to Voice Guide' }).click();
      const problem = voiceCard().getByRole('alert');
      await expect(problem).toContainText(voiceMessages.microphone);
      await expect(voiceCard().getByRole('button', { name: 'Voice Guide Active' })).toHaveCount(0);
      await expectAccessible(page);
      await screenshotOf(voiceCard(), 'voice-card-microphone-refused');

      await page.evaluate(() => {
        (window as unknown as { micError: string }).micError = 'NotFoundError';
      });
      await problem.getByRole('button', { name: 'Retry' }).click();
      await expect(problem).toContainText(voiceMessages.noMicrophone);
      expect(await page.evaluate(() => (window as unknown as { micAsked: number }).micAsked)).toBe(
        2,
      );
      // Nothing was asked of the server, so nothing started and nothing was charged.
      expect(starts).toEqual([]);
      const status = await voiceStatus(page, readingId);
      expect(status.active).toBeNull();
      expect(status.used).toBe(false);
      await badge();
    } finally {
      page.off('request', onRequest);
      await page.unroute(statusUrl);
    }
  });

  test('start: the toast, a countdown that ticks each second, and the offline guide', async () => {
    await openResult();
    await expect(timer()).toHaveText('5:00');
    const start = voiceCard().getByRole('button', { name: 'Speak to Voice Guide' });
    await expect(start).toBeEnabled();
    await expect(howTo().getByRole('button', { name: 'Speak to Voice Guide' })).toBeEnabled();
    await expectAccessible(page);
    await screenshot(page, 'voice-ready');

    await start.click();
    await expect(page.getByText('Voice agent activated! 5 minutes remaining.')).toBeVisible();
    await expect(voiceCard().getByRole('button', { name: 'Voice Guide Active' })).toBeVisible();
    await expect(howTo().getByRole('button', { name: 'Voice Guide Active' })).toBeVisible();
    await expect(voiceCard().getByRole('button', { name: 'End Session Early' })).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Offline voice guide' })).toBeVisible();
    // The first session is included in the reading: nothing was spent.
    await badge();

    const before = seconds(await timer().textContent());
    expect(before).toBeGreaterThan(290);
    await page.clock.runFor(3000);
    await expect
      .poll(async () => seconds(await timer().textContent()))
      .toBeLessThanOrEqual(before - 3);

    // A typed question is answered from the reading itself.
    await page.getByLabel('Ask about your reading').fill('What does the future card say?');
    await page.getByRole('button', { name: 'Ask', exact: true }).click();
    const log = page.getByRole('log', { name: 'Conversation with the offline guide' });
    await expect(log).toContainText('You: What does the future card say?');
    await expect(log.getByRole('listitem')).toHaveCount(2);

    // The server holds the session, with its own clock.
    const status = await voiceStatus(page, readingId);
    expect(status.active?.provider).toBe('offline');
    expect(status.used).toBe(true);

    await expectAccessible(page);
    await screenshot(page, 'voice-active');

    // Pressing the button during a session brings the conversation forward, it starts nothing.
    await howTo().getByRole('button', { name: 'Voice Guide Active' }).click();
    await expect(page.getByRole('region', { name: 'Voice guide conversation' })).toBeFocused();
    expect((await voiceStatus(page, readingId)).active?.sessionId).toBe(status.active?.sessionId);
  });

  test('end early: "Voice session ended", then the button offers a reactivation', async () => {
    await voiceCard().getByRole('button', { name: 'End Session Early' }).click();
    await expect(page.getByText('Voice session ended', { exact: true })).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Offline voice guide' })).toBeHidden();
    const reactivate = voiceCard().getByRole('button', {
      name: 'Reactivate Voice Agent (2 credits)',
    });
    await expect(reactivate).toBeEnabled();
    await expect(
      howTo().getByRole('button', { name: 'Reactivate Voice Agent (2 credits)' }),
    ).toBeVisible();
    await expect.poll(async () => (await voiceStatus(page, readingId)).active).toBeNull();
    await screenshot(page, 'voice-ended-early');
  });

  test('reactivate: the badge drops by 2; at zero "Voice session completed"', async () => {
    await voiceCard().getByRole('button', { name: 'Reactivate Voice Agent (2 credits)' }).click();
    await expect(page.getByText('Voice agent reactivated! 5 minutes remaining.')).toBeVisible();
    credits -= 2;
    await badge();
    await expect(voiceCard().getByRole('button', { name: 'Voice Guide Active' })).toBeVisible();
    await screenshot(page, 'voice-reactivated');

    await page.clock.fastForward('05:00');
    await expect(page.getByText('Voice session completed', { exact: true })).toBeVisible();
    // Over: the timer shows what a reactivation gives.
    await expect(timer()).toHaveText('5:00');
    await expect(page.getByRole('heading', { name: 'Offline voice guide' })).toBeHidden();
    await expect(
      voiceCard().getByRole('button', { name: 'Reactivate Voice Agent (2 credits)' }),
    ).toBeVisible();
    await expect.poll(async () => (await voiceStatus(page, readingId)).active).toBeNull();
    await expectAccessible(page);
    await screenshot(page, 'voice-time-up');
    await screenshotOf(voiceCard(), 'voice-card-time-up');
  });

  test('the library marks the reading whose voice guide was used', async () => {
    await page.goto('/library');
    const item = page.getByRole('list', { name: 'Saved readings' }).getByRole('listitem');
    await expect(item).toHaveCount(1);
    await expect(item.getByText('Voice guide used')).toBeVisible();
    await screenshot(page, 'voice-library');
  });

  test('leaving the page ends the session: the server says so', async () => {
    await openResult();
    await voiceCard().getByRole('button', { name: 'Reactivate Voice Agent (2 credits)' }).click();
    await expect(voiceCard().getByRole('button', { name: 'Voice Guide Active' })).toBeVisible();
    credits -= 2;
    await badge();
    expect((await voiceStatus(page, readingId)).active).not.toBeNull();

    // Another page of the app (the router unmounts the result page).
    await page.getByRole('link', { name: 'Library' }).first().click();
    await expect(page).toHaveURL(/\/library/);
    await expect.poll(async () => (await voiceStatus(page, readingId)).active).toBeNull();

    // Leaving the app's page altogether (pagehide): the same.
    await adjustCredits(admin, userId, 2);
    await openResult();
    credits += 2;
    await badge();
    await voiceCard().getByRole('button', { name: 'Reactivate Voice Agent (2 credits)' }).click();
    await expect(voiceCard().getByRole('button', { name: 'Voice Guide Active' })).toBeVisible();
    credits -= 2;
    await page.goto('about:blank');
    await expect.poll(async () => (await voiceStatus(page, readingId)).active).toBeNull();
  });

  test('too few credits: the hint, and a forced attempt is refused with the spec message', async () => {
    // The balance left (2) covers a reactivation…
    expect(credits).toBe(2);
    await openResult();
    await badge();
    const reactivate = voiceCard().getByRole('button', {
      name: 'Reactivate Voice Agent (2 credits)',
    });
    await expect(reactivate).toBeEnabled();
    // …until it is spent elsewhere while this page still shows it.
    await adjustCredits(admin, userId, -2);
    credits -= 2;
    await reactivate.click();
    await expect(
      page.getByText('Insufficient credits. You need 2 credits to reactivate the voice agent.'),
    ).toBeVisible();
    await expect(voiceCard().getByText('Insufficient credits (0/2 needed)')).toBeVisible();
    await expect(reactivate).toBeDisabled();
    await expect(howTo().getByText('Insufficient credits (0/2 needed)')).toBeVisible();
    await badge();
    await expectAccessible(page);
    await screenshot(page, 'voice-insufficient');
    await screenshotOf(voiceCard(), 'voice-card-insufficient');
  });

  test('a session found running (another window) is shown and can be ended, but leaving does not end it', async () => {
    await adjustCredits(admin, userId, 2);
    credits += 2;
    const started = await page.request.post(`/api/readings/${readingId}/voice/sessions`, {
      data: {},
      headers: { 'Idempotency-Key': crypto.randomUUID() },
    });
    expect(started.status()).toBe(201);
    const { sessionId } = ((await started.json()) as { session: { sessionId: string } }).session;
    credits -= 2;
    const running = voiceCard().getByText(
      'A voice session of this reading is running in another window or was left open.',
      { exact: false },
    );
    await openResult();
    await expect(voiceCard().getByRole('button', { name: 'Voice Guide Active' })).toBeVisible();
    expect(seconds(await timer().textContent())).toBeGreaterThan(280);
    await expect(running).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Offline voice guide' })).toBeVisible();

    // Not this page's session: neither another page of the app nor leaving the app ends it.
    await page.getByRole('link', { name: 'Library' }).first().click();
    await expect(page).toHaveURL(/\/library/);
    await page.goto('about:blank');
    await openResult();
    await expect(running).toBeVisible();
    expect((await voiceStatus(page, readingId)).active?.sessionId).toBe(sessionId);

    await voiceCard().getByRole('button', { name: 'End Session Early' }).click();
    await expect(page.getByText('Voice session ended', { exact: true })).toBeVisible();
    await expect.poll(async () => (await voiceStatus(page, readingId)).active).toBeNull();
  });

  test('on a phone, in dark mode', async () => {
    await adjustCredits(admin, userId, 2);
    credits += 2;
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.setViewportSize({ width: 390, height: 844 });
    await openResult();
    await voiceCard().getByRole('button', { name: 'Reactivate Voice Agent (2 credits)' }).click();
    await expect(page.getByRole('heading', { name: 'Offline voice guide' })).toBeVisible();
    credits -= 2;
    await voiceCard().scrollIntoViewIfNeeded();
    // Nothing wider than the phone.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
      390,
    );
    await expectAccessible(page);
    await screenshot(page, 'voice-active-phone-dark');
    await screenshotOf(voiceCard(), 'voice-card-phone-dark');
    await voiceCard().getByRole('button', { name: 'End Session Early' }).click();
    await expect(page.getByText('Voice session ended', { exact: true })).toBeVisible();
  });

  test('the credit history names the reactivation and links to its reading', async () => {
    await page.goto('/credits');
    // Five reactivations above (the forced attempt was refused and spent nothing).
    const rows = page.getByRole('row').filter({ hasText: 'Voice guide reactivated' });
    await expect(rows).toHaveCount(5);
    const row = rows.first();
    await expect(row).toContainText('\u22122');
    await expectAccessible(page);
    await screenshot(page, 'voice-credit-history');
    await row.getByRole('link', { name: 'View reading' }).click();
    await expect(page).toHaveURL(new RegExp(`readingId=${readingId}`));
    await expect(page.getByRole('heading', { name: 'Your Tarot Reading' })).toBeVisible();
  });
});
