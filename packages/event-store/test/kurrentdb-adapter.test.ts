/**
 * Adapter logic checks of the KurrentDB adapter against a FAKE of the client's interface: no
 * server runs here. They pin how the adapter reads the client's answers (append results,
 * `$all` pages, positions, data, closing). They are no substitute for the contract suite
 * against a real KurrentDB (`kurrentdb.test.ts`), which is what proves the adapter.
 */
import { randomUUID } from 'node:crypto';
import {
  type AppendResult as ClientAppendResult,
  type KurrentDBClient,
  StreamNotFoundError,
} from '@kurrent/kurrentdb-client';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  CommandHandler,
  connectPostgres,
  EncryptingEventStore,
  Keyring,
  type PersonalDataPolicy,
  WrongExpectedRevisionError,
} from '../src/index.ts';
import { KurrentDbEventStore } from '../src/kurrentdb/kurrentdb-event-store.ts';
import { pgliteTemplate } from '../src/testing.ts';

interface Stored {
  id: string;
  streamId: string;
  revision: bigint;
  type: string;
  data: unknown;
  metadata: unknown;
  created: Date;
  position: { commit: bigint; prepare: bigint } | undefined;
  isJson: true;
}

type Direction = 'forwards' | 'backwards';

/** A fake KurrentDB client: an in-memory log with the client's method shapes. */
class FakeClient {
  readonly log: Stored[] = [];
  readonly calls: string[] = [];
  /** What `appendToStream` answers instead of appending (a refusal under `throwOnAppendFailure=false`). */
  appendAnswer: ((stream: string) => ClientAppendResult) | undefined;
  /** Positions left out of append results and stream reads (a server that returns none). */
  positions: 'always' | 'never' | 'not-on-append' = 'always';
  readAllCalls = 0;
  channelClosed = 0;
  private nextCommit = 100n;

  async appendToStream(
    stream: string,
    events: { id: string; type: string; data: unknown; metadata: unknown }[],
  ): Promise<ClientAppendResult> {
    this.calls.push('appendToStream');
    if (this.appendAnswer) return this.appendAnswer(stream);
    let revision = this.revisionOf(stream) ?? -1n;
    let commit = 0n;
    for (const event of events) {
      commit = this.nextCommit;
      this.nextCommit += 10n;
      revision += 1n;
      this.log.push({
        id: event.id,
        streamId: stream,
        revision,
        type: event.type,
        // What goes over the wire: JSON text, parsed again on the way back.
        data: JSON.parse(JSON.stringify(event.data)),
        metadata: JSON.parse(JSON.stringify(event.metadata)),
        created: new Date(),
        position: { commit, prepare: commit },
        isJson: true,
      });
    }
    return {
      success: true,
      nextExpectedRevision: revision,
      position: this.positions === 'always' ? { commit, prepare: commit } : undefined,
    };
  }

  readStream(
    stream: string,
    {
      fromRevision = 'start',
      direction = 'forwards',
      maxCount = Number.MAX_SAFE_INTEGER,
    }: { fromRevision?: bigint | 'start' | 'end'; direction?: Direction; maxCount?: number } = {},
  ) {
    this.calls.push(`readStream ${direction}`);
    const events = this.log.filter((e) => e.streamId === stream);
    const withoutPositions = this.positions === 'never';
    return (async function* () {
      if (events.length === 0) throw new StreamNotFoundError(undefined, stream);
      const ordered = direction === 'forwards' ? events : [...events].reverse();
      let count = 0;
      for (const e of ordered) {
        if (count >= maxCount) return;
        if (typeof fromRevision === 'bigint') {
          if (direction === 'forwards' ? e.revision < fromRevision : e.revision > fromRevision)
            continue;
        }
        count++;
        yield { event: withoutPositions ? { ...e, position: undefined } : e };
      }
    })();
  }

  /** Whether a backwards read from an event's position returns that event (both are handled). */
  backwardsIncludesFrom = true;
  readonly filters: unknown[] = [];

