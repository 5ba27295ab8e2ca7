import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { postgresReachable } from '@astra/event-store/testing';
import { streams } from '@astra/ledger';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recoverInterruptedReadings } from '../src/modules/readings/recovery.ts';
import { DOUBLE_TEXT, fakeOpenAi, pieceGate, piecesOf, type Script } from './openAiDouble.ts';
import { forms } from './readingForms.ts';
import {
  Client,
  type EventStreamAnswer,
  memberWith,
  type ServerSentEvent,
  startTestServer,
  type TestServer,
} from './support.ts';

/**
 * Readings whose text is streamed as the model writes it (`POST …/start`, then
 * `GET /api/readings/:id/stream`), against a loopback OpenAI that streams word by word at the
 * pace the test sets.
 */

const natal = forms['natal-chart'];
const tarot = forms['tarot-traditional'];
const TEXT =
  '## Your Chart at a Glance\n\n**Sun in Sagittarius** Your Sun looks far ahead, and your Moon asks for a home to come back to.\n\n## Bringing It Together\n\nUse the chart as a map rather than a verdict.';
const PIECES = piecesOf(TEXT);
const onPostgres = await postgresReachable();

/** The next event of a stream (its end is a failure here). */
async function next(stream: EventStreamAnswer): Promise<ServerSentEvent> {
  const { value, done } = await stream.events.next();
  if (done) throw new Error('the stream ended');
  return value;
}

/** The text a reader holds after a `text` event: what it had up to the piece's offset, then the piece. */
const withPiece = (text: string, piece: { offset: number; text: string }) =>
  text.slice(0, piece.offset) + piece.text;

/** Reads `text` events until the reader holds `want`; every event's id is where its text ends. */
async function readText(stream: EventStreamAnswer, have: string, want: string) {
  let text = have;
  while (text !== want) {
    const event = await next(stream);
    expect(event.event, JSON.stringify(event)).toBe('text');
    text = withPiece(text, event.data);
    expect(event.id).toBe(String(event.data.offset + event.data.text.length));
    expect(want.startsWith(text), `${JSON.stringify(text)} is not the start of the text`).toBe(
      true,
    );
  }
  return text;
}

