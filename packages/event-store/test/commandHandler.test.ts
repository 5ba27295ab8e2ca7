/**
 * The command handler across processes: two `CommandHandler` instances on one store stand for
 * two API replicas. Inside one instance the per-stream queue serializes commands, so only a
 * second instance reaches the paths that make it safe: a refusal re-checked against a stale
 * cache, the conflict → catch up → decide again loop, `ConcurrencyError`, and LRU eviction.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  CommandHandler,
  ConcurrencyError,
  connectPostgres,
  type EventStore,
  isWrongExpectedRevision,
  type PostgresConnection,
  PostgresEventStore,
  type RecordedEvent,
} from '../src/index.ts';
import { createThrowawayDatabase, pgliteTemplate, postgresForTests } from '../src/testing.ts';

/** A tiny credit counter: the decider under test. */
type CounterEvent =
  | { type: 'Granted'; data: { amount: number } }
  | { type: 'Spent'; data: { amount: number } };
interface Counter {
  balance: number;
}
const counter = {
  initialState: (): Counter => ({ balance: 0 }),
  evolve: (state: Counter, event: CounterEvent): Counter => ({
    balance: state.balance + (event.type === 'Granted' ? event.data.amount : -event.data.amount),
  }),
};
class InsufficientCredits extends Error {
  override readonly name = 'InsufficientCredits';
}
const grant =
  (amount: number) =>
  (_: Counter): CounterEvent[] => [{ type: 'Granted', data: { amount } }];
const spend =
  (amount: number) =>
  (state: Counter): CounterEvent[] => {
    if (state.balance < amount) throw new InsufficientCredits(`balance ${state.balance}`);
    return [{ type: 'Spent', data: { amount } }];
  };
const metadata = { correlationId: 'test' };

/** Delegates to a store and records what the handler asked of it. */
function spied(store: EventStore) {
  const reads: { stream: string; from: bigint }[] = [];
  const appends: { stream: string; outcome: 'ok' | 'conflict' | 'error' }[] = [];
  const spy: EventStore = {
    kind: store.kind,
    async append(stream, events, options) {
      try {
        const result = await store.append(stream, events, options);
        appends.push({ stream, outcome: 'ok' });
        return result;
      } catch (error) {
        appends.push({ stream, outcome: isWrongExpectedRevision(error) ? 'conflict' : 'error' });
        throw error;
      }
    },
    readStream(stream, options) {
      reads.push({ stream, from: options?.from ?? 0n });
      return store.readStream(stream, options);
    },
    readAll: (options) => store.readAll(options),
    subscribeAll: (options) => store.subscribeAll(options),
    close: () => store.close(),
  };
  return { spy, reads, appends };
}

/** The counter's events read back from the store: parsed, as the app's decoders do. */
const counterEventSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('Granted'), data: z.object({ amount: z.number() }) }),
  z.object({ type: z.literal('Spent'), data: z.object({ amount: z.number() }) }),
]);
const decodeCounter = ({ type, data }: RecordedEvent): CounterEvent =>
  counterEventSchema.parse({ type, data });

const handlerOn = (store: EventStore, options?: { cacheSize?: number; retries?: number }) =>
  new CommandHandler<Counter, CounterEvent>(store, counter, { decode: decodeCounter, ...options });

/** The balance replayed from the log itself, past every cache. */
async function replayed(store: EventStore, stream: string) {
  let state = counter.initialState();
  for await (const e of store.readStream(stream)) {
    state = counter.evolve(state, { type: e.type, data: e.data } as CounterEvent);
  }
  return state.balance;
}

