import { streams } from '@astra/ledger';
import { allProjections, PolledProgress } from '@astra/projections';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { abandonReading } from '../src/modules/readings/generation.ts';
import { recoverInterruptedReadings } from '../src/modules/readings/recovery.ts';
import { fakeOpenAi } from './openAiDouble.ts';
import { forms } from './readingForms.ts';
import {
  type Client,
  caughtUp,
  eventCount,
  memberWith,
  startTestServer,
  type TestServer,
} from './support.ts';

const balanceOf = async (client: Client) =>
  (await client.get('/api/me')).body.remainingCredits as number;

describe('readings over HTTP (offline writer)', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server?.close());

  it('generates each of the five readings, spending its cost, with the contract’s result fields', async () => {
    const { member } = await memberWith(server, 100);
    const costs = {
      'natal-chart': 24,
      'tarot-celtic-cross': 12,
      'tarot-traditional': 4,
      compatibility: 8,
      'life-path': 5,
    };
    let balance = 100;
    for (const [kind, form] of Object.entries(forms)) {
      const answer = await member.post(`/api/readings/${kind}`, form);
      expect(answer.status, `${kind}: ${JSON.stringify(answer.body)}`).toBe(201);
      balance -= costs[kind as keyof typeof costs];
      expect(answer.body.remainingCredits).toBe(balance);
      expect(await balanceOf(member)).toBe(balance);
      const { result } = answer.body;
      if (kind === 'natal-chart') {
        expect(Object.keys(result.chart)).toEqual(
          expect.arrayContaining([
            'sun',
            'moon',
            'chiron',
            'mean_lilith',
            'true_south_node',
            'first_house',
            'twelfth_house',
          ]),
        );
        expect(result.chart.sun).toMatchObject({ name: 'Sun', retrograde: false });
        expect(result.chart.sun.abs_pos).toBeGreaterThan(250); // mid-Sagittarius on 10 December
        expect(result.chart.sun.abs_pos).toBeLessThan(262);
        expect(result.fullReport).toContain('## ');
      }
      if (kind === 'tarot-traditional') {
        for (const slot of ['past', 'present', 'future']) {
          expect(typeof result[`${slot}CardName`]).toBe('string');
          expect(['upright', 'reversed']).toContain(result[`${slot}Orientation`]);
        }
        expect(result.readingText).toContain(result.presentCardName);
      }
      if (kind === 'tarot-celtic-cross') {
        expect(result.cards).toHaveLength(10);
        expect(result.cards[0]).toEqual(
          expect.objectContaining({
            position: expect.any(String),
            name: expect.any(String),
            orientation: expect.stringMatching(/^(upright|reversed)$/),
            meaning: expect.any(String),
          }),
        );
        expect(typeof result.text).toBe('string');
      }
      if (kind === 'compatibility') {
        expect(result.compatibility_score).toEqual(expect.any(Number));
        expect([
          'Minimal',
          'Medium',
          'Important',
          'Very Important',
          'Exceptional',
          'Rare Exceptional',
        ]).toContain(result.compatibility_score_description);
        expect(result.full_report).toContain('## ');
      }
      if (kind === 'life-path') {
        expect(result).toMatchObject({
          lifePathNumber: expect.any(Number),
          destinyNumber: expect.any(Number),
          soulUrgeNumber: expect.any(Number),
          text: expect.any(String),
        });
      }
      const again = await member.get(`/api/readings/${answer.body.readingId}`);
      expect(again.status).toBe(200);
      expect(again.body).toMatchObject({
        readingId: answer.body.readingId,
        appId: answer.body.appId,
        result,
      });
    }
    const history = (await member.get('/api/me/ledger')).body.items;
    expect(
      history
        .filter((i: { type: string }) => i.type === 'CreditsSpent')
        .map((i: { reason: string }) => i.reason),
    ).toEqual([
      'Life Path Number',
      'Compatibility Reading',
      'Tarot Celtic Cross',
      'Tarot Traditional',
      'Natal Birth Chart',
    ]);
  });

  it('answers 402 with what is required and what there is, and spends nothing', async () => {
    const { member } = await memberWith(server, 10);
    const before = await eventCount(server);
    const answer = await member.post('/api/readings/natal-chart', forms['natal-chart']);
    expect(answer).toMatchObject({
      status: 402,
      body: { error: 'insufficient_credits', required: 24, balance: 10 },
    });
    expect(await balanceOf(member)).toBe(10);
    expect(await eventCount(server)).toBe(before);
  });

  it('lets exactly 7 of 30 concurrent generations through a balance that covers 7', async () => {
    const { member } = await memberWith(server, 28);
    const answers = await Promise.all(
      Array.from({ length: 30 }, () =>
        member.post('/api/readings/tarot-traditional', forms['tarot-traditional']),
      ),
    );
    expect(answers.filter((a) => a.status === 201)).toHaveLength(7);
    expect(answers.filter((a) => a.status === 402)).toHaveLength(23);
    expect(answers.filter((a) => a.status >= 500)).toHaveLength(0);
    expect(await balanceOf(member)).toBe(0);
    const library = await member.get('/api/library');
    expect(library.body.total).toBe(7);
  });

  it('keeps the library: search over app name and question, filter by app, pages of 25, delete', async () => {
    const { member } = await memberWith(server, 200);
    for (const question of [
      'Will the harvest be good?',
      'What about LOVE this spring?',
      'Should I travel?',
    ]) {
      expect(
        (await member.post('/api/readings/tarot-traditional', { firstName: 'Ada', question }))
          .status,
      ).toBe(201);
    }
    expect((await member.post('/api/readings/life-path', forms['life-path'])).status).toBe(201);

    const all = await member.get('/api/library');
    expect(all.body).toMatchObject({ total: 4, page: 1, pageSize: 25 });
    expect(all.body.apps).toEqual([
      { appId: 3, appName: 'Tarot Traditional' },
      { appId: 5, appName: 'Life Path Number' },
    ]);
    expect(all.body.items[0]).toMatchObject({ appName: 'Life Path Number' }); // newest first
    expect(
      (await member.get('/api/library?search=love')).body.items.map(
        (i: { question: string }) => i.question,
      ),
    ).toEqual(['What about LOVE this spring?']);
    expect((await member.get('/api/library?search=LIFE%20path')).body.total).toBe(1);
    expect((await member.get('/api/library?search=%25')).body.total).toBe(0); // a literal %, not a wildcard
    expect((await member.get('/api/library?appId=3')).body.total).toBe(3);
    expect((await member.get('/api/library?appId=9')).status).toBe(400);

    const doomed = all.body.items[1].readingId;
    expect((await member.delete(`/api/readings/${doomed}`)).body).toMatchObject({ ok: true });
    expect((await member.get(`/api/readings/${doomed}`)).status).toBe(404);
    expect((await member.get('/api/library')).body.total).toBe(3);
  });

  it("answers 404 for someone else's reading, to read or to delete", async () => {
    const { member: owner } = await memberWith(server, 10);
    const created = await owner.post('/api/readings/tarot-traditional', forms['tarot-traditional']);
    const { member: stranger } = await memberWith(server, 10);
    expect(await stranger.get(`/api/readings/${created.body.readingId}`)).toMatchObject({
      status: 404,
      body: { error: 'not_found' },
    });
    expect((await stranger.delete(`/api/readings/${created.body.readingId}`)).status).toBe(404);
    expect((await owner.get(`/api/readings/${created.body.readingId}`)).status).toBe(200);
    expect((await stranger.get('/api/readings/not-a-reading')).status).toBe(404);
    expect((await server.client().get(`/api/readings/${created.body.readingId}`)).status).toBe(401);
  });

  it('refuses bad forms and unknown places with 400 and the failing fields, spending nothing', async () => {
    const { member } = await memberWith(server, 50);
    const before = await eventCount(server);
    const cases: [string, unknown, string][] = [
      ['natal-chart', { ...forms['natal-chart'], city: '' }, 'city'],
      ['natal-chart', { ...forms['natal-chart'], birthTime: '25:00' }, 'birthTime'],
      ['natal-chart', { ...forms['natal-chart'], birthDate: '1799-12-31' }, 'birthDate'],
      [
        'natal-chart',
        { ...forms['natal-chart'], city: 'Nowhereville Xq', country: 'Atlantis' },
        'city',
      ],
      [
        'tarot-traditional',
        { firstName: 'Ada', question: Array(301).fill('word').join(' ') },
        'question',
      ],
      ['tarot-traditional', { firstName: ' ', question: 'Why?' }, 'firstName'],
      ['tarot-celtic-cross', { firstName: 'Ada', question: 'x'.repeat(501) }, 'question'],
      [
        'compatibility',
        { ...forms.compatibility, person2: { ...forms.compatibility.person2, country: '' } },
        'person2.country',
      ],
      ['life-path', { firstName: 'Ada', lastName: 'Lovelace' }, 'birthDate'],
    ];
    for (const [kind, body, field] of cases) {
      const answer = await member.post(`/api/readings/${kind}`, body);
      expect(answer.status, `${kind} ${field}`).toBe(400);
      expect(answer.body.error).toBe('invalid_request');
      expect(answer.body.fields.map((f: { field: string }) => f.field)).toContain(field);
    }
    const words = await member.post('/api/readings/tarot-traditional', cases[4]![1]);
    expect(words.body.fields[0].message).toBe(
      'Please keep your question under 300 words for the best results.',
    );
    const unknown = await member.post('/api/readings/natal-chart', cases[3]![1]);
    expect(unknown.body.message).toMatch(/could not find/i);
    expect(await eventCount(server)).toBe(before);
    expect(await balanceOf(member)).toBe(50);
  });

  it('refuses a blocked account with 403', async () => {
    const { member, id } = await memberWith(server, 10);
    await server.deps.ledger.handle(
      'user',
      id,
      { type: 'BlockUser' },
      { actor: { kind: 'system' }, correlationId: 'test' },
    );
    await caughtUp(server);
    const answer = await member.post('/api/readings/tarot-traditional', forms['tarot-traditional']);
    expect(answer).toMatchObject({
      status: 403,
      body: {
        error: 'account_blocked',
        message: 'Your account has been blocked. Please contact support.',
      },
    });
    expect(await balanceOf(member)).toBe(10);
  });

  it('suggests places for the forms', async () => {
    const answer = await server.client().get('/api/places?q=Zurich');
    expect(answer.status).toBe(200);
    expect(answer.body.items[0]).toMatchObject({ country: 'CH', timezone: 'Europe/Zurich' });
    expect((await server.client().get('/api/places?q=')).status).toBe(400);
  });

  describe('failure first, refund only if recorded', () => {
    const context = { actor: { kind: 'system' as const }, correlationId: 'gate-test' };
    /** What a request has written once it paid: a pending reading and its spend. */
    async function paidReading(userId: string) {
      const ledger = server.deps.ledger;
      const reading = { readingId: crypto.randomUUID(), userId, spendId: crypto.randomUUID() };
      await ledger.handle(
        'reading',
        reading.readingId,
        {
          type: 'RequestReading',
          ...reading,
          appId: 3,
          appName: 'Tarot Traditional',
          input: {},
          firstName: 'Ada',
          question: 'Lost?',
          creditsCharged: 4,
        },
        context,
      );
      const spent = await ledger.handle(
        'credits',
        userId,
        {
          type: 'SpendCredits',
          spendId: reading.spendId,
          amount: 4,
          purpose: 'reading',
          description: 'Tarot Traditional',
          appId: 3,
          readingId: reading.readingId,
        },
        context,
      );
      return { ...reading, position: spent.position };
    }
    /** Waits until the read models have passed a position (the API's own barrier, polled). */
    const projected = async (position: bigint | null) => {
      const progress = new PolledProgress(
        server.deps.db,
        allProjections.map((p) => p.name),
      );
      if (position !== null) expect(await progress.waitFor(position, 10_000)).toBe(true);
    };
    const eventsOf = async (stream: string) => {
      const events = [];
      for await (const event of server.deps.ledger.store.readStream(stream)) events.push(event);
      return events;
    };
    const refundsOf = async (userId: string, spendId: string) =>
      (await eventsOf(streams.credits(userId))).filter(
        (e) => e.type === 'SpendRefunded' && (e.data as { spendId: string }).spendId === spendId,
      );
    const lastPosition = async (stream: string) => (await eventsOf(stream)).at(-1)!.position;

    it('never refunds a completed reading: request, spend, complete, then abandon', async () => {
      const { member, id } = await memberWith(server, 10);
      const ledger = server.deps.ledger;
      const reading = await paidReading(id);
      await ledger.handle(
        'reading',
        reading.readingId,
        { type: 'CompleteReading', result: { readingText: 'Delivered.' }, writer: 'offline' },
        context,
      );
      await expect(
        abandonReading(ledger, reading, 'generation_failed', context),
      ).rejects.toMatchObject({ code: 'reading_completed' });

      expect((await ledger.load('reading', reading.readingId)).state.status).toBe('completed');
      expect((await ledger.load('credits', id)).state.balance).toBe(6);
      expect(await refundsOf(id, reading.spendId)).toHaveLength(0);
      await projected(await lastPosition(streams.reading(reading.readingId)));
      expect(await balanceOf(member)).toBe(6);
      expect((await member.get(`/api/readings/${reading.readingId}`)).status).toBe(200);
    });

    it('answers the completed reading, unrefunded, when waiting for the read models fails after completion', async () => {
      const { member, id } = await memberWith(server, 10);
      const settle = vi
        .spyOn(server.deps.consistency, 'settle')
        .mockRejectedValueOnce(new Error('the read side is down'));
      try {
        const answer = await member.post(
          '/api/readings/tarot-traditional',
          forms['tarot-traditional'],
        );
        expect(answer.status, JSON.stringify(answer.body)).toBe(201);
        expect(answer.body.remainingCredits).toBe(6);
        expect(settle).toHaveBeenCalledTimes(1);
        const { readingId } = answer.body;
        const { state } = await server.deps.ledger.load('reading', readingId);
        expect(state.status).toBe('completed');
        expect(await refundsOf(id, state.spendId!)).toHaveLength(0);
        expect((await server.deps.ledger.load('credits', id)).state.balance).toBe(6);
        await projected(await lastPosition(streams.reading(readingId)));
        expect(await balanceOf(member)).toBe(6);
        expect((await member.get(`/api/readings/${readingId}`)).status).toBe(200);
      } finally {
        settle.mockRestore();
      }
    });

    it('recovers a reading a crash left pending: failed first, then refunded, once', async () => {
      const { member, id } = await memberWith(server, 10);
      const ledger = server.deps.ledger;
      const reading = await paidReading(id);
      await projected(reading.position);
      expect(await balanceOf(member)).toBe(6);

      // Two sweeps at once (two processes, or overlapping runs) refund it once.
      const sweeps = await Promise.all([
        recoverInterruptedReadings(ledger, server.deps.read, server.deps.logger, 0),
        recoverInterruptedReadings(ledger, server.deps.read, server.deps.logger, 0),
      ]);
      expect(sweeps.reduce((a, b) => a + b, 0)).toBeGreaterThanOrEqual(1);
      await projected(await lastPosition(streams.reading(reading.readingId)));
      expect(
        await recoverInterruptedReadings(ledger, server.deps.read, server.deps.logger, 0),
      ).toBe(0);

      const refunds = await refundsOf(id, reading.spendId);
      expect(refunds).toHaveLength(1);
      expect(refunds[0]!.data).toMatchObject({ amount: 4, reason: 'interrupted' });
      const events = await eventsOf(streams.reading(reading.readingId));
      expect(events.map((e) => e.type)).toEqual([
        'ReadingRequested',
        'ReadingFailed',
        'ReadingRefundSettled',
      ]);
      // The failure was recorded before the refund, the refund before its settling.
      expect(events[1]!.position).toBeLessThan(refunds[0]!.position);
      expect(refunds[0]!.position).toBeLessThan(events[2]!.position);
      expect(events[2]!.data).toEqual({ spendId: reading.spendId, refunded: true });
      expect(await balanceOf(member)).toBe(10);
      expect((await ledger.load('reading', reading.readingId)).state).toMatchObject({
        status: 'failed',
        refundOwed: false,
      });
    });

    it('refunds, once, a reading a crash left failed but not refunded', async () => {
      const { member, id } = await memberWith(server, 10);
      const ledger = server.deps.ledger;
      const reading = await paidReading(id);
      // The request recorded the failure, then its process died before the refund.
      const failed = await ledger.handle(
        'reading',
        reading.readingId,
        { type: 'FailReading', reason: 'generation_failed' },
        context,
      );
      expect(failed.state.refundOwed).toBe(true);
      await projected(failed.position);
      expect(await balanceOf(member)).toBe(6);

      expect(
        await recoverInterruptedReadings(ledger, server.deps.read, server.deps.logger, 0),
      ).toBe(1);
      await projected(await lastPosition(streams.reading(reading.readingId)));
      expect(
        await recoverInterruptedReadings(ledger, server.deps.read, server.deps.logger, 0),
      ).toBe(0);

      const refunds = await refundsOf(id, reading.spendId);
      expect(refunds).toHaveLength(1);
      expect(refunds[0]!.data).toMatchObject({ amount: 4, reason: 'generation_failed' });
      expect(await balanceOf(member)).toBe(10);
      expect((await ledger.load('reading', reading.readingId)).state.refundOwed).toBe(false);
    });
  });
});

