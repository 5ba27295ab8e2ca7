/**
 * The command handler's snapshots: a cold handler (a new process, or a stream the cache let go)
 * starts a long stream from its latest snapshot and reads only the events after it; a snapshot
 * of another version of the state is ignored; a snapshot that cannot be read or kept never fails
 * a command. On PGlite and on real PostgreSQL.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  CommandHandler,
  type CommandHandlerOptions,
  type EventStore,
  PostgresEventStore,
  PostgresSnapshotStore,
  type RecordedEvent,
  type SnapshotStore,
  type StateSnapshots,
} from '../src/index.ts';
import { postgresForTests, readCountingStore, sqlEngines } from '../src/testing.ts';

/** A counter whose state holds what JSON cannot: a bigint total and a set. */
type TallyEvent = { type: 'Added'; data: { n: number; tag: string } };
/** The tally's events read back from the store: parsed, as the app's decoders do. */
const tallyEventSchema = z.object({
  type: z.literal('Added'),
  data: z.object({ n: z.number(), tag: z.string() }),
});
const decode = ({ type, data }: RecordedEvent): TallyEvent =>
  tallyEventSchema.parse({ type, data });
interface Tally {
  total: bigint;
  tags: Set<string>;
}
const codec = (version: number): StateSnapshots<Tally> => ({
  kind: 'tally',
  version,
  encode: (state) => ({ total: state.total.toString(), tags: [...state.tags] }),
  decode: (stored) => {
    const { total, tags } = stored as { total: string; tags: string[] };
    return { total: BigInt(total), tags: new Set(tags) };
  },
});
const tally = (snapshots?: StateSnapshots<Tally>) => ({
  initialState: (): Tally => ({ total: 0n, tags: new Set() }),
  evolve: (state: Tally, event: TallyEvent): Tally => ({
    total: state.total + BigInt(event.data.n),
    tags: new Set(state.tags).add(event.data.tag),
  }),
  snapshots,
});
const add =
  (n: number) =>
  (_: Tally): TallyEvent[] => [{ type: 'Added', data: { n, tag: `t${n % 7}` } }];
const metadata = () => ({ occurredAt: new Date().toISOString() });

const EVERY = 100;

/** The snapshots kept of a stream, as `v{version}@{revision}`. */
type Kept = (stream: string) => Promise<string[]>;

/** The state replayed from the log itself, past every cache and snapshot. */
async function replayed(store: EventStore, stream: string) {
  const evolver = tally();
  let state = evolver.initialState();
  for await (const e of store.readStream(stream)) state = evolver.evolve(state, decode(e));
  return state;
}

/** Writes `count` commands through a handler (so its snapshots are kept as they would be). */
async function written(
  store: EventStore,
  snapshots: SnapshotStore,
  stream: string,
  count: number,
  version = 1,
) {
  const handler = new CommandHandler(store, tally(codec(version)), {
    decode,
    snapshots,
    snapshotEvery: EVERY,
  });
  for (let i = 1; i <= count; i++) await handler.handle(stream, add(i), metadata());
  await handler.snapshotsSettled();
}

const { engines: databases, closeLater, closeAll } = sqlEngines(await postgresForTests());
afterAll(closeAll);