function commandHandlerAcrossProcesses(name: string, open: () => Promise<EventStore>) {
  describe(`CommandHandler, two instances on one store: ${name}`, () => {
    const streamName = () => `credits-${randomUUID()}`;

    it('re-checks a refusal made on a stale cache against the latest state', async () => {
      const store = await open();
      const a = handlerOn(store);
      const b = handlerOn(store);
      const stream = streamName();
      await a.handle(stream, grant(1), metadata);
      await a.handle(stream, spend(1), metadata); // A caches a balance of 0 at revision 1
      await b.handle(stream, grant(5), metadata); // B grants behind A's back

      const result = await a.handle(stream, spend(3), metadata);
      expect(result.state.balance).toBe(2);
      expect(result.revision).toBe(3n);

      // A refusal that the latest state confirms still stands, and appends nothing.
      await expect(a.handle(stream, spend(10), metadata)).rejects.toBeInstanceOf(
        InsufficientCredits,
      );
      await b.handle(stream, spend(2), metadata);
      await expect(a.handle(stream, spend(1), metadata)).rejects.toBeInstanceOf(
        InsufficientCredits,
      );
      expect(await replayed(store, stream)).toBe(0);
    });

    it('on a conflict with another instance, catches up, decides again and appends', async () => {
      const { spy, appends } = spied(await open());
      const a = handlerOn(spy);
      const b = handlerOn(spy);
      const stream = streamName();
      await a.handle(stream, grant(3), metadata); // A caches revision 0
      await b.handle(stream, spend(2), metadata); // the stream moves to revision 1

      // A decides on its cache (balance 3), the append at revision 0 conflicts, A reloads
      // (balance 1) and decides again: spending 1 still fits.
      appends.length = 0;
      const result = await a.handle(stream, spend(1), metadata);
      expect(appends.map((x) => x.outcome)).toEqual(['conflict', 'ok']);
      expect(result.revision).toBe(2n);
      expect(result.state.balance).toBe(0);

      // The decision made again can turn into a refusal: B spends the last credit A saw.
      await a.handle(stream, grant(1), metadata); // A caches balance 1 at revision 3
      await b.handle(stream, spend(1), metadata);
      appends.length = 0;
      await expect(a.handle(stream, spend(1), metadata)).rejects.toBeInstanceOf(
        InsufficientCredits,
      );
      expect(appends.map((x) => x.outcome)).toEqual(['conflict']);
      expect(await replayed(spy, stream)).toBe(0);
    });

    it('30 concurrent one-credit spends on 5 credits through two instances: exactly 5 succeed', async () => {
      const store = await open();
      const handlers = [handlerOn(store), handlerOn(store)];
      const stream = streamName();
      await handlers[0]!.handle(stream, grant(5), metadata);
      await handlers[1]!.load(stream); // both caches hold the balance of 5

      const outcomes = await Promise.allSettled(
        Array.from({ length: 30 }, (_, i) => handlers[i % 2]!.handle(stream, spend(1), metadata)),
      );
      const succeeded = outcomes.filter((o) => o.status === 'fulfilled');
      const refused = outcomes.filter((o): o is PromiseRejectedResult => o.status === 'rejected');
      expect(succeeded).toHaveLength(5);
      expect(refused.every((o) => o.reason instanceof InsufficientCredits)).toBe(true);
      expect(await replayed(store, stream)).toBe(0);
      for (const handler of handlers) expect((await handler.load(stream)).state.balance).toBe(0);
    });

    it('gives up with ConcurrencyError, appending nothing, when retries: 0 meets a conflict', async () => {
      const store = await open();
      const a = handlerOn(store, { retries: 0 });
      const b = handlerOn(store);
      const stream = streamName();
      await a.handle(stream, grant(5), metadata);
      await b.handle(stream, spend(1), metadata);

      const error = await a.handle(stream, spend(1), metadata).catch((e) => e);
      expect(error).toBeInstanceOf(ConcurrencyError);
      expect(error).toMatchObject({ stream });
      expect(await replayed(store, stream)).toBe(4);
      // The next command does not start from the stale cache again: it reloads and succeeds.
      expect((await a.handle(stream, spend(1), metadata)).state.balance).toBe(3);
    });

    it('evicts the least recently used stream at cacheSize 1, and reloads it whole', async () => {
      const { spy, reads } = spied(await open());
      const a = handlerOn(spy, { cacheSize: 1 });
      const b = handlerOn(spy);
      const x = streamName();
      const y = streamName();
      await a.handle(x, grant(2), metadata);
      await a.handle(x, spend(1), metadata); // a cache hit: no read
      expect(reads.filter((r) => r.stream === x)).toEqual([{ stream: x, from: 0n }]);

      await a.handle(y, grant(7), metadata); // Y takes the only slot
      await b.handle(x, grant(10), metadata); // X changes while A has forgotten it
      reads.length = 0;
      const result = await a.handle(x, spend(11), metadata);
      // Evicted: X is read again from its start, not from a remembered revision.
      expect(reads.filter((r) => r.stream === x)[0]).toEqual({ stream: x, from: 0n });
      expect(result.state.balance).toBe(0);
      expect(result.revision).toBe(3n);

      reads.length = 0;
      expect((await a.handle(y, spend(7), metadata)).state.balance).toBe(0);
      expect(reads.filter((r) => r.stream === y)).toEqual([{ stream: y, from: 0n }]);
    });
  });
}

// PGlite: one in-memory instance for the file; each test uses its own streams.
let pglite: Promise<PostgresConnection> | undefined;
afterAll(async () => (await pglite)?.close());
commandHandlerAcrossProcesses('PGlite', async () => {
  pglite ??= pgliteTemplate().then((template) => connectPostgres({ dataDir: null, template }));
  const connection = await pglite;
  return PostgresEventStore.open(connection.sql, { kind: connection.kind });
});

const postgres = await postgresForTests();
describe.runIf(postgres)('PostgreSQL', () => {
  let shared: Promise<{ connection: PostgresConnection; drop(): Promise<void> }> | undefined;
  afterAll(async () => {
    if (!shared) return;
    const { connection, drop } = await shared;
    await connection.close();
    await drop();
  });
  commandHandlerAcrossProcesses('PostgreSQL', async () => {
    shared ??= createThrowawayDatabase().then(async (database) => ({
      connection: await connectPostgres({ databaseUrl: database.url }),
      drop: database.drop,
    }));
    const { connection } = await shared;
    return PostgresEventStore.open(connection.sql);
  });
});