  readAll({
    fromPosition = 'start',
    maxCount = Number.MAX_SAFE_INTEGER,
    direction = 'forwards',
    filter,
  }: {
    fromPosition?: { commit: bigint; prepare: bigint } | 'start' | 'end';
    maxCount?: number;
    direction?: Direction;
    filter?: { filterOn: 'eventType' | 'streamName'; regex?: string; prefixes?: string[] };
  } = {}) {
    this.calls.push(direction === 'forwards' ? 'readAll' : 'readAll backwards');
    this.filters.push(filter);
    // Guards the test against a reader that never advances.
    if (++this.readAllCalls > 50) throw new Error('fake: more than 50 readAll calls');
    // The server filters before it counts: `maxCount` events that match.
    const matches = (e: Stored) => {
      if (!filter) return true;
      const value = filter.filterOn === 'eventType' ? e.type : e.streamId;
      return filter.regex !== undefined
        ? new RegExp(filter.regex).test(value)
        : (filter.prefixes ?? []).some((prefix) => value.startsWith(prefix));
    };
    const commit = (e: Stored) => e.position!.commit;
    let page: Stored[];
    if (direction === 'forwards') {
      const from =
        fromPosition === 'start' ? -1n : fromPosition === 'end' ? 1n << 62n : fromPosition.commit;
      // Reads are inclusive: an event at exactly `fromPosition` is returned again.
      page = this.log.filter((e) => commit(e) >= from && matches(e));
    } else {
      const from =
        fromPosition === 'end' ? 1n << 62n : fromPosition === 'start' ? -1n : fromPosition.commit;
      page = this.log
        .filter((e) => (this.backwardsIncludesFrom ? commit(e) <= from : commit(e) < from))
        .filter(matches)
        .reverse();
    }
    page = page.slice(0, maxCount);
    return (async function* () {
      for (const e of page) yield { event: e };
    })();
  }

  async dispose() {
    this.calls.push('dispose');
  }

  /** The client's (protected) channel; the adapter closes it once it has been used. */
  async getChannel() {
    this.calls.push('getChannel');
    return {
      close: () => {
        this.channelClosed++;
      },
    };
  }

  revisionOf(stream: string) {
    return this.log.filter((e) => e.streamId === stream).at(-1)?.revision;
  }
}

const storeOn = (fake: FakeClient) => new KurrentDbEventStore(fake as unknown as KurrentDBClient);

const collect = async <T>(iterable: AsyncIterable<T>) => {
  const items: T[] = [];
  for await (const item of iterable) items.push(item);
  return items;
};

/**
 * A policy shaped as the contracts' `personalData` (this package does not depend on them): the
 * user's stream names its subject, a reading's event names it in `metadata.subject`.
 */
const policy: PersonalDataPolicy = {
  fields: new Map([
    [
      'UserRegistered',
      new Map<string, unknown>([
        ['email', ''],
        ['fullName', null],
      ]),
    ],
    [
      'ReadingRequested',
      new Map<string, unknown>([
        ['input', {}],
        ['question', null],
      ]),
    ],
  ]),
  subjectOf: (stream, _data, metadata) =>
    typeof metadata?.subject === 'string'
      ? metadata.subject
      : (/^user-(.+)$/.exec(stream)?.[1] ?? null),
};

