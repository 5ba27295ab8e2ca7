import { type Kysely, sql } from 'kysely';
import { readModels } from './database.ts';

const earliest = (positions: bigint[]) => positions.reduce((min, p) => (p < min ? p : min));

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
 * The position the named projections that are not failed have reached (all of them when every
 * one is): a failed projection (`projection_failures`) is not waited for.
 */
export async function liveCheckpointOf(
  db: Kysely<unknown>,
  schema: string,
  names: readonly string[],
) {
  const failed = new Set(
    (
      await readModels(db, schema)
        .selectFrom('projection_failures')
        .select('name')
        .where('name', 'in', [...names])
        .execute()
    ).map((row) => row.name),
  );
  const live = names.filter((name) => !failed.has(name));
  return checkpointOf(db, schema, live.length ? live : names);
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
