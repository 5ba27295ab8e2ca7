/**
 * The one contract every EventStore adapter passes. Each adapter's test file calls
 * `eventStoreContract` with a factory for a fresh, empty store.
 */
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import {
  type EventStore,
  type ExpectedRevision,
  isWrongExpectedRevision,
  type NewEvent,
  type RecordedEvent,
  WrongExpectedRevisionError,
} from '../src/index.ts';

export interface ContractSubject {
  store: EventStore;
  /**
   * Appends inside an explicit transaction and runs `hold` before committing (or rolling back),
   * so a test can keep a transaction open while others commit. Absent where the store has no
   * client-side transactions (KurrentDB).
   */
  appendInTransaction?: (
    stream: string,
    events: NewEvent[],
    expected: ExpectedRevision,
    hold: () => Promise<void>,
    outcome: 'commit' | 'rollback',
  ) => Promise<void>;
  dispose(): Promise<void>;
}

export interface ContractOptions {
  /** Writers × appends for the late-commit test (8 × 1,000 by the issue). */
  writers?: number;
  appendsPerWriter?: number;
  maxHoldMs?: number;
  timeoutMs?: number;
  /** The store leaves out what `elideFrom` allows (else it may send every event whole). */
  elides?: boolean;
}

const event = (type: string, data: unknown = {}): NewEvent => ({
  id: randomUUID(),
  type,
  data,
  metadata: { correlationId: 'c-1' },
});

const collect = async <T>(iterable: AsyncIterable<T>) => {
  const items: T[] = [];
  for await (const item of iterable) items.push(item);
  return items;
};

/**
 * Waits until readers of the log see `position`: PostgreSQL's stop below transactions still
 * open anywhere on the server (other tests' too), so an event just appended can be a moment away.
 */
const visible = async (store: EventStore, position: bigint) => {
  const deadline = Date.now() + 10_000;
  for (;;) {
    for await (const newest of store.readAll({ direction: 'backwards', batch: 1 })) {
      if (newest.position >= position) return;
      break;
    }
    if (Date.now() > deadline) throw new Error(`position ${position} never became visible`);
    await sleep(5);
  }
};

