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
