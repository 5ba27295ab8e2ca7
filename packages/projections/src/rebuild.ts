import type { EventStore } from '@astra/event-store';
import { type Kysely, sql } from 'kysely';
import { checkpointOf } from './checkpoints.ts';
import { READ_SCHEMA } from './database.ts';
import { migrateReadModels } from './migrations/index.ts';
import { allProjections, type Projection } from './projections/index.ts';
import { PROJECTOR_LOCK, Projector } from './projector.ts';

export interface RebuildReport {
  events: number;
  position: bigint;
  milliseconds: number;
}

/**
 * Replays every event from zero into fresh read-model tables in a schema of their own, then swaps
 * that schema in for the live one in one transaction. A projector running meanwhile keeps the
 * live tables current until the swap and continues on the new ones after it.
 */
export async function rebuildReadModels(
  store: EventStore,
  db: Kysely<unknown>,
  {
    projections = allProjections,
    batchSize = 5000,
  }: { projections?: readonly Projection[]; batchSize?: number } = {},
): Promise<RebuildReport> {
  const started = performance.now();
  const target = `read_rebuild_${process.pid}_${Date.now()}`;
  const retired = `read_retired_${process.pid}_${Date.now()}`;
  const names = projections.map((p) => p.name);
  await migrateReadModels(db, target);
  const projector = new Projector(store, db, projections, { schema: target, batchSize });
  try {
    for (let attempt = 0; ; attempt++) {
      await projector.catchUp();
      const position = projector.position;
      // The live projector may have moved past what the rebuild read; then read on and try again.
      const swapped = await db.transaction().execute(async (trx) => {
        await sql`SELECT pg_advisory_xact_lock(${PROJECTOR_LOCK})`.execute(trx);
        const live = await sql<{
          exists: boolean;
        }>`SELECT to_regclass(${`${READ_SCHEMA}.checkpoints`}) IS NOT NULL AS exists`.execute(trx);
        if (
          live.rows[0]?.exists &&
          (await checkpointOf(trx, READ_SCHEMA, names)) > position &&
          attempt < 20
        ) {
          return false;
        }
        if (live.rows[0]?.exists) {
          await sql`ALTER SCHEMA ${sql.id(READ_SCHEMA)} RENAME TO ${sql.id(retired)}`.execute(trx);
        }
        await sql`ALTER SCHEMA ${sql.id(target)} RENAME TO ${sql.id(READ_SCHEMA)}`.execute(trx);
        await sql`DROP SCHEMA IF EXISTS ${sql.id(retired)} CASCADE`.execute(trx);
        return true;
      });
      if (swapped)
        return { events: projector.applied, position, milliseconds: performance.now() - started };
    }
  } catch (error) {
    await sql`DROP SCHEMA IF EXISTS ${sql.id(target)} CASCADE`.execute(db).catch(() => {});
    throw error;
  }
}
