/**
 * Readings on screen at once, their text streamed in as the model writes it (issue 11). The app
 * writes with OpenAI's API, here a loopback double in this process whose words pass only as far
 * as each test opens its gate, so the test sees every stage: the facts before any word, words
 * before the end, and the end.
 */
import { type APIRequestContext, type Browser, expect, type Page, test } from '@playwright/test';
import { pieceGate, piecesOf, type Script } from '../../services/api/test/openAiDouble.ts';
import { ADA, fillBirthData, fillLifePath } from './forms.ts';
import { E2E } from './ports.ts';
import { memberWithCredits, startStreamingApp } from './streamingApp.ts';
import { screenshot, uniqueEmail } from './support.ts';

test.describe.configure({ mode: 'serial' });

const NATAL_TEXT =
  '## Your Chart at a Glance\n\nStardust and clockwork: your Sun looks far ahead while your Moon asks for a harbour.\n\n## Bringing It Together\n\nUse the chart as a map rather than a verdict.';
const TAROT_TEXT =
  '## Your Reading, Ada\n\nThe cards answer your question about the engine in three steps.\n\n## Putting It Together\n\nBuild it one gear at a time.';

/** How many of the double's pieces write `text` as far as `phrase`, inclusive. */
function piecesThrough(text: string, phrase: string) {
  const pieces = piecesOf(text);
  for (let count = 1; count <= pieces.length; count++)
    if (pieces.slice(0, count).join('').includes(phrase)) return count;
  throw new Error(`'${phrase}' is not in the text`);
}

test.describe('a reading streamed as it is written', () => {
  let app: Awaited<ReturnType<typeof startStreamingApp>>;
  let script: Script = {};

  test.beforeAll(async () => {
    app = await startStreamingApp(E2E.streamingAppPort, () => script);
  });
  test.afterAll(async () => app?.stop());

  /** A new member with `credits`, signed in on a page of the streaming app. */
  async function memberPage(
    browser: Browser,
    playwright: {
      request: { newContext: (options: { baseURL: string }) => Promise<APIRequestContext> };
    },
    credits: number,
  ): Promise<Page> {
    const context = await browser.newContext({ baseURL: app.url });
    const admin = await playwright.request.newContext({ baseURL: app.url });
    await memberWithCredits(context.request, admin, uniqueEmail('streamed'), credits);
    await admin.dispose();
    return context.newPage();
  }

  const badge = (page: Page, credits: number) =>
    page.getByRole('link', { name: new RegExp(`^${credits} credits`) }).first();

  test('the chart at once, words while they are written, then the whole report; a reload shows it', async ({
    browser,
    playwright,
  }) => {
    const gate = pieceGate();
    script = { text: NATAL_TEXT, before: gate.before };
    const page = await memberPage(browser, playwright, 30);
    await page.goto('/natalbirthchart');
    await fillBirthData(page, ADA);
    await page.getByRole('button', { name: 'Generate My Natal Chart' }).click();

    // The chart first, while the model has not written a word.
    await expect(page).toHaveURL(/\/natalbirthchart_result\//);
    await expect(page.getByRole('img', { name: /chart/i }).first()).toBeVisible();
    const report = page.getByRole('region', { name: 'Your Full Natal Report' });
    await expect(report.getByRole('status')).toHaveText('Writing your reading...');
    await expect(report).toHaveAttribute('aria-busy', 'true');
    expect(app.openAi.seen.at(-1)?.firstPieceAt).toBeUndefined();
    await expect(badge(page, 6)).toBeVisible();
    await screenshot(page, 'stream-natal-chart-first');

    // Words arrive before the reading is complete.
    gate.open(piecesThrough(NATAL_TEXT, 'Stardust and clockwork'));
    await expect(report).toContainText('Stardust and clockwork');
    await expect(report.getByRole('status')).toHaveText('Still writing...');
    await expect(report).not.toContainText('rather than a verdict');
    await screenshot(page, 'stream-natal-words-arriving');

    gate.open();
    await expect(report).toContainText('Use the chart as a map rather than a verdict.');
    await expect(report.getByRole('heading', { name: 'Bringing It Together' })).toBeVisible();
    await expect(report.getByRole('status')).toHaveCount(0);
    await expect(report).not.toHaveAttribute('aria-busy');
    // Saved: the voice guide of a finished reading is offered, and a reload reads it by its id.
    await expect(page.getByRole('heading', { name: /voice/i }).first()).toBeVisible();
    await page.reload();
    await expect(report).toContainText('Use the chart as a map rather than a verdict.');
    await expect(page.getByRole('img', { name: /chart/i }).first()).toBeVisible();
    await page.context().close();
  });

  test('the cards at once; a reload half way shows the text so far and carries on', async ({
    browser,
    playwright,
  }) => {
    const gate = pieceGate();
    script = { text: TAROT_TEXT, before: gate.before };
    const page = await memberPage(browser, playwright, 10);
    await page.goto('/tarot-traditional');
    await page.getByLabel('First name').fill('Ada');
    await page.getByLabel('Your question').fill('Should I build the analytical engine?');
    await page.getByRole('button', { name: 'Draw My Cards' }).click();

    await expect(page).toHaveURL(/\/tarot-result\?readingId=/);
    const cards = page.getByRole('region', { name: 'Your Cards' });
    await expect(cards.getByRole('listitem')).toHaveCount(3);
    const report = page.getByRole('region', { name: 'Your Full Tarot Reading' });
    await expect(report.getByRole('status')).toHaveText('Writing your reading...');

    gate.open(piecesThrough(TAROT_TEXT, 'The cards answer your'));
    await expect(report).toContainText('The cards answer your');
    // The connection is lost (here: the page is reloaded): the text so far is read back by the
    // reading's id, and the rest follows live.
    await page.reload();
    await expect(cards.getByRole('listitem')).toHaveCount(3);
    await expect(report).toContainText('The cards answer your');
    await expect(report.getByRole('status')).toHaveText('Still writing...');
    gate.open();
    await expect(report).toContainText('Build it one gear at a time.');
    await expect(report.getByRole('status')).toHaveCount(0);
    await expect(badge(page, 6)).toBeVisible();
    await page.context().close();
  });

  test('a text that breaks off half way: the page says so and the credits are back', async ({
    browser,
    playwright,
  }) => {
    const gate = pieceGate();
    const brokenAt = piecesThrough(TAROT_TEXT, 'The cards answer');
    script = { text: TAROT_TEXT, before: gate.before, breakAfter: brokenAt };
    const page = await memberPage(browser, playwright, 10);
    await page.goto('/lifepathnumber');
    await fillLifePath(page, ADA);
    await page.getByRole('button', { name: 'Calculate My Numbers' }).click();

    await expect(page.getByRole('heading', { name: 'Your Life Path Reading' })).toBeVisible();
    await expect(badge(page, 5)).toBeVisible();
    gate.open(brokenAt);
    await expect(page.getByText('The cards answer')).toBeVisible();
    gate.open();
    await expect(
      page.getByRole('heading', { name: 'We could not finish your reading' }),
    ).toBeVisible();
    await expect(page.getByRole('alert')).toContainText('Its credits were returned');
    await expect(badge(page, 10)).toBeVisible();
    await screenshot(page, 'stream-failed');
    await page.getByRole('link', { name: 'Try again' }).click();
    await expect(page).toHaveURL(/\/lifepathnumber$/);
    await page.context().close();
  });
});
