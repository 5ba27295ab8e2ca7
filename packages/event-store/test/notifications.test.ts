import { afterEach, describe, expect, it } from 'vitest';
import {
  connectPostgres,
  LISTENER_APPLICATION,
  PostgresEventStore,
  type RecordedEvent,
} from '../src/index.ts';
import { readAllSql } from '../src/postgres/statements.ts';
import { createThrowawayDatabase, eventually, postgresForTests } from '../src/testing.ts';

const available = await postgresForTests();

/**
 * A poll interval no test waits out (each test gives up at half of it, however slowly a loaded
 * machine starts its processes): only an announcement explains a delivery before it.
 */
const NEVER = 60_000;

describe.runIf(available)('Cross-process wake-up (PostgreSQL LISTEN/NOTIFY)', () => {
  const cleanups: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  /**
   * Two stores on one database, each on its own pool and listening connection, as two processes
   * would have them: `writer` appends, `reader` subscribes.
   */
  async function twoProcesses(reader: { pollIntervalMs: number; reconnectMs?: number }) {
    const database = await createThrowawayDatabase();
    cleanups.push(() => database.drop());
    /** The subscriber's reads of the log so far. */
    let reads = 0;
    const open = async (options: { pollIntervalMs?: number; reconnectMs?: number }) => {
      const connection = await connectPostgres({
        databaseUrl: database.url,
        ...(options.reconnectMs ? { reconnectMs: options.reconnectMs } : {}),
      });
      if (connection.kind !== 'postgres') throw new Error('expected PostgreSQL');
      const { sql } = connection;
      const counted = {
        ...sql,
        query: <Row>(text: string, params?: readonly unknown[], name?: string) => {
          if (text === readAllSql) reads++;
          return sql.query<Row>(text, params, name);
        },
      };
      const store = await PostgresEventStore.open(counted, {
        notifications: connection.notifications,
        ...(options.pollIntervalMs ? { pollIntervalMs: options.pollIntervalMs } : {}),
      });
      cleanups.push(async () => {
        await store.close();
        await connection.close();
      });
      return { connection, store };
    };
    const writer = await open({});
    const subscriber = await open(reader);
    const controller = new AbortController();
    const received: RecordedEvent[] = [];
    const following = (async () => {
      for await (const event of subscriber.store.subscribeAll({ signal: controller.signal }))
        received.push(event);
    })();
    cleanups.push(async () => {
      controller.abort();
      await following;
    });
    /** The backends listening (the reader's: the writer never subscribes). */
    const listeners = async () =>
      (
        await writer.connection.sql.query<{ pid: number }>(
          `SELECT pid FROM pg_stat_activity
           WHERE datname = current_database() AND application_name = $1 AND query LIKE 'LISTEN%'`,
          [LISTENER_APPLICATION],
        )
      ).rows.map((row) => row.pid);
    const append = async (n: number) =>
      (
        await writer.store.append(`wake-${n}`, [{ type: 'Woken', data: { n } }], {
          expected: 'no_stream',
        })
      ).position;
    const delivered = (position: bigint) =>
      eventually(async () => received.some((event) => event.position === position));
    return { writer, listeners, append, delivered, received, reads: () => reads };
  }

  it(
    'wakes a subscription in another process when an event is appended, not at its poll',
    async () => {
      const { listeners, append, delivered, received } = await twoProcesses({
        pollIntervalMs: NEVER,
      });
      await eventually(async () => (await listeners()).length === 1);
      for (let n = 0; n < 3; n++) await delivered(await append(n));
      expect(received.map((event) => event.data)).toEqual([{ n: 0 }, { n: 1 }, { n: 2 }]);
    },
    NEVER / 2,
  );

  it(
    'reads an announced event held back by an older open transaction as soon as that one ends',
    async () => {
      const { writer, listeners, append, delivered, received, reads } = await twoProcesses({
        pollIntervalMs: NEVER,
      });
      await eventually(async () => (await listeners()).length === 1);
      // An older transaction with an id holds the log's horizon: nothing after it can be read.
      const older = await writer.connection.pool.connect();
      try {
        await older.query('BEGIN');
        await older.query('SELECT pg_current_xact_id()');
        const before = reads();
        const position = await append(1);
        // Woken by the announcement, the subscription finds nothing yet, and looks again.
        await eventually(async () => reads() >= before + 3);
        expect(received).toEqual([]);
        // Its end is announced to nobody: only looking again for the announced event delivers it.
        await older.query('COMMIT');
        await delivered(position);
      } finally {
        // Closed, not returned to the pool: a transaction left open would hold every reader.
        older.release(true);
      }
    },
    NEVER / 2,
  );

  it('still delivers by polling while its listening connection is lost', async () => {
    // The listener would come back only after a minute: the poll alone can deliver meanwhile.
    const { writer, listeners, append, delivered } = await twoProcesses({
      pollIntervalMs: 100,
      reconnectMs: 60_000,
    });
    await eventually(async () => (await listeners()).length === 1);
    const [pid] = await listeners();
    await writer.connection.sql.query('SELECT pg_terminate_backend($1)', [pid]);
    await eventually(async () => (await listeners()).length === 0);
    await delivered(await append(1));
    expect(await listeners()).toEqual([]);
  });

  it(
    'listens again on a new connection after losing it, and wakes on announcements again',
    async () => {
      const { writer, listeners, append, delivered } = await twoProcesses({
        pollIntervalMs: NEVER,
      });
      await eventually(async () => (await listeners()).length === 1);
      await delivered(await append(1));
      const [lost] = await listeners();
      await writer.connection.sql.query('SELECT pg_terminate_backend($1)', [lost]);
      await eventually(async () => {
        const now = await listeners();
        return now.length === 1 && now[0] !== lost;
      });
      await delivered(await append(2));
      await delivered(await append(3));
    },
    NEVER / 2,
  );
});
