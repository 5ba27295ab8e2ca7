import { readingKind } from '@astra/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { readingEngine, shippedReadingKinds } from '../src/modules/readings/kinds.ts';
import { caughtUp, memberWith, startTestServer, type TestServer } from './support.ts';

const DAY = 24 * 60 * 60 * 1000;
let now = new Date();
const dayOf = (at: Date) => at.toISOString().slice(0, 10);
/** The price rises from 9 days after the test starts: a change is a dated entry. */
const rise = dayOf(new Date(now.getTime() + 9 * DAY));

/** A sixth reading kind, sold only by this test's server: its record… */
const runes = readingKind({
  slug: 'test-runes',
  appId: 6,
  name: 'Rune Cast',
  title: 'A rune reading',
  description: 'Three runes drawn for one question.',
  schema: z.strictObject({ firstName: z.string().min(1), question: z.string().min(1) }),
  textField: 'verse',
  voiceMinutes: 2,
  prices: [{ credits: 7 }, { from: rise, credits: 9 }],
});
/** …and its engine, whose writer is its own. */
const runesKind = readingEngine(runes, (form) => ({
  firstName: form.firstName,
  question: form.question,
  result: (verse) => ({ runes: ['Fehu', 'Uruz', 'Ansuz'], verse }),
  async *write() {
    yield `${form.firstName}, the runes `;
    yield 'answer.';
  },
}));

describe('a reading kind registered from one record and its engine', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({}, undefined, {
      clock: () => now,
      readingKinds: [...shippedReadingKinds, runesKind],
    });
  });
  afterAll(() => server?.close());

  it('is sold through HTTP at its price, and shows in the catalogue, library and ledger', async () => {
    const visitor = server.client();
    const apps = (await visitor.get('/api/apps')).body.items;
    expect(apps).toHaveLength(6);
    expect(apps).toContainEqual({
      appId: 6,
      slug: 'test-runes',
      name: 'Rune Cast',
      description: 'Three runes drawn for one question.',
      creditCost: 7,
      voiceMinutes: 2,
    });
    const document = (await visitor.get('/api/openapi.json')).body;
    expect(Object.keys(document.paths)).toEqual(
      expect.arrayContaining(['/api/readings/test-runes', '/api/readings/test-runes/start']),
    );

    const { member } = await memberWith(server, 20);
    const refused = await member.post('/api/readings/test-runes', { firstName: 'Ada' });
    expect(refused.status).toBe(400);
    expect(refused.body.fields).toEqual([{ field: 'question', message: expect.any(String) }]);

    const bought = await member.post('/api/readings/test-runes', {
      firstName: 'Ada',
      question: 'Which way?',
    });
    expect(bought.status).toBe(201);
    expect(bought.body).toMatchObject({
      appId: 6,
      remainingCredits: 13,
      result: { runes: ['Fehu', 'Uruz', 'Ansuz'], verse: 'Ada, the runes answer.' },
    });
    const started = await member.post('/api/readings/test-runes/start', {
      firstName: 'Ada',
      question: 'And then?',
    });
    expect(started.status).toBe(202);
    expect(started.body).toMatchObject({ appId: 6, textField: 'verse', remainingCredits: 6 });
    expect((await member.get('/api/me')).body.remainingCredits).toBe(6);

    await caughtUp(server);
    const library = (await member.get('/api/library')).body;
    expect(library.apps).toEqual([{ appId: 6, appName: 'Rune Cast' }]);
    expect(library.items).toContainEqual(
      expect.objectContaining({
        readingId: bought.body.readingId,
        appName: 'Rune Cast',
        creditsCharged: 7,
      }),
    );
    const spends = (await member.get('/api/me/ledger')).body.items.filter(
      (entry: { type: string }) => entry.type === 'CreditsSpent',
    );
    expect(spends.map((entry: { amount: number }) => entry.amount)).toEqual([-7, -7]);
  });

  it('charges a dated price from its day on, and an older reading keeps what it cost', async () => {
    const { member } = await memberWith(server, 20);
    const body = { firstName: 'Ada', question: 'Before the rise?' };
    const before = await member.post('/api/readings/test-runes', body);
    expect(before.body.remainingCredits).toBe(13);

    now = new Date(`${rise}T00:00:00Z`);
    const apps = (await server.client().get('/api/apps')).body.items;
    expect(apps.find((app: { slug: string }) => app.slug === 'test-runes').creditCost).toBe(9);
    const after = await member.post('/api/readings/test-runes', body);
    expect(after.body.remainingCredits).toBe(4);

    await caughtUp(server);
    const charged = Object.fromEntries(
      (await member.get('/api/library')).body.items.map(
        (item: { readingId: string; creditsCharged: number }) => [
          item.readingId,
          item.creditsCharged,
        ],
      ),
    );
    expect(charged).toEqual({ [before.body.readingId]: 7, [after.body.readingId]: 9 });
  });

  it('is a row of read.apps, the catalogue as of the start', async () => {
    const row = await server.deps.read
      .selectFrom('apps')
      .selectAll()
      .where('slug', '=', 'test-runes')
      .executeTakeFirst();
    expect(row).toMatchObject({ app_id: 6, app_name: 'Rune Cast', credit_cost_per_execution: 7 });
  });
});