describe('KurrentDB adapter logic, against a fake client (no server)', () => {
  it('throws WrongExpectedRevisionError, with the actual revision read back, when the append result says success: false', async () => {
    const fake = new FakeClient();
    const store = storeOn(fake);
    const stream = `credits-${randomUUID()}`;
    await store.append(
      stream,
      [
        { type: 'A', data: {} },
        { type: 'B', data: {} },
      ],
      {
        expected: 'no_stream',
      },
    );
    // `throwOnAppendFailure=false`: a conflict resolves. The batch-append path even reports a
    // meaningless revision (`BigInt(hasCurrentStreamRevision())`), so it is not trusted.
    fake.appendAnswer = () => ({ success: false, nextExpectedRevision: 0n, position: undefined });

    const refused = await store
      .append(stream, [{ type: 'C', data: {} }], { expected: 0n })
      .catch((e) => e);
    expect(refused).toBeInstanceOf(WrongExpectedRevisionError);
    expect(refused).toMatchObject({ stream, expected: 0n, actual: 1n });

    const missing = await store
      .append(`credits-${randomUUID()}`, [{ type: 'C', data: {} }], { expected: 'stream_exists' })
      .catch((e) => e);
    expect(missing).toMatchObject({ name: 'WrongExpectedRevisionError', actual: 'no_stream' });
  });

  it('a refused append is never cached by the command handler as if it had been written', async () => {
    const fake = new FakeClient();
    const store = storeOn(fake);
    const stream = `counter-${randomUUID()}`;
    const handler = new CommandHandler<number, { type: 'Added'; data: { n: number } }>(
      store,
      { initialState: () => 0, evolve: (total, e) => total + e.data.n },
      {
        retries: 0,
        decode: ({ data }) => ({ type: 'Added', data: z.object({ n: z.number() }).parse(data) }),
      },
    );
    await handler.handle(stream, () => [{ type: 'Added', data: { n: 1 } }], {});
    fake.appendAnswer = () => ({ success: false, nextExpectedRevision: 5n, position: undefined });

    const outcome = await handler
      .handle(stream, () => [{ type: 'Added', data: { n: 1 } }], {})
      .catch((e) => e);
    expect(outcome).toMatchObject({ name: 'ConcurrencyError' });
    fake.appendAnswer = undefined;
    expect((await handler.load(stream)).state).toBe(1);
  });

  it('readAll advances with batch: 1 and fills every page after the first with new events', async () => {
    const fake = new FakeClient();
    const store = storeOn(fake);
    for (let i = 0; i < 5; i++) {
      await store.append(`s-${randomUUID()}`, [{ type: `E${i}`, data: { i } }], {
        expected: 'no_stream',
      });
    }
    const one = await collect(store.readAll({ batch: 1 }));
    expect(one.map((e) => e.type)).toEqual(['E0', 'E1', 'E2', 'E3', 'E4']);

    fake.readAllCalls = 0;
    const two = await collect(store.readAll({ batch: 2 }));
    expect(two.map((e) => e.type)).toEqual(['E0', 'E1', 'E2', 'E3', 'E4']);
    // Pages of two new events each: [E0 E1] [E2 E3] [E4]; the re-read boundary costs no slot.
    expect(fake.readAllCalls).toBe(3);

    fake.readAllCalls = 0;
    const resumed = await collect(store.readAll({ from: one[1]!.position, batch: 1 }));
    expect(resumed.map((e) => e.type)).toEqual(['E2', 'E3', 'E4']);
  });

  it('readAll filters on the server by type (exactly) or by stream prefix, the other here', async () => {
    const fake = new FakeClient();
    const store = storeOn(fake);
    const a = `credits-${randomUUID()}`;
    const b = `user-${randomUUID()}`;
    await store.append(a, [{ type: 'Spent', data: {} }], { expected: 'no_stream' });
    await store.append(b, [{ type: 'Spent', data: {} }], { expected: 'no_stream' });
    await store.append(a, [{ type: 'SpentMore', data: {} }], { expected: 0n });
    await store.append(`$$${a}`, [{ type: '$metadata', data: {} }], { expected: 'any' });
    await store.append(a, [{ type: 'Sp.nt', data: {} }], { expected: 1n });
    await store.append(a, [{ type: 'Spent', data: {} }], { expected: 2n });
    const shown = (events: { stream: string; type: string }[]) =>
      events.map((e) => `${e.stream === a ? 'a' : e.stream === b ? 'b' : e.stream} ${e.type}`);

    for (const batch of [1, 2, 100]) {
      fake.readAllCalls = 0;
      // A type is matched whole and literally: `Spent` is not `SpentMore`, `Sp.nt` is no pattern.
      expect(shown(await collect(store.readAll({ batch, filter: { types: ['Spent'] } })))).toEqual([
        'a Spent',
        'b Spent',
        'a Spent',
      ]);
      expect(
        shown(
          await collect(
            store.readAll({ batch, filter: { types: ['Spent'], streamPrefixes: ['credits-'] } }),
          ),
        ),
      ).toEqual(['a Spent', 'a Spent']);
      expect(shown(await collect(store.readAll({ batch, filter: { types: ['Sp.nt'] } })))).toEqual([
        'a Sp.nt',
      ]);
      // Stream prefixes alone: the server's filter; system events stay out.
      expect(
        shown(
          await collect(store.readAll({ batch, filter: { streamPrefixes: ['credits-', '$$'] } })),
        ),
      ).toEqual(['a Spent', 'a SpentMore', 'a Sp.nt', 'a Spent']);
    }
    expect(fake.filters.at(-1)).toMatchObject({
      filterOn: 'streamName',
      prefixes: ['credits-', '$$'],
    });
    await collect(store.readAll({ filter: { types: ['Sp.nt', 'A|B'] } }));
    expect(fake.filters.at(-1)).toMatchObject({
      filterOn: 'eventType',
      regex: '^(?:Sp\\.nt|A\\|B)$',
    });
    await collect(store.readAll());
    expect(fake.filters.at(-1)).toMatchObject({ filterOn: 'eventType', regex: '^[^$].*' });
  });

  it('readAll backwards pages newest first before a position, whether or not the server repeats it', async () => {
    for (const includes of [true, false]) {
      const fake = new FakeClient();
      fake.backwardsIncludesFrom = includes;
      const store = storeOn(fake);
      for (let i = 0; i < 5; i++) {
        await store.append(`s-${randomUUID()}`, [{ type: i % 2 ? 'Odd' : 'Even', data: { i } }], {
          expected: 'no_stream',
        });
      }
      const newestFirst = fake.log
        .map((e) => e.type + String((e.data as { i: number }).i))
        .reverse();
      const label = (e: { type: string; data: unknown }) =>
        e.type + String((e.data as { i: number }).i);
      for (const batch of [1, 2, 100]) {
        fake.readAllCalls = 0;
        const all = await collect(store.readAll({ direction: 'backwards', batch }));
        expect(all.map(label), `batch ${batch}`).toEqual(newestFirst);
        const before = await collect(
          store.readAll({ direction: 'backwards', batch, from: all[1]!.position }),
        );
        expect(before.map(label)).toEqual(newestFirst.slice(2));
        const evens = await collect(
          store.readAll({ direction: 'backwards', batch, filter: { types: ['Even'] } }),
        );
        expect(evens.map(label)).toEqual(['Even4', 'Even2', 'Even0']);
      }
      expect(await collect(store.readAll({ direction: 'backwards', from: 0n }))).toEqual([]);
    }
  });

  it('never returns a made-up position: reads it back when the append result has none', async () => {
    const fake = new FakeClient();
    fake.positions = 'not-on-append';
    const store = storeOn(fake);
    const stream = `credits-${randomUUID()}`;
    const result = await store.append(stream, [{ type: 'A', data: {} }], {
      expected: 'no_stream',
    });
    expect(result.position).toBe(fake.log.at(-1)!.position!.commit);
    expect(result.position).toBeGreaterThan(0n);
  });

  it('fails loudly when the server gives no log position at all', async () => {
    const fake = new FakeClient();
    fake.positions = 'never';
    const store = storeOn(fake);
    const stream = `credits-${randomUUID()}`;
    await expect(
      store.append(stream, [{ type: 'A', data: {} }], { expected: 'no_stream' }),
    ).rejects.toThrow(/position/);
    await expect(collect(store.readStream(stream))).rejects.toThrow(/position/);
  });

  it('round-trips null, arrays, strings and missing data exactly as PostgreSQL does', async () => {
    const store = storeOn(new FakeClient());
    const stream = `data-${randomUUID()}`;
    await store.append(
      stream,
      [
        { type: 'Null', data: null },
        { type: 'Missing', data: undefined },
        { type: 'Array', data: [1, 2] },
        { type: 'Text', data: 'x' },
        { type: 'Empty', data: {} },
      ],
      { expected: 'no_stream' },
    );
    const read = await collect(store.readStream(stream));
    expect(read.map((e) => e.data)).toEqual([null, null, [1, 2], 'x', {}]);
  });

  it('close() disposes the client and closes the gRPC channel it used, once', async () => {
    const fake = new FakeClient();
    const store = storeOn(fake);
    await store.append(`s-${randomUUID()}`, [{ type: 'A', data: {} }], { expected: 'any' });
    await store.close();
    await store.close();
    expect(fake.calls.filter((c) => c === 'dispose')).toHaveLength(1);
    expect(fake.channelClosed).toBe(1);

    // A store that never spoke gRPC opens no channel just to close it.
    const unused = new FakeClient();
    await storeOn(unused).close();
    expect(unused.calls).toEqual(['dispose']);
  });

  it('encrypts personal fields through the EncryptingEventStore: none in clear in the log, read back, erased once the key is destroyed', async () => {
    const connection = await connectPostgres({ dataDir: null, template: await pgliteTemplate() });
    try {
      const keyring = await Keyring.open(connection.sql, 'kurrentdb adapter test secret', {
        logHasEvents: async () => false,
      });
      const fake = new FakeClient();
      const store = new EncryptingEventStore(storeOn(fake), keyring, policy);
      const subject = randomUUID();
      const other = randomUUID();
      const personal = {
        email: `zoë.o'brien+${subject}@example.com`,
        fullName: `Zoë "Ô" O'Brien ${subject}`,
        question: `Will my secret affair with Bruno stay hidden? ${subject}`,
        input: { firstName: `Zoë ${subject}`, person2: { firstName: `Bruno ${subject}` } },
      };
      await store.append(
        `user-${subject}`,
        [
          {
            type: 'UserRegistered',
            data: { userId: subject, email: personal.email, fullName: personal.fullName },
          },
        ],
        { expected: 'no_stream' },
      );
      await store.append(
        `reading-${other}`,
        [
          {
            type: 'ReadingRequested',
            data: {
              readingId: other,
              kind: 'tarot',
              question: personal.question,
              input: personal.input,
            },
            metadata: { subject },
          },
        ],
        { expected: 'no_stream' },
      );
      await store.append(
        `user-${other}`,
        [
          {
            type: 'UserRegistered',
            data: { userId: other, email: `kept-${other}@example.com`, fullName: 'Kept' },
          },
        ],
        { expected: 'no_stream' },
      );

      // What the KurrentDB client was given holds none of it, in any form.
      const written = JSON.stringify(fake.log.map((e) => [e.data, e.metadata]));
      for (const value of [
        personal.email,
        personal.fullName,
        personal.question,
        `Bruno ${subject}`,
      ]) {
        for (const form of [value, value.toLowerCase(), JSON.stringify(value).slice(1, -1)])
          expect(written).not.toContain(form);
      }
      expect(fake.log[0]!.data).toEqual({
        userId: subject,
        $pd: { s: subject, f: ['email', 'fullName'], v: expect.any(String) },
      });
      expect(fake.log[1]!.data).toMatchObject({
        kind: 'tarot',
        $pd: { s: subject, f: ['input', 'question'], v: expect.any(String) },
      });

      const read = async () => ({
        user: await collect(store.readStream(`user-${subject}`)),
        reading: await collect(store.readStream(`reading-${other}`)),
        all: await collect(store.readAll()),
      });
      const before = await read();
      expect(before.user[0]).toMatchObject({
        data: { userId: subject, email: personal.email, fullName: personal.fullName },
      });
      expect(before.user[0]!.erased).toBeUndefined();
      expect(before.reading[0]!.data).toEqual({
        readingId: other,
        kind: 'tarot',
        question: personal.question,
        input: personal.input,
      });
      expect(before.all.map((e) => e.data)).toEqual([
        before.user[0]!.data,
        before.reading[0]!.data,
        { userId: other, email: `kept-${other}@example.com`, fullName: 'Kept' },
      ]);

      await keyring.destroy(subject);
      const after = await read();
      expect(after.user[0]).toMatchObject({
        data: { userId: subject, email: '', fullName: null },
        erased: true,
      });
      expect(after.reading[0]).toMatchObject({
        data: { readingId: other, kind: 'tarot', question: null, input: {} },
        erased: true,
      });
      // Everyone else's data reads as it was.
      expect(after.all[2]).toMatchObject({ data: { fullName: 'Kept' } });
      expect(after.all[2]!.erased).toBeUndefined();
      // Nothing new is written under a destroyed key: the value is sealed empty.
      await store.append(
        `user-${subject}`,
        [
          {
            type: 'UserRegistered',
            data: { userId: subject, email: personal.email, fullName: 'x' },
          },
        ],
        { expected: 0n },
      );
      expect(JSON.stringify(fake.log.at(-1)!.data)).not.toContain(personal.email);
      expect((await collect(store.readStream(`user-${subject}`)))[1]).toMatchObject({
        data: { email: '' },
        erased: true,
      });
    } finally {
      await connection.close();
    }
  });
});