export function eventStoreContract(
  name: string,
  open: () => Promise<ContractSubject>,
  options: ContractOptions = {},
) {
  const { writers = 8, appendsPerWriter = 1000, maxHoldMs = 3, timeoutMs = 120_000 } = options;

  describe(`EventStore contract: ${name}`, () => {
    let subject: ContractSubject | undefined;
    const fresh = async () => {
      subject = await open();
      return subject;
    };
    afterEach(async () => {
      await subject?.dispose();
      subject = undefined;
    });
    // Streams are unique per test, so a shared store (KurrentDB) cannot leak between tests.
    const streamName = (prefix: string) => `${prefix}-${randomUUID()}`;

    it('appends and reads a stream back with revisions from 0, ids, data and metadata', async () => {
      const { store } = await fresh();
      const stream = streamName('credits');
      const events = [event('Opened', { userId: 'u1' }), event('Granted', { amount: 10 })];
      const result = await store.append(stream, events, { expected: 'no_stream' });
      expect(result.nextRevision).toBe(1n);

      const read = await collect(store.readStream(stream));
      expect(read.map((e) => [e.id, e.type, e.revision, e.data, e.metadata])).toEqual([
        [events[0]!.id, 'Opened', 0n, { userId: 'u1' }, { correlationId: 'c-1' }],
        [events[1]!.id, 'Granted', 1n, { amount: 10 }, { correlationId: 'c-1' }],
      ]);
      expect(read.every((e) => e.stream === stream && e.recordedAt instanceof Date)).toBe(true);
      expect(read[1]!.position).toBe(result.position);
      expect(read[0]!.position < read[1]!.position).toBe(true);

      const fromOne = await collect(store.readStream(stream, { from: 1n }));
      expect(fromOne.map((e) => e.revision)).toEqual([1n]);
      expect(await collect(store.readStream(streamName('missing')))).toEqual([]);
    });

    it('refuses a wrong expected revision with a typed conflict naming the actual revision', async () => {
      const { store } = await fresh();
      const stream = streamName('credits');
      await store.append(stream, [event('A'), event('B')], { expected: 'no_stream' });

      const stale = await store.append(stream, [event('C')], { expected: 0n }).catch((e) => e);
      expect(stale).toBeInstanceOf(WrongExpectedRevisionError);
      expect(stale).toMatchObject({ stream, expected: 0n, actual: 1n });

      const ahead = await store.append(stream, [event('C')], { expected: 5n }).catch((e) => e);
      expect(isWrongExpectedRevision(ahead)).toBe(true);

      const again = await store
        .append(stream, [event('C')], { expected: 'no_stream' })
        .catch((e) => e);
      expect(isWrongExpectedRevision(again)).toBe(true);

      const missing = streamName('missing');
      const exists = await store
        .append(missing, [event('X')], { expected: 'stream_exists' })
        .catch((e) => e);
      expect(exists).toMatchObject({ actual: 'no_stream' });
      const behind = await store.append(missing, [event('X')], { expected: 0n }).catch((e) => e);
      expect(isWrongExpectedRevision(behind)).toBe(true);

      expect((await store.append(stream, [event('C')], { expected: 1n })).nextRevision).toBe(2n);
      expect((await store.append(stream, [event('D')], { expected: 'any' })).nextRevision).toBe(3n);
      expect(
        (await store.append(stream, [event('E')], { expected: 'stream_exists' })).nextRevision,
      ).toBe(4n);
      expect((await collect(store.readStream(stream))).map((e) => e.type)).toEqual([
        'A',
        'B',
        'C',
        'D',
        'E',
      ]);
      expect((await collect(store.readStream(missing))).length).toBe(0);
    });

    it('lets exactly one of 50 concurrent appends at one expected revision win', async () => {
      const { store } = await fresh();
      const stream = streamName('credits');
      await store.append(stream, [event('Opened')], { expected: 'no_stream' });

      const outcomes = await Promise.allSettled(
        Array.from({ length: 50 }, (_, i) =>
          store.append(stream, [event('Spent', { i })], { expected: 0n }),
        ),
      );
      const won = outcomes.filter((o) => o.status === 'fulfilled');
      const lost = outcomes.filter((o): o is PromiseRejectedResult => o.status === 'rejected');
      expect(won).toHaveLength(1);
      expect(lost).toHaveLength(49);
      expect(lost.every((o) => o.reason instanceof WrongExpectedRevisionError)).toBe(true);
      expect((await collect(store.readStream(stream))).map((e) => e.revision)).toEqual([0n, 1n]);
    });

    it('creates a stream with no_stream exactly once under 50 concurrent claims', async () => {
      const { store } = await fresh();
      const stream = streamName('free-allotment');
      const outcomes = await Promise.allSettled(
        Array.from({ length: 50 }, (_, i) =>
          store.append(stream, [event('Claimed', { by: i })], { expected: 'no_stream' }),
        ),
      );
      expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(1);
      expect(
        outcomes.every(
          (o) => o.status === 'fulfilled' || o.reason instanceof WrongExpectedRevisionError,
        ),
      ).toBe(true);
      expect(await collect(store.readStream(stream))).toHaveLength(1);
    });

    it('keeps every concurrent `any` append, in revision order', async () => {
      const { store } = await fresh();
      const stream = streamName('log');
      await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          store.append(stream, [event('Line', { i })], { expected: 'any' }),
        ),
      );
      const read = await collect(store.readStream(stream));
      expect(read.map((e) => e.revision)).toEqual(Array.from({ length: 20 }, (_, i) => BigInt(i)));
    });

    it('reads all streams in one global order and resumes after a position', async () => {
      const { store } = await fresh();
      const a = streamName('a');
      const b = streamName('b');
      const mine = new Set([a, b]);
      await store.append(a, [event('A1'), event('A2')], { expected: 'no_stream' });
      const middle = await store.append(b, [event('B1')], { expected: 'no_stream' });
      await store.append(a, [event('A3')], { expected: 1n });

      const all = (await collect(store.readAll({ batch: 2 }))).filter((e) => mine.has(e.stream));
      expect(all.map((e) => e.type)).toEqual(['A1', 'A2', 'B1', 'A3']);
      expect(all.every((e, i) => i === 0 || all[i - 1]!.position < e.position)).toBe(true);

      const resumed = (await collect(store.readAll({ from: middle.position }))).filter((e) =>
        mine.has(e.stream),
      );
      expect(resumed.map((e) => e.type)).toEqual(['A3']);
    });

    it('filters the global log by stream prefix and by type, keeping global positions', async () => {
      const { store } = await fresh();
      // Names of this test only: the store may hold other tests' events.
      const tag = randomUUID().replace(/-/g, '');
      const credits = `${tag}credits-`;
      const a = `${credits}${randomUUID()}`;
      const b = `${credits}${randomUUID()}`;
      const user = `${tag}user-${randomUUID()}`;
      // Not under `${tag}credits-`: a prefix is no pattern (`_` and `%` are plain characters).
      const lookalike = `${tag}credits_${randomUUID()}`;
      const percent = `${tag}cred%ts-${randomUUID()}`;
      const [opened, granted, spent] = [`Opened${tag}`, `Granted${tag}`, `Spent${tag}`];
      await store.append(a, [event(opened), event(granted)], { expected: 'no_stream' });
      await store.append(user, [event(`Registered${tag}`)], { expected: 'no_stream' });
      await store.append(lookalike, [event(granted)], { expected: 'no_stream' });
      await store.append(b, [event(opened)], { expected: 'no_stream' });
      await store.append(percent, [event(spent)], { expected: 'no_stream' });
      await store.append(a, [event(spent)], { expected: 1n });
      await visible(
        store,
        (await store.append(b, [event(granted), event(spent)], { expected: 0n })).position,
      );

      const everything = (await collect(store.readAll())).filter((e) => e.stream.startsWith(tag));
      const positionOf = new Map(everything.map((e) => [e.id, e.position]));
      const expected = (keep: (e: RecordedEvent) => boolean) =>
        everything.filter(keep).map((e) => [e.stream, e.type]);
      const shown = (events: RecordedEvent[]) => events.map((e) => [e.stream, e.type]);
      const inCredits = (e: RecordedEvent) => e.stream.startsWith(credits);

      for (const batch of [1, 2, 1000]) {
        const byStream = await collect(
          store.readAll({ batch, filter: { streamPrefixes: [credits] } }),
        );
        expect(shown(byStream), `batch ${batch}`).toEqual(expected(inCredits));
        expect(byStream.every((e) => positionOf.get(e.id) === e.position)).toBe(true);

        const byType = await collect(store.readAll({ batch, filter: { types: [granted, spent] } }));
        expect(shown(byType), `batch ${batch}`).toEqual(
          expected((e) => e.type === granted || e.type === spent),
        );
        expect(byType.every((e) => positionOf.get(e.id) === e.position)).toBe(true);

        const both = await collect(
          store.readAll({ batch, filter: { streamPrefixes: [credits], types: [granted, spent] } }),
        );
        expect(shown(both), `batch ${batch}`).toEqual(
          expected((e) => inCredits(e) && (e.type === granted || e.type === spent)),
        );
      }

      // One stream is a prefix too; several prefixes; resuming after a position of the filter.
      expect(shown(await collect(store.readAll({ filter: { streamPrefixes: [a] } })))).toEqual([
        [a, opened],
        [a, granted],
        [a, spent],
      ]);
      const several = await collect(
        store.readAll({ filter: { streamPrefixes: [`${tag}user-`, percent, lookalike] } }),
      );
      expect(shown(several)).toEqual(
        expected((e) => e.stream === user || e.stream === percent || e.stream === lookalike),
      );
      const spends = await collect(store.readAll({ filter: { types: [spent] } }));
      expect(spends).toHaveLength(3);
      const afterFirst = await collect(
        store.readAll({ from: spends[0]!.position, batch: 1, filter: { types: [spent] } }),
      );
      expect(afterFirst.map((e) => e.id)).toEqual(spends.slice(1).map((e) => e.id));
      // Empty lists do not filter; a type nobody wrote reads nothing.
      const unfiltered = await collect(
        store.readAll({
          from: everything[0]!.position - 1n,
          filter: { types: [], streamPrefixes: [] },
        }),
      );
      expect(shown(unfiltered.filter((e) => e.stream.startsWith(tag)))).toEqual(
        expected(() => true),
      );
      expect(await collect(store.readAll({ filter: { types: [`Never${tag}`] } }))).toEqual([]);
    });

    it('reads every event with `elideFrom`, leaving out only the data of events that happened at or after it', async () => {
      const { store } = await fresh();
      const tag = `e${randomUUID().slice(0, 8)}`;
      const stream = `${tag}credits-${randomUUID()}`;
      const other = `${tag}user-${randomUUID()}`;
      const at = (occurredAt: unknown, data: unknown = { n: 1 }) => ({
        ...event(`Happened${tag}`, data),
        metadata: { occurredAt },
      });
      const cut = '2026-04-01T00:00:00.000Z';
      const written = [
        at('2026-03-31T23:59:59.999Z'),
        at(cut),
        at('2026-03-15T00:00:00.000Z'), // earlier again: whole
        at('2026-05-01T00:00:00.000Z'),
        at('2026-05-01T02:00:00+02:00'), // another form: whole, whatever instant it is
        at(null),
        { ...event(`Happened${tag}`), metadata: {} },
      ];
      await store.append(stream, written.slice(0, 4), { expected: 'no_stream' });
      const { position } = await store.append(other, written.slice(4), { expected: 'no_stream' });
      await visible(store, position);
      const later = new Set([written[1]!.id, written[3]!.id]);

      for (const batch of [1, 3, 1000]) {
        const read = (await collect(store.readAll({ batch, elideFrom: cut }))).filter((e) =>
          e.stream.startsWith(tag),
        );
        expect(
          read.map((e) => e.id),
          `batch ${batch}`,
        ).toEqual(written.map((e) => e.id));
        for (const [i, e] of read.entries()) {
          if (e.elided) {
            expect(later.has(e.id)).toBe(true);
            expect([e.data, e.metadata]).toEqual([null, {}]);
          } else {
            expect([e.data, e.metadata]).toEqual([written[i]!.data, written[i]!.metadata]);
          }
        }
        if (options.elides) {
          expect(read.filter((e) => e.elided).map((e) => e.id)).toEqual([...later]);
        }
        // With a filter too (types and prefixes): other streams are left out, the rest as without it.
        const filtered = await collect(
          store.readAll({
            batch,
            elideFrom: cut,
            filter: { streamPrefixes: [stream], types: [`Happened${tag}`, `Never${tag}`] },
          }),
        );
        expect(filtered.map((e) => [e.id, e.elided ?? false])).toEqual(
          read.filter((e) => e.stream === stream).map((e) => [e.id, e.elided ?? false]),
        );
      }
    });

    it('reads the global log backwards, newest first, before a position, filtered or not', async () => {
      const { store } = await fresh();
      const tag = randomUUID().replace(/-/g, '');
      const a = `${tag}a-${randomUUID()}`;
      const b = `${tag}b-${randomUUID()}`;
      const [one, two] = [`One${tag}`, `Two${tag}`];
      await store.append(a, [event(one), event(two)], { expected: 'no_stream' });
      await store.append(b, [event(one)], { expected: 'no_stream' });
      await store.append(a, [event(one)], { expected: 1n });
      await visible(
        store,
        (await store.append(b, [event(two), event(two)], { expected: 0n })).position,
      );
      const forwards = (await collect(store.readAll({ filter: { streamPrefixes: [tag] } }))).map(
        (e) => [e.id, e.position] as const,
      );
      expect(forwards).toHaveLength(6);
      const newestFirst = [...forwards].reverse();

      for (const batch of [1, 2, 1000]) {
        // Unfiltered: the newest events of the log are these (nothing was appended since).
        const latest: RecordedEvent[] = [];
        for await (const e of store.readAll({ direction: 'backwards', batch })) {
          if (e.stream.startsWith(tag)) latest.push(e);
          if (latest.length === newestFirst.length) break;
        }
        expect(
          latest.map((e) => [e.id, e.position]),
          `batch ${batch}`,
        ).toEqual(newestFirst);

        const mine = await collect(
          store.readAll({ direction: 'backwards', batch, filter: { streamPrefixes: [tag] } }),
        );
        expect(mine.map((e) => [e.id, e.position])).toEqual(newestFirst);

        // `from` is exclusive: events before it.
        const before = await collect(
          store.readAll({
            direction: 'backwards',
            from: newestFirst[2]![1],
            batch,
            filter: { streamPrefixes: [tag] },
          }),
        );
        expect(before.map((e) => e.id)).toEqual(newestFirst.slice(3).map(([id]) => id));

        const twos = await collect(
          store.readAll({ direction: 'backwards', batch, filter: { types: [two] } }),
        );
        expect(twos.map((e) => [e.stream, e.type])).toEqual([
          [b, two],
          [b, two],
          [a, two],
        ]);
        const onesOfB = await collect(
          store.readAll({
            direction: 'backwards',
            batch,
            filter: { types: [one], streamPrefixes: [b] },
          }),
        );
        expect(onesOfB.map((e) => [e.stream, e.type, e.revision])).toEqual([[b, one, 0n]]);
      }
      expect(
        await collect(
          store.readAll({ direction: 'backwards', from: 0n, filter: { streamPrefixes: [tag] } }),
        ),
      ).toEqual([]);
    });

    it('subscribes: catches up, then delivers live appends, and resumes from a checkpoint', async () => {
      const { store } = await fresh();
      const stream = streamName('live');
      const first = await store.append(stream, [event('E0'), event('E1')], {
        expected: 'no_stream',
      });

      const controller = new AbortController();
      const seen: RecordedEvent[] = [];
      const consumed = (async () => {
        for await (const e of store.subscribeAll({ signal: controller.signal })) {
          if (e.stream !== stream) continue;
          seen.push(e);
          if (seen.length === 4) controller.abort();
        }
      })();
      await sleep(50);
      await store.append(stream, [event('E2')], { expected: first.nextRevision });
      await store.append(stream, [event('E3')], { expected: first.nextRevision + 1n });
      await consumed;
      expect(seen.map((e) => e.type)).toEqual(['E0', 'E1', 'E2', 'E3']);

      const resumed: string[] = [];
      const resume = new AbortController();
      for await (const e of store.subscribeAll({
        from: seen[1]!.position,
        signal: resume.signal,
      })) {
        if (e.stream !== stream) continue;
        resumed.push(e.type);
        if (resumed.length === 2) resume.abort();
      }
      expect(resumed).toEqual(['E2', 'E3']);
    });

    it(
      `never skips an event committed late: ${writers} writers × ${appendsPerWriter} appends`,
      async () => {
        const { store, appendInTransaction } = await fresh();
        const prefix = `race-${randomUUID()}`;
        const committed = new Set<string>();
        const seen: RecordedEvent[] = [];
        const controller = new AbortController();
        let writing = true;

        const subscriber = (async () => {
          for await (const e of store.subscribeAll({ signal: controller.signal })) {
            if (!e.stream.startsWith(prefix)) continue;
            seen.push(e);
            if (!writing && seen.length >= committed.size) controller.abort();
          }
        })();

        const writer = async (w: number) => {
          for (let i = 0; i < appendsPerWriter; i++) {
            const e = event('Written', { w, i });
            const stream = `${prefix}-${w}-${i % 10}`;
            const hold = () =>
              maxHoldMs > 0
                ? sleep(Math.random() * maxHoldMs)
                : new Promise<void>((r) => setImmediate(r));
            // Roughly one transaction in twenty rolls back: its event must never appear.
            const outcome = Math.random() < 0.05 ? 'rollback' : 'commit';
            if (appendInTransaction) {
              await appendInTransaction(stream, [e], 'any', hold, outcome);
              if (outcome === 'commit') committed.add(e.id!);
            } else {
              await hold();
              await store.append(stream, [e], { expected: 'any' });
              committed.add(e.id!);
            }
          }
        };
        await Promise.all(Array.from({ length: writers }, (_, w) => writer(w)));
        writing = false;
        // The subscriber may already hold everything; otherwise it stops on the last event.
        if (seen.length >= committed.size) controller.abort();
        const deadline = setTimeout(() => controller.abort(), 30_000);
        await subscriber;
        clearTimeout(deadline);

        const ids = seen.map((e) => e.id);
        expect(new Set(ids).size).toBe(ids.length); // exactly once
        expect(ids.length).toBe(committed.size);
        expect(ids.every((id) => committed.has(id))).toBe(true); // nothing rolled back
        expect(seen.every((e, i) => i === 0 || seen[i - 1]!.position < e.position)).toBe(true);
      },
      timeoutMs,
    );
  });
}