describe('readings streamed as they are written', () => {
  let script: 'write' | 'fail' | Script = 'write';
  let openAi: Awaited<ReturnType<typeof fakeOpenAi>>;
  let server: TestServer;
  const env = () => ({
    OPENAI_API_KEY: 'sk-test',
    OPENAI_BASE_URL: openAi.url,
    OPENAI_MODEL: 'gpt-test',
    OPENAI_MAX_RETRIES: '0',
  });
  beforeAll(async () => {
    openAi = await fakeOpenAi(() => script);
    server = await startTestServer(env());
  });
  afterAll(async () => {
    await server?.close();
    openAi?.close();
  });

  const eventsOf = async (stream: string) => {
    const events = [];
    for await (const event of server.deps.ledger.store.readStream(stream)) events.push(event);
    return events;
  };
  /** The credit events of a reading's spend: the spend, and any refund of it. */
  const spendsOf = async (userId: string, readingId: string) => {
    const { spendId } = (await server.deps.ledger.load('reading', readingId)).state;
    return (await eventsOf(streams.credits(userId))).filter(
      (e) => (e.data as { spendId?: string }).spendId === spendId,
    );
  };

  it('answers at once with the facts, then streams the text as the model writes it, then done', async () => {
    const gate = pieceGate();
    script = { text: TEXT, before: gate.before };
    const { member, id } = await memberWith(server, 30);

    const started = await member.post('/api/readings/natal-chart/start', natal);
    expect(started.status, JSON.stringify(started.body)).toBe(202);
    const { readingId } = started.body;
    expect(started.body).toMatchObject({
      appId: 1,
      remainingCredits: 6,
      textField: 'fullReport',
      stream: `/api/readings/${readingId}/stream`,
    });
    // The chart is computed and spent for; no word of the text is written yet.
    expect(started.body.result.fullReport).toBe('');
    expect(started.body.result.chart.sun).toMatchObject({ name: 'Sun', sign: 'Sagittarius' });
    expect((await member.get('/api/me')).body.remainingCredits).toBe(6);

    const stream = await member.events(started.body.stream);
    expect(stream.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const reading = await next(stream);
    expect(reading.event).toBe('reading');
    expect(reading.data).toMatchObject({
      readingId,
      appId: 1,
      appName: 'Natal Birth Chart',
      status: 'writing',
      textField: 'fullReport',
      result: { chart: started.body.result.chart, fullReport: '' },
      input: natal,
    });

    // Words arrive while the reading is still being written.
    gate.open(3);
    let text = await readText(stream, '', PIECES.slice(0, 3).join(''));
    expect((await server.deps.ledger.load('reading', readingId)).state.status).toBe('pending');
    expect((await member.get(`/api/readings/${readingId}`)).status).toBe(404);

    gate.open();
    text = await readText(stream, text, TEXT);
    const done = await next(stream);
    expect(done).toMatchObject({ event: 'done', id: String(TEXT.length) });
    expect(done.data.result).toEqual({ ...started.body.result, fullReport: TEXT });
    expect((await stream.events.next()).done).toBe(true);

    // Recorded once, at the end; read-your-writes: the reading is there once `done` came.
    const saved = await member.get(`/api/readings/${readingId}`);
    expect(saved.status).toBe(200);
    expect(saved.body.result).toEqual(done.data.result);
    expect((await eventsOf(streams.reading(readingId))).map((e) => e.type)).toEqual([
      'ReadingRequested',
      'ReadingGenerated',
    ]);
    expect((await spendsOf(id, readingId)).map((e) => e.type)).toEqual(['CreditsSpent']);
    expect(openAi.seen.at(-1)).toMatchObject({ model: 'gpt-test', stream: true });

    // Opened again (a reload), the stream of a finished reading tells it all at once.
    const again = await member.events(started.body.stream);
    expect((await next(again)).data).toMatchObject({
      status: 'completed',
      result: { fullReport: '' },
    });
    expect(await readText(again, '', TEXT)).toBe(TEXT);
    expect((await next(again)).event).toBe('done');
  });

  it('resumes a lost connection where it was (Last-Event-ID, or from=), repeating and losing nothing', async () => {
    const gate = pieceGate();
    script = { text: TEXT, before: gate.before };
    const { member } = await memberWith(server, 10);
    const started = await member.post('/api/readings/tarot-traditional/start', tarot);
    expect(started.status).toBe(202);
    expect(started.body.result.pastCardName).toEqual(expect.any(String));

    const first = await member.events(started.body.stream);
    expect((await next(first)).event).toBe('reading');
    gate.open(4);
    const had = await readText(first, '', PIECES.slice(0, 4).join(''));
    first.close();

    // Written while the reader was away.
    gate.open(8);
    const resumed = await member.events(started.body.stream, {
      'last-event-id': String(had.length),
    });
    expect((await next(resumed)).data).toMatchObject({
      status: 'writing',
      result: started.body.result,
    });
    const piece = await next(resumed);
    expect(piece.data.offset).toBe(had.length);
    let text = await readText(resumed, withPiece(had, piece.data), PIECES.slice(0, 8).join(''));

    // A fresh page (from=0) gets the text so far at once.
    const fresh = await member.events(`${started.body.stream}?from=0`);
    expect((await next(fresh)).event).toBe('reading');
    const sofar = await next(fresh);
    expect(sofar.data.offset).toBe(0);
    expect(PIECES.slice(0, 8).join('').startsWith(sofar.data.text)).toBe(true);

    gate.open();
    text = await readText(resumed, text, TEXT);
    expect((await next(resumed)).data.result.readingText).toBe(TEXT);
    expect(await readText(fresh, sofar.data.text, TEXT)).toBe(TEXT);
    expect((await next(fresh)).event).toBe('done');
  });

  it('refunds a reading whose stream breaks off half way, once, and tells its readers', async () => {
    const gate = pieceGate();
    script = { text: TEXT, before: gate.before, breakAfter: 5 };
    const { member, id } = await memberWith(server, 10);
    const started = await member.post('/api/readings/tarot-traditional/start', tarot);
    expect(started.status).toBe(202);
    expect(started.body.remainingCredits).toBe(6);
    const { readingId } = started.body;

    const stream = await member.events(started.body.stream);
    expect((await next(stream)).event).toBe('reading');
    gate.open(5);
    await readText(stream, '', PIECES.slice(0, 5).join(''));
    gate.open();
    const event = await next(stream);
    expect(event).toMatchObject({
      event: 'failed',
      data: {
        error: 'generation_failed',
        message: 'Failed to generate your reading. Please try again.',
        refunded: true,
      },
    });
    expect((await stream.events.next()).done).toBe(true);

    // The failure first, then the refund, then its settling; a later sweep finds nothing owed.
    expect(
      await recoverInterruptedReadings(server.deps.ledger, server.deps.read, server.deps.logger, 0),
    ).toBe(0);
    const events = await eventsOf(streams.reading(readingId));
    expect(events.map((e) => e.type)).toEqual([
      'ReadingRequested',
      'ReadingFailed',
      'ReadingRefundSettled',
    ]);
    const money = await spendsOf(id, readingId);
    expect(money.map((e) => e.type)).toEqual(['CreditsSpent', 'SpendRefunded']);
    expect(events[1]!.position).toBeLessThan(money[1]!.position);
    expect((await member.get('/api/me')).body.remainingCredits).toBe(10);
    // Opened again, the stream says the same.
    const again = await member.events(started.body.stream);
    expect((await next(again)).data).toMatchObject({ error: 'generation_failed', refunded: true });

    // The whole-result route refunds it the same way and answers 502.
    script = { text: TEXT, breakAfter: 5 };
    const whole = await member.post('/api/readings/tarot-traditional', tarot);
    expect(whole).toMatchObject({ status: 502, body: { error: 'generation_failed' } });
    expect((await member.get('/api/me')).body.remainingCredits).toBe(10);
    const history = (await member.get('/api/me/ledger')).body.items.map(
      (i: { type: string }) => i.type,
    );
    expect(history.filter((t: string) => t === 'SpendRefunded')).toHaveLength(2);
    expect(history.filter((t: string) => t === 'CreditsSpent')).toHaveLength(2);
  });

  it('still answers POST with 201 and the whole result, written by the streaming model', async () => {
    script = { text: TEXT };
    const { member } = await memberWith(server, 30);
    const answer = await member.post('/api/readings/natal-chart', natal);
    expect(answer.status).toBe(201);
    expect(answer.body).toMatchObject({ appId: 1, remainingCredits: 6 });
    expect(answer.body.result.fullReport).toBe(TEXT);
    expect(answer.body.result.chart.sun.name).toBe('Sun');
    expect(openAi.seen.at(-1)!.stream).toBe(true);
    expect((await member.get(`/api/readings/${answer.body.readingId}`)).body.result).toEqual(
      answer.body.result,
    );
  });

  it('keeps Idempotency-Key: a repeat is answered as the first, a re-run after a crash charges nothing again', async () => {
    script = { text: TEXT };
    const { member, id } = await memberWith(server, 10);
    const key = `stream-${crypto.randomUUID()}`;
    const first = await member.post('/api/readings/tarot-traditional/start', tarot, {
      'idempotency-key': key,
    });
    expect(first.status).toBe(202);
    const repeat = await member.post('/api/readings/tarot-traditional/start', tarot, {
      'idempotency-key': key,
    });
    expect(repeat.status).toBe(202);
    expect(repeat.headers.get('idempotent-replayed')).toBe('true');
    expect(repeat.body).toEqual(first.body);
    const stream = await member.events(first.body.stream);
    let event = await next(stream);
    while (event.event !== 'done') event = await next(stream);

    // A crash before the answer was stored: the retry (its lease over) runs the request again.
    await server.deps.appDb
      .deleteFrom('idempotency_keys')
      .where('key', '=', `${id}:${key}`)
      .execute();
    const rerun = await member.post('/api/readings/tarot-traditional/start', tarot, {
      'idempotency-key': key,
    });
    expect(rerun.status).toBe(202);
    expect(rerun.body).toEqual(first.body);
    const told = await member.events(rerun.body.stream);
    event = await next(told);
    while (event.event !== 'done') event = await next(told);
    expect(event.data.result.readingText).toBe(TEXT);
    expect((await spendsOf(id, first.body.readingId)).map((e) => e.type)).toEqual(['CreditsSpent']);
    expect(
      (await eventsOf(streams.reading(first.body.readingId))).filter(
        (e) => e.type === 'ReadingGenerated',
      ),
    ).toHaveLength(1);

    // The whole-result route likewise.
    const wholeKey = `whole-${crypto.randomUUID()}`;
    const whole = await member.post('/api/readings/tarot-traditional', tarot, {
      'idempotency-key': wholeKey,
    });
    const wholeAgain = await member.post('/api/readings/tarot-traditional', tarot, {
      'idempotency-key': wholeKey,
    });
    expect(whole.status).toBe(201);
    expect(wholeAgain.body).toEqual(whole.body);
    expect((await member.get('/api/me')).body.remainingCredits).toBe(2);
  });

  it("answers 404 for an unknown or someone else's reading, 400 for a bad from, 401 without a session", async () => {
    script = { text: TEXT };
    const { member } = await memberWith(server, 10);
    const started = await member.post('/api/readings/life-path/start', forms['life-path']);
    expect(started.status).toBe(202);
    expect(started.body.result).toMatchObject({ lifePathNumber: 5, text: '' });
    const { member: stranger } = await memberWith(server, 10);
    expect((await stranger.events(started.body.stream)).body).toMatchObject({
      error: 'not_found',
      message: 'Reading Not Found',
    });
    expect((await member.events(`/api/readings/${crypto.randomUUID()}/stream`)).status).toBe(404);
    expect((await member.events('/api/readings/not-a-reading/stream')).status).toBe(404);
    expect((await member.events(`${started.body.stream}?from=-1`)).status).toBe(400);
    expect((await server.client().events(started.body.stream)).status).toBe(401);
    const own = await member.events(started.body.stream);
    let event = await next(own);
    while (event.event !== 'done') event = await next(own);
  });

  describe.runIf(onPostgres)('with two API processes (PostgreSQL)', () => {
    it('a reader on the other process follows the text from the database to the end', async () => {
      const other = await startTestServer(
        {
          ...env(),
          DATABASE_URL: server.databaseUrl!,
          DATA_DIR: server.dataDir,
          PROJECTOR: 'external',
        },
        'postgres',
      );
      try {
        const gate = pieceGate();
        script = { text: TEXT, before: gate.before };
        const { member } = await memberWith(server, 10);
        const started = await member.post('/api/readings/tarot-traditional/start', tarot);
        expect(started.status).toBe(202);
        gate.open(5);

        // The same session, on the process that is not writing the reading.
        const elsewhere = new Client(other.url);
        elsewhere.cookie = member.cookie;
        const stream = await elsewhere.events(started.body.stream);
        expect((await next(stream)).data).toMatchObject({
          status: 'writing',
          result: started.body.result,
        });
        const sofar = await readText(stream, '', PIECES.slice(0, 5).join(''));
        gate.open();
        await readText(stream, sofar, TEXT);
        const done = await next(stream);
        expect(done.data.result.readingText).toBe(TEXT);
        expect(
          (await elsewhere.get(`/api/readings/${started.body.readingId}`)).body.result,
        ).toEqual(done.data.result);
      } finally {
        await other.close();
      }
    });
  });
});

describe('a server stopping while a reading is being written', () => {
  it('stops the writing at the shutdown timeout: the reading fails and is refunded, once', async () => {
    const gate = pieceGate();
    const openAi = await fakeOpenAi(() => ({ text: DOUBLE_TEXT, before: gate.before }));
    const dataDir = await mkdtemp(join(tmpdir(), 'astra-stream-stop-'));
    const env = {
      DATA_DIR: dataDir,
      OPENAI_API_KEY: 'sk-test',
      OPENAI_BASE_URL: openAi.url,
      OPENAI_MAX_RETRIES: '0',
      SHUTDOWN_TIMEOUT_MS: '300',
    };
    try {
      const server = await startTestServer(env, 'pglite');
      const { member, id } = await memberWith(server, 10);
      const started = await member.post('/api/readings/tarot-traditional/start', tarot);
      expect(started.status).toBe(202);
      const stream = await member.events(started.body.stream);
      expect((await next(stream)).event).toBe('reading');
      gate.open(2);
      await readText(stream, '', piecesOf(DOUBLE_TEXT).slice(0, 2).join(''));
      await server.close();
      // The reader's stream ended with the server (its EventSource would reconnect elsewhere).
      expect((await stream.events.next()).done).toBe(true);

      const again = await startTestServer(env, 'pglite');
      try {
        const types = [];
        for await (const event of again.deps.ledger.store.readStream(
          streams.reading(started.body.readingId),
        ))
          types.push(event.type);
        expect(types).toEqual(['ReadingRequested', 'ReadingFailed', 'ReadingRefundSettled']);
        expect((await again.deps.ledger.load('credits', id)).state.balance).toBe(10);
        const reader = new Client(again.url);
        reader.cookie = member.cookie;
        const after = await reader.events(started.body.stream);
        expect((await next(after)).data).toMatchObject({
          error: 'generation_failed',
          refunded: true,
        });
      } finally {
        await again.close();
      }
    } finally {
      openAi.close();
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
