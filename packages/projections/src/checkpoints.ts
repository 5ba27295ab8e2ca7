import { type Kysely, sql } from 'kysely';
import { READ_SCHEMA, readModels } from './database.ts';

/** The lowest of some positions (at least one). */
export const earliest = (positions: readonly bigint[]) =>
  positions.reduce((min, p) => (p < min ? p : min));

/** The position every named projection has reached in `schema` (0 before the first batch). */
export async function checkpointOf(db: Kysely<unknown>, schema: string, names: readonly string[]) {
  const rows = await readModels(db, schema)
    .selectFrom('checkpoints')
    .selectAll()
    .where('name', 'in', [...names])
    .execute();
  return earliest(names.map((name) => BigInt(rows.find((r) => r.name === name)?.position ?? 0)));
}

/**
 * Waits until every named projection has applied every event committed when it is called (the
 * log in PostgreSQL): tests and benchmarks read the read models only then, never after a sleep.
 */
export async function untilProjected(
  db: Kysely<unknown>,
  names: readonly string[],
  timeoutMs = 10_000,
) {
  const { rows } = await sql<{
    head: string | null;
  }>`SELECT max(position)::text AS head FROM public.events`.execute(db);
  const head = BigInt(rows[0]?.head ?? 0);
  const deadline = Date.now() + timeoutMs;
  while ((await checkpointOf(db, READ_SCHEMA, names)) < head) {
    if (Date.now() > deadline) throw new Error(`read models did not reach position ${head}`);
    await new Promise((resolve) => setImmediate(resolve));
  }
}

/**
 * The position the named projections that are not failed have reached (all of them when every
 * one is): a failed projection (`projection_failures`) is not waited for. One query: the API's
 * wait reads it on every wake-up.
 */
export async function liveCheckpointOf(
  db: Kysely<unknown>,
  schema: string,
  names: readonly string[],
) {
  const { rows } = await sql<{ position: string | null; failed: boolean }>`
    SELECT checkpoint.position, EXISTS (
        SELECT 1 FROM ${sql.table(`${schema}.projection_failures`)} AS failure
        WHERE failure.name = wanted.name) AS failed
    FROM unnest(${[...names]}::text[]) AS wanted(name)
    LEFT JOIN ${sql.table(`${schema}.checkpoints`)} AS checkpoint ON checkpoint.name = wanted.name`.execute(
    db,
  );
  const live = rows.filter((row) => !row.failed);
  return earliest((live.length ? live : rows).map((row) => BigInt(row.position ?? 0)));
}

const PROJECTION_LOCK_SPACE = 730_512;

/**
 * Takes each named projection's transaction lock, in one order so two lockers never deadlock.
 * Projector batches hold their projections' locks; a rebuild holds all of them while it swaps.
 */
export async function lockProjections(trx: Kysely<unknown>, names: readonly string[]) {
  await lockProjectionsSql(names).execute(trx);
}

/** `lockProjections`' query, for a statement that does more in the same round trip. */
export const lockProjectionsSql = (names: readonly string[]) =>
  sql`SELECT pg_advisory_xact_lock(${PROJECTION_LOCK_SPACE}, hashtext(name))
    FROM unnest(${[...names]}::text[]) AS name ORDER BY name`;
