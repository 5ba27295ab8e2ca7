import { type Kysely, type Migration, Migrator, sql } from 'kysely';
import * as sessions001 from './migrations/2026_11_21_001_sessions_and_idempotency.ts';
import * as avatars002 from './migrations/2026_11_21_002_avatars.ts';
import * as localCheckout003 from './migrations/2026_11_21_003_local_checkout.ts';
import * as localRefunds004 from './migrations/2026_11_23_004_local_refunds.ts';
import * as idempotencyLease005 from './migrations/2026_11_23_005_idempotency_lease.ts';
import * as readingDrafts006 from './migrations/2026_11_24_006_reading_drafts.ts';
import * as apiProcesses007 from './migrations/2026_11_25_007_api_processes.ts';
import * as reactorOutbox008 from './migrations/2026_11_28_008_reactor_outbox.ts';
import type { AppTables } from './schema.ts';

export const APP_SCHEMA = 'app';

const migrations: Record<string, Migration> = {
  '2026_11_21_001_sessions_and_idempotency': sessions001,
  '2026_11_21_002_avatars': avatars002,
  '2026_11_21_003_local_checkout': localCheckout003,
  '2026_11_23_004_local_refunds': localRefunds004,
  '2026_11_23_005_idempotency_lease': idempotencyLease005,
  '2026_11_24_006_reading_drafts': readingDrafts006,
  '2026_11_25_007_api_processes': apiProcesses007,
  '2026_11_28_008_reactor_outbox': reactorOutbox008,
};

export type AppDb = Kysely<AppTables>;

export const appTables = (db: Kysely<unknown>) => db.withSchema(APP_SCHEMA) as unknown as AppDb;

export async function migrateAppTables(db: Kysely<unknown>) {
  await sql`CREATE SCHEMA IF NOT EXISTS ${sql.id(APP_SCHEMA)}`.execute(db);
  const { error } = await new Migrator({
    db: db.withSchema(APP_SCHEMA),
    provider: { getMigrations: async () => migrations },
    migrationTableSchema: APP_SCHEMA,
  }).migrateToLatest();
  if (error) throw new Error(`App table migration failed: ${String(error)}`, { cause: error });
}