describe.each(databases)('CommandHandler snapshots on %s', (_name, runs, connect) => {
  let opened:
    | Promise<{ store: EventStore; snapshots: PostgresSnapshotStore; kept: Kept }>
    | undefined;
  const open = () => {
    opened ??= connect().then(async (connection) => {
      closeLater(() => connection.close());
      return {
        store: await PostgresEventStore.open(connection.sql, { kind: connection.kind }),
        snapshots: await PostgresSnapshotStore.open(connection.sql),
        kept: async (stream: string) =>
          (
            await connection.sql.query<{ version: number; revision: string }>(
              'SELECT version, revision::text FROM snapshots WHERE stream_name = $1 ORDER BY version, revision',
              [stream],
            )
          ).rows.map((row) => `v${row.version}@${row.revision}`),
      };
    });
    return opened;
  };
  const coldHandler = (
    store: EventStore,
    version: number,
    options: Partial<CommandHandlerOptions<TallyEvent>> = {},
    snapshots?: SnapshotStore,
  ) =>
    new CommandHandler(store, tally(codec(version)), {
      decode,
      snapshotEvery: EVERY,
      snapshots,
      ...options,
    });

  it.runIf(runs)(
    'a cold command on a long stream reads only the events after the latest snapshot, and decides on the state a full replay gives',
    async () => {
      const { store, snapshots, kept } = await open();
      const stream = `tally-${randomUUID()}`;
      // Given 250 events written one command at a time: snapshots at revisions 99 and 199, the
      // second replacing the first.
      await written(store, snapshots, stream, 250);
      expect(await kept(stream)).toEqual(['v1@199']);

      // When a new handler (a cold cache) takes a command on it
      const { spy, reads } = readCountingStore(store);
      const cold = coldHandler(spy, 1, {}, snapshots);
      const result = await cold.handle(stream, add(1000), metadata());

      // Then it read the 50 events after the snapshot, no more
      expect(reads).toEqual([{ from: 200n, events: 50 }]);
      expect(result.revision).toBe(250n);
      expect(result.state).toEqual(await replayed(store, stream));
      expect(result.state.total).toBe(BigInt((250 * 251) / 2 + 1000));
    },
  );

  it.runIf(runs)(
    'a state from a snapshot that fails when its lazily decoded part is read is reported, and the stream replayed',
    async () => {
      const { store, snapshots } = await open();
      const stream = `tally-${randomUUID()}`;
      await written(store, snapshots, stream, 250);
      // A codec that leaves the tags to be read later, and they cannot be read.
      const unreadable: StateSnapshots<Tally> = {
        ...codec(1),
        decode: (stored) => ({
          total: BigInt((stored as { total: string }).total),
          tags: {
            [Symbol.iterator]: () => {
              throw new SyntaxError('tags unreadable');
            },
          } as unknown as Set<string>,
        }),
      };
      const reported: unknown[] = [];
      const { spy, reads } = readCountingStore(store);
      const cold = new CommandHandler(spy, tally(unreadable), {
        decode,
        snapshots,
        snapshotEvery: EVERY,
        onSnapshotError: (error) => reported.push(error),
      });

      // When a command folds the events after the snapshot into that state
      const result = await cold.handle(stream, add(1), metadata());

      // Then the failure was reported and the command decided on the whole log's state
      expect(reported).toEqual([expect.any(SyntaxError)]);
      expect(reads).toEqual([
        { from: 200n, events: 1 },
        { from: 0n, events: 250 },
      ]);
      expect(result.state).toEqual(await replayed(store, stream));
    },
  );

  it.runIf(runs)(
    'keeps a snapshot once a cold load has read more than the interval past the last one',
    async () => {
      const { store, snapshots } = await open();
      const stream = `tally-${randomUUID()}`;
      // Given 250 events written without snapshots
      await written(store, { latest: async () => null, save: async () => {} }, stream, 250);
      expect(await snapshots.latest(stream, 'tally', 1)).toBeNull();

      // When a cold handler loads it: the whole stream is read, and a snapshot kept at its end
      const first = coldHandler(store, 1, {}, snapshots);
      await first.load(stream);
      await first.snapshotsSettled();
      const kept = await snapshots.latest<unknown>(stream, 'tally', 1);
      expect(kept?.revision).toBe(249n);
      expect(kept?.state).toEqual(codec(1).encode(await replayed(store, stream)));

      // Then the next cold handler reads nothing but the snapshot
      const { spy, reads } = readCountingStore(store);
      const { state } = await coldHandler(spy, 1, {}, snapshots).load(stream);
      expect(reads).toEqual([{ from: 250n, events: 0 }]);
      expect(state).toEqual(await replayed(store, stream));
    },
  );

  it.runIf(runs)(
    'ignores a snapshot of another version, replays the stream, and keeps one of its own',
    async () => {
      const { store, snapshots, kept } = await open();
      const stream = `tally-${randomUUID()}`;
      await written(store, snapshots, stream, 250);
      // A version-1 snapshot that a version 2 must not believe (a state no replay gives).
      const position = (await snapshots.latest(stream, 'tally', 1))!.position;
      await snapshots.save(stream, 'tally', 1, {
        revision: 249n,
        position,
        latestAt: new Date().toISOString(),
        state: { total: '-1', tags: [] },
      });

      // When a handler of version 2 takes a command, cold
      const { spy, reads } = readCountingStore(store);
      const v2 = coldHandler(spy, 2, {}, snapshots);
      const result = await v2.handle(stream, add(1), metadata());
      await v2.snapshotsSettled();

      // Then it replayed the whole stream and decided on the true state
      expect(reads).toEqual([{ from: 0n, events: 250 }]);
      expect(result.state).toEqual(await replayed(store, stream));
      // and the version-2 snapshot it kept where its replay ended serves the next cold handler
      expect((await snapshots.latest(stream, 'tally', 2))?.revision).toBe(249n);
      reads.length = 0;
      const { state } = await coldHandler(spy, 2, {}, snapshots).load(stream);
      expect(reads).toEqual([{ from: 250n, events: 1 }]);
      expect(state).toEqual(result.state);
      // The version-2 snapshot replaced those of version 1.
      expect(await kept(stream)).toEqual(['v2@249']);
    },
  );

  it.runIf(runs)(
    'a snapshot store that fails to read or to keep never fails a command',
    async () => {
      const { store, snapshots } = await open();
      const stream = `tally-${randomUUID()}`;
      await written(store, snapshots, stream, 150);
      const failures: string[] = [];
      const broken: SnapshotStore = {
        latest: async () => {
          throw new Error('snapshots unreadable');
        },
        save: async () => {
          throw new Error('snapshots unwritable');
        },
      };
      const handler = coldHandler(
        store,
        1,
        { onSnapshotError: (error) => failures.push((error as Error).message) },
        broken,
      );
      const result = await handler.handle(stream, add(1), metadata());
      await handler.snapshotsSettled();
      expect(result.revision).toBe(150n);
      expect(result.state).toEqual(await replayed(store, stream));
      // Read failed (the log was replayed instead), then keeping the snapshot failed.
      expect(failures).toEqual(['snapshots unreadable', 'snapshots unwritable']);
    },
  );

  it.runIf(runs)(
    'a snapshot ahead of the log (a log restored without emptying snapshots) is found out by the append, and the log replayed',
    async () => {
      const { store, snapshots, kept } = await open();
      const stream = `tally-${randomUUID()}`;
      await written(store, snapshots, stream, 150);
      // Given a snapshot of events this log does not hold
      await snapshots.save(stream, 'tally', 1, {
        revision: 300n,
        position: 1n,
        latestAt: new Date().toISOString(),
        state: { total: '1000000', tags: [] },
      });
      const failures: string[] = [];
      const handler = coldHandler(
        store,
        1,
        { onSnapshotError: (error) => failures.push((error as Error).message) },
        snapshots,
      );

      // When a cold command runs: its append at revision 300 is refused at 149
      const result = await handler.handle(stream, add(1), metadata());
      await handler.snapshotsSettled();

      // Then it decided on the log itself, and its snapshot took the place of the wrong one
      expect(result.revision).toBe(150n);
      expect(result.state).toEqual(await replayed(store, stream));
      expect(failures).toEqual(['Snapshot at revision 300, log at 149']);
      expect(await kept(stream)).toEqual(['v1@149']);
    },
  );

  it.runIf(runs)('a snapshot its codec cannot decode is passed over for the log', async () => {
    const { store, snapshots } = await open();
    const stream = `tally-${randomUUID()}`;
    await written(store, snapshots, stream, 120);
    const position = (await snapshots.latest(stream, 'tally', 1))!.position;
    await snapshots.save(stream, 'tally', 1, {
      revision: 110n,
      position,
      latestAt: new Date().toISOString(),
      state: { total: 'not a number', tags: [] },
    });
    const failures: unknown[] = [];
    const handler = coldHandler(
      store,
      1,
      { onSnapshotError: (error) => failures.push(error) },
      snapshots,
    );
    const { state } = await handler.load(stream);
    await handler.snapshotsSettled();
    expect(state).toEqual(await replayed(store, stream));
    expect(failures).toHaveLength(1);
  });

  it.runIf(runs)('a short stream, or an evolver without snapshots, keeps none', async () => {
    const { store, snapshots } = await open();
    const short = `tally-${randomUUID()}`;
    await written(store, snapshots, short, EVERY - 1);
    expect(await snapshots.latest(short, 'tally', 1)).toBeNull();

    const plain = `tally-${randomUUID()}`;
    const handler = new CommandHandler(store, tally(), { decode, snapshots, snapshotEvery: EVERY });
    for (let i = 0; i < EVERY + 5; i++) await handler.handle(plain, add(i), metadata());
    await handler.snapshotsSettled();
    expect(await snapshots.latest(plain, 'tally', 1)).toBeNull();
  });
});