describe('readings written by OpenAI (a loopback server speaking its API)', () => {
  let mode: 'write' | 'fail' = 'write';
  let openAi: Awaited<ReturnType<typeof fakeOpenAi>>;
  let server: TestServer;
  beforeAll(async () => {
    openAi = await fakeOpenAi(() => mode);
    server = await startTestServer({
      OPENAI_API_KEY: 'sk-test',
      OPENAI_BASE_URL: openAi.url,
      OPENAI_MODEL: 'gpt-test',
      OPENAI_MAX_RETRIES: '1',
    });
  });
  afterAll(async () => {
    await server?.close();
    openAi?.close();
  });

  it('writes the text with the model, from a prompt carrying our computed cards', async () => {
    mode = 'write';
    const { member } = await memberWith(server, 10);
    const answer = await member.post('/api/readings/tarot-traditional', forms['tarot-traditional']);
    expect(answer.status).toBe(201);
    expect(answer.body.result.readingText).toContain('A reading written by the model.');
    const prompt = openAi.seen.at(-1)!;
    expect(prompt.model).toBe('gpt-test');
    expect(prompt.messages.map((m) => m.content).join('\n')).toContain(
      answer.body.result.presentCardName,
    );
  });

  it('refunds the spend when the model fails, and says so', async () => {
    mode = 'fail';
    const { member } = await memberWith(server, 10);
    const answer = await member.post('/api/readings/tarot-traditional', forms['tarot-traditional']);
    expect(answer).toMatchObject({
      status: 502,
      body: {
        error: 'generation_failed',
        message: 'Failed to generate your reading. Please try again.',
      },
    });
    expect(await balanceOf(member)).toBe(10);
    const history = (await member.get('/api/me/ledger')).body.items.map(
      (i: { type: string; amount: number }) => [i.type, i.amount],
    );
    expect(history.slice(0, 2)).toEqual([
      ['SpendRefunded', 4],
      ['CreditsSpent', -4],
    ]);
    expect((await member.get('/api/library')).body.total).toBe(0);
  });
});
