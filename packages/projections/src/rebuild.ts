import type { EventStore } from '@astra/event-store';
import { type Kysely, sql } from 'kysely';
import { checkpointOf, lockProjections } from './checkpoints.ts';
import { READ_SCHEMA } from './database.ts';
import { migrateReadModels } from './migrations/index.ts';
import { allProjections } from './projections/index.ts';
import { Projector } from './projector.ts';

export interface RebuildReport {
  events: number;
  position: bigint;
  milliseconds: number;
}

/** Catalogue tables seeded by migrations and edited in place: a rebuild carries them over. */
const REFERENCE_TABLES = ['apps', 'pricing_tiers', 'pricing_rows'] as const;
const ATTEMPTS = 20;

/**
 * Replays every event from zero into fresh read-model tables in a schema of their own, then swaps
 * that schema in for the live one in one transaction. A projector running meanwhile keeps the
 * live tables current until the swap (it is held by the projections' locks during it) and
 * continues on the new ones after it.
 */
export async function rebuildReadModels(
  store: EventStore,
  db: Kysely<unknown>,
  { batchSize = 5000 }: { batchSize?: number } = {},
): Promise<RebuildReport> {
  const started = performance.now();
  const target = `read_rebuild_${process.pid}_${Date.now()}`;
  const retired = `read_retired_${process.pid}_${Date.now()}`;
  const names = allProjections.map((p) => p.name);
  await migrateReadModels(db, READ_SCHEMA);
  await migrateReadModels(db, target);
  await copyReferenceTables(db, READ_SCHEMA, target);
  const projector = new Projector(store, db, allProjections, { schema: target, batchSize });
  try {
    for (let attempt = 1; attempt <= ATTEMPTS; attempt++) {
      await projector.catchUp();
      const position = projector.position;
      const swapped = await db.transaction().execute(async (trx) => {
        await lockProjections(trx, names);
        // The live projector moved past what the rebuild read: read on, then try again.
        if ((await checkpointOf(trx, READ_SCHEMA, names)) > position) return false;
        await sql`ALTER SCHEMA ${sql.id(READ_SCHEMA)} RENAME TO ${sql.id(retired)}`.execute(trx);
        await sql`ALTER SCHEMA ${sql.id(target)} RENAME TO ${sql.id(READ_SCHEMA)}`.execute(trx);
        await sql`DROP SCHEMA ${sql.id(retired)} CASCADE`.execute(trx);
        return true;
      });
      if (swapped) {
        return { events: projector.applied, position, milliseconds: performance.now() - started };
      }
    }
    throw new Error(
      `The live projector kept moving ahead; the read models were not swapped after ${ATTEMPTS} attempts`,
    );
  } catch (error) {
    await sql`DROP SCHEMA IF EXISTS ${sql.id(target)} CASCADE`.execute(db).catch(() => {});
    throw error;
  }
}

async function copyReferenceTables(db: Kysely<unknown>, from: string, to: string) {
  await db.transaction().execute(async (trx) => {
    for (const table of [...REFERENCE_TABLES].reverse()) {
      await sql`DELETE FROM ${sql.table(`${to}.${table}`)}`.execute(trx);
    }
    for (const table of REFERENCE_TABLES) {
      await sql`INSERT INTO ${sql.table(`${to}.${table}`)} SELECT * FROM ${sql.table(`${from}.${table}`)}`.execute(
        trx,
      );
    }
  });
}
