import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  connectPostgres,
  LogHorizonStalledError,
  PostgresEventStore,
  WrongExpectedRevisionError,
} from '../src/index.ts';
import {
  filteredReadParams,
  filteredReadSql,
  readAllSql,
  sqlFilterOf,
} from '../src/postgres/statements.ts';
import { createThrowawayDatabase, postgresForTests } from '../src/testing.ts';
import { eventStoreContract } from './contract.ts';

const available = await postgresForTests();

describe.runIf(available)('PostgreSQL', () => {
  eventStoreContract(
    'PostgreSQL adapter on a PostgreSQL server (pg)',
    async () => {
      const database = await createThrowawayDatabase();
      const connection = await connectPostgres({ databaseUrl: database.url });
      if (connection.kind !== 'postgres') throw new Error('expected PostgreSQL');
      const store = await PostgresEventStore.open(connection.sql);
      return {
        store,
        appendInTransaction: async (stream, events, expected, hold, outcome) => {
          const client = await connection.pool.connect();
          try {
            await client.query('BEGIN');
            const inTransaction = new PostgresEventStore({
              query: async (text, params) => ({
                rows: (await client.query(text, params as unknown[])).rows,
              }),
              exec: async (script) => void (await client.query(script)),
            });
            try {
              await inTransaction.append(stream, events, { expected });
              await hold();
            } finally {
              await client.query(outcome === 'commit' ? 'COMMIT' : 'ROLLBACK');
            }
          } finally {
            client.release();
          }
        },
        dispose: async () => {
          await store.close();
          await connection.close();
          await database.drop();
        },
      };
    },
    { elides: true },
  );

  it('reads each page by walking the position index, even on a table never analyzed', async () => {
    const database = await createThrowawayDatabase();
    const connection = await connectPostgres({ databaseUrl: database.url });
    if (connection.kind !== 'postgres') throw new Error('expected PostgreSQL');
    try {
      const store = await PostgresEventStore.open(connection.sql);
      // A freshly loaded or restored log: no statistics until autovacuum gets to it.
      await connection.sql.exec('ALTER TABLE events SET (autovacuum_enabled = false)');
      // A log many pages long, where sorting the rest of it for each page is what costs.
      const events = Array.from({ length: 60_000 }, (_, i) => ({ type: 'Counted', data: { i } }));
      await store.append(`bulk-${randomUUID()}`, events, { expected: 'no_stream' });
      const { rows: stats } = await connection.sql.query<{ reltuples: number }>(
        "SELECT reltuples FROM pg_class WHERE relname = 'events'",
      );
      expect(stats[0]!.reltuples).toBeLessThan(0); // never analyzed

      // The page sizes of subscribeAll (1,000) and of a rebuild (5,000).
      for (const limit of [100, 1000, 5000]) {
        const { rows } = await connection.sql.query<{ 'QUERY PLAN': string }>(
          `EXPLAIN ${readAllSql.replace('$1::bigint', '0').replace('$2', String(limit))}`,
        );
        const plan = rows.map((row) => row['QUERY PLAN']).join('\n');
        expect(plan, `LIMIT ${limit}`).toMatch(/Index (Only )?Scan using events_pkey/);
        expect(plan, `LIMIT ${limit}`).not.toMatch(/Sort|Bitmap/);
      }

      let read = 0;
      for await (const _ of store.readAll({ batch: 5000 })) read++;
      expect(read).toBe(60_000);
      await store.close();
    } finally {
      await connection.close();
      await database.drop();
    }
  });

  it('reads each filtered or backwards page by walking an index, touching about a page of rows', async () => {
    const database = await createThrowawayDatabase();
    const connection = await connectPostgres({ databaseUrl: database.url });
    if (connection.kind !== 'postgres') throw new Error('expected PostgreSQL');
    try {
      const store = await PostgresEventStore.open(connection.sql);
      await connection.sql.exec('ALTER TABLE events SET (autovacuum_enabled = false)');
      // Common types and a rare one, in two kinds of stream.
      const types = ['CreditsSpent', 'ReadingGenerated', 'CreditsGranted'];
      const events = Array.from({ length: 60_000 }, (_, i) => ({
        type: i % 1000 === 0 ? 'CreditsAdjusted' : types[i % 3]!,
        data: { i },
      }));
      await store.append(`credits-${randomUUID()}`, events.slice(0, 30_000), {
        expected: 'no_stream',
      });
      await store.append(`reading-${randomUUID()}`, events.slice(30_000), {
        expected: 'no_stream',
      });
      const end = String((1n << 62n) - 1n);
      /** The rows a page read touched: every row its scans returned or filtered out. */
      const touchedBy = async (
        direction: 'forwards' | 'backwards',
        limit: number,
        filter: { types?: readonly string[]; streamPrefixes?: readonly string[] },
      ) => {
        const sqlFilter = sqlFilterOf(filter);
        const { rows } = await connection.pool.query(
          `EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF) ${filteredReadSql(direction, sqlFilter)}`,
          [direction === 'forwards' ? '0' : end, limit, ...filteredReadParams(sqlFilter)],
        );
        const plan = rows.map((row: { 'QUERY PLAN': string }) => row['QUERY PLAN']).join('\n');
        let touched = 0;
        for (const line of plan.split('\n')) {
          const scanned = /Scan .*actual rows=(\d+) loops=(\d+)/.exec(line);
          if (scanned) touched += Number(scanned[1]) * Number(scanned[2]);
          const removed = /Rows Removed by Filter: (\d+)/.exec(line);
          if (removed) touched += Number(removed[1]);
        }
        return { plan, touched };
      };
      const cases = [
        ['backwards', {}],
        ['backwards', { streamPrefixes: ['credits-'] }],
        ['forwards', { streamPrefixes: ['credits-'] }],
        ['forwards', { streamPrefixes: ['reading-'] }],
        ['forwards', { types: ['CreditsAdjusted'] }],
        ['forwards', { types: ['CreditsAdjusted'], streamPrefixes: ['credits-'] }],
        ['forwards', { types: ['CreditsSpent', 'CreditsGranted'] }],
        ['forwards', { types: ['CreditsSpent', 'CreditsAdjusted'], streamPrefixes: ['credits-'] }],
        ['backwards', { types: ['CreditsAdjusted', 'CreditsSpent'] }],
        ['backwards', { types: ['CreditsAdjusted'], streamPrefixes: ['credits-'] }],
      ] as const;
      // A page touches about its own size in rows, a few per type at most: it walks an index in
      // order and stops. Never analyzed, the planner guesses that a type holds 0.5% of the table,
      // and where that is less than a page (as here) it may fetch a type's events whole and sort
      // them (a sort of at most about 200 pages): types are checked once analyzed.
      for (const analyzed of [false, true]) {
        if (analyzed) await connection.sql.exec('ANALYZE events');
        for (const [direction, filter] of cases) {
          if (!analyzed && 'types' in filter) continue;
          for (const limit of [100, 200]) {
            const { plan, touched } = await touchedBy(direction, limit, filter);
            const types = 'types' in filter ? filter.types.length : 1;
            const label = `${analyzed ? 'analyzed' : 'never analyzed'}: ${direction} ${JSON.stringify(filter)} LIMIT ${limit}\n${plan}`;
            expect(touched, label).toBeLessThanOrEqual(3 * limit * types);
            expect(plan, label).not.toMatch(/Seq Scan/);
          }
        }
      }
      const adjusted = [];
      for await (const e of store.readAll({ filter: { types: ['CreditsAdjusted'] } }))
        adjusted.push(e);
      expect(adjusted).toHaveLength(60);
      await store.close();
    } finally {
      await connection.close();
      await database.drop();
    }
  });

  it('reads to the head it found: waits for a transaction still open below committed events, or names it', async () => {
    const database = await createThrowawayDatabase();
    const connection = await connectPostgres({ databaseUrl: database.url });
    if (connection.kind !== 'postgres') throw new Error('expected PostgreSQL');
    const blocker = await connection.pool.connect();
    try {
      const store = await PostgresEventStore.open(connection.sql, { horizonWaitMs: 30_000 });
      const impatient = new PostgresEventStore(connection.sql, { horizonWaitMs: 200 });
      await store.append('early', [{ type: 'Counted', data: { i: 0 } }], { expected: 'no_stream' });
      // A transaction that took its id before the next appends and stays open: their events
      // commit above the horizon it holds.
      await blocker.query("BEGIN; SET application_name = 'left-open'");
      await blocker.query('SELECT pg_current_xact_id()');
      for (let i = 1; i <= 3; i++)
        await store.append(`late-${i}`, [{ type: 'Counted', data: { i } }], {
          expected: 'no_stream',
        });

      await expect(
        (async () => {
          for await (const _ of impatient.readAll({ batch: 2 }));
        })(),
      ).rejects.toSatisfy(
        (error) =>
          error instanceof LogHorizonStalledError &&
          error.holder?.application === 'left-open' &&
          /left-open/.test(error.message),
      );

      const read: unknown[] = [];
      const reading = (async () => {
        for await (const event of store.readAll({ batch: 2 })) read.push(event.data);
      })();
      let finished = false;
      void reading.then(() => {
        finished = true;
      });
      // The reader waits while the transaction is open (checked over a few of its polls)...
      for (let i = 0; i < 20; i++) await new Promise((resolve) => setImmediate(resolve));
      await connection.sql.query('SELECT pg_sleep(0.1)');
      expect(finished).toBe(false);
      // ...and, once it ends, delivers every event committed before the read began, in order.
      await blocker.query('COMMIT');
      await reading;
      expect(read).toEqual([{ i: 0 }, { i: 1 }, { i: 2 }, { i: 3 }]);
      await store.close();
    } finally {
      blocker.release();
      await connection.close();
      await database.drop();
    }
  });

  it('loses a race for a revision without losing a connection: the pool keeps every one', async () => {
    const database = await createThrowawayDatabase();
    const connection = await connectPostgres({ databaseUrl: database.url, maxConnections: 4 });
    try {
      const store = await PostgresEventStore.open(connection.sql);
      const pids = async () =>
        new Set(
          (
            await connection.sql.query<{ pid: number }>(
              'SELECT pid FROM pg_stat_activity WHERE datname = current_database()',
            )
          ).rows.map((row) => row.pid),
        );
      // Every connection the pool may use, open: a replaced one would come with a new backend.
      await Promise.all(
        Array.from({ length: 4 }, () => connection.sql.query('SELECT pg_sleep(0.05)')),
      );
      const before = await pids();
      expect(before.size).toBe(4);
      const one = (i: number) => [{ type: 'Counted', data: { i } }];
      await store.append('raced', [...one(0), ...one(1)], { expected: 'no_stream' });
      for (let i = 0; i < 20; i++) {
        // One event at a revision taken already, several events at it, and a stream that exists.
        await expect(store.append('raced', one(i), { expected: 0n })).rejects.toBeInstanceOf(
          WrongExpectedRevisionError,
        );
        await expect(
          store.append('raced', [...one(i), ...one(i)], { expected: 0n }),
        ).rejects.toBeInstanceOf(WrongExpectedRevisionError);
        await expect(
          store.append('raced', one(i), { expected: 'no_stream' }),
        ).rejects.toBeInstanceOf(WrongExpectedRevisionError);
      }
      // Concurrent appenders at the same revision: one wins each round, the rest lose cleanly.
      for (let round = 0; round < 10; round++) {
        const revision = BigInt(round + 1);
        const outcomes = await Promise.allSettled(
          Array.from({ length: 4 }, (_, i) =>
            store.append('raced', one(i), { expected: revision }),
          ),
        );
        expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(1);
        for (const o of outcomes)
          if (o.status === 'rejected') expect(o.reason).toBeInstanceOf(WrongExpectedRevisionError);
      }
      const after = await pids();
      expect([...after].filter((pid) => !before.has(pid))).toEqual([]);
      await store.close();
    } finally {
      await connection.close();
      await database.drop();
    }
  });
});
