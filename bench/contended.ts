import { isWrongExpectedRevision, openStorage } from '@astra/event-store';
import { createThrowawayDatabase } from '@astra/event-store/testing';
import { writeSection } from './report.ts';

const WRITERS = 16;
const STREAMS = 4;
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);

/**
 * Contended appends: 16 writers on 4 streams, each appending one event at the revision it last
 * saw and, when another writer took that revision first, trying again at the revision the
 * conflict names. Checked after: every stream gapless, every append a writer was told succeeded
 * in its stream once, and no connection of the pool replaced (a lost race is no reason to close
 * one: the backends serving the pool are the same before and after).
 */
export async function contendedBenchmark() {
  const database = await createThrowawayDatabase('astra_bench');
  const storage = await openStorage({ databaseUrl: database.url, dataDir: null });
  const { sql } = storage.connection;
  const backends = async () =>
    new Set(
      (
        await sql.query<{ pid: number }>(
          'SELECT pid FROM pg_stat_activity WHERE datname = current_database()',
        )
      ).rows.map((row) => row.pid),
    );
  try {
    const streams = Array.from({ length: STREAMS }, (_, i) => `contended-${i}`);
    for (const stream of streams)
      await storage.store.append(stream, [{ type: 'Opened', data: {} }], { expected: 'no_stream' });
    // The pool's connections, all open before the run (its 20 at most; the writers use 16).
    await Promise.all(Array.from({ length: 20 }, () => sql.query('SELECT pg_sleep(0.05)')));
    const before = await backends();

    let appended = 0;
    let conflicts = 0;
    const written = new Map<string, number>();
    const deadline = performance.now() + SECONDS * 1000;
    const started = performance.now();
    await Promise.all(
      Array.from({ length: WRITERS }, async (_, writer) => {
        const stream = streams[writer % STREAMS]!;
        let expected = 0n;
        let n = 0;
        while (performance.now() < deadline) {
          try {
            const result = await storage.store.append(
              stream,
              [{ type: 'Appended', data: { writer, n } }],
              { expected },
            );
            expected = result.nextRevision;
            written.set(`${writer}:${n}`, 1);
            n++;
            appended++;
          } catch (error) {
            if (!isWrongExpectedRevision(error) || typeof error.actual !== 'bigint') throw error;
            expected = error.actual;
            conflicts++;
          }
        }
      }),
    );
    const seconds = (performance.now() - started) / 1000;
    const after = await backends();
    const replaced = [...after].filter((pid) => !before.has(pid)).length;

    // Gapless streams holding exactly the appends their writers were told of.
    const { rows } = await sql.query<{ stream: string; events: string; last: string }>(
      `SELECT stream_name AS stream, count(*)::text AS events, max(revision)::text AS last
       FROM events WHERE stream_name LIKE 'contended-%' GROUP BY stream_name`,
    );
    const stored = rows.reduce((sum, row) => sum + Number(row.events) - 1, 0);
    const gapless = rows.every((row) => Number(row.events) === Number(row.last) + 1);
    const { rows: data } = await sql.query<{ key: string }>(
      `SELECT (data->>'writer') || ':' || (data->>'n') AS key FROM events WHERE type = 'Appended'`,
    );
    const unique = new Set(data.map((row) => row.key));
    const intact =
      gapless && stored === appended && unique.size === appended && data.length === appended;
    if (!intact)
      throw new Error(`Contended appends lost or repeated events: ${JSON.stringify(rows)}`);

    const rate = appended / seconds;
    await writeSection(
      'contended',
      'Contended appends (PostgreSQL)',
      [
        {
          what: `${WRITERS} writers on ${STREAMS} streams, one event an append, retrying at the revision a conflict names`,
          measured: `${Math.round(rate).toLocaleString('en-US')} events/s (${Math.round(conflicts / seconds).toLocaleString('en-US')} conflicts/s)`,
          target: '≥ 600 events/s',
          met: rate >= 600,
        },
        {
          what: 'connections of the pool replaced during the run (new backends)',
          measured: String(replaced),
          target: '0',
          met: replaced === 0,
        },
        {
          what: 'every stream gapless, every acknowledged append stored once',
          measured: `${appended.toLocaleString('en-US')} appends, ${stored.toLocaleString('en-US')} stored`,
          target: 'equal',
          met: intact,
        },
      ],
      `${SECONDS} s, one \`pg\` pool of 20 connections (all opened before the run) in one Node process on the same two cores as PostgreSQL. An append of one event at a taken revision inserts nothing (\`ON CONFLICT … DO NOTHING\`) and comes back empty; a refused statement (appends of several events keep the unique violation) hands its connection back to the pool intact.`,
    );
  } finally {
    await storage.close();
    await database.drop();
  }
}
