import { type Kysely, type Migration, Migrator, sql } from 'kysely';
import * as readModels001 from './2026_11_21_001_read_models.ts';
import * as feedback002 from './2026_11_21_002_feedback.ts';
import * as ledgerPaymentLookup003 from './2026_11_21_003_ledger_payment_lookup.ts';
import * as creditLots004 from './2026_11_23_004_credit_lots.ts';
import * as creditBigints005 from './2026_11_23_005_credit_bigints.ts';
import * as projectionFailures006 from './2026_11_23_006_projection_failures.ts';
import * as adminStatsDaily007 from './2026_11_23_007_admin_stats_daily.ts';
import * as adminUserSearch008 from './2026_11_23_008_admin_user_search.ts';
import * as adminUserSearchText009 from './2026_11_23_009_admin_user_search_text.ts';
import * as voiceSessions010 from './2026_11_23_010_voice_sessions.ts';
import * as verifyAndRebuildRuns011 from './2026_11_24_011_verify_and_rebuild_runs.ts';
import * as profileBirthPlace012 from './2026_11_27_012_profile_birth_place.ts';
import * as profileErasedAt013 from './2026_11_28_013_profile_erased_at.ts';
import * as profileBirthTimeUnknown014 from './2026_11_29_014_profile_birth_time_unknown.ts';
import * as ledgerEntryCodes015 from './2026_11_29_015_ledger_entry_codes.ts';

/** Every read-model migration in order; names are frozen once released. */
export const READ_MODEL_MIGRATIONS: Record<string, Migration> = {
  '2026_11_21_001_read_models': readModels001,
  '2026_11_21_002_feedback': feedback002,
  '2026_11_21_003_ledger_payment_lookup': ledgerPaymentLookup003,
  '2026_11_23_004_credit_lots': creditLots004,
  '2026_11_23_005_credit_bigints': creditBigints005,
  '2026_11_23_006_projection_failures': projectionFailures006,
  '2026_11_23_007_admin_stats_daily': adminStatsDaily007,
  '2026_11_23_008_admin_user_search': adminUserSearch008,
  '2026_11_23_009_admin_user_search_text': adminUserSearchText009,
  '2026_11_23_010_voice_sessions': voiceSessions010,
  '2026_11_24_011_verify_and_rebuild_runs': verifyAndRebuildRuns011,
  '2026_11_27_012_profile_birth_place': profileBirthPlace012,
  '2026_11_28_013_profile_erased_at': profileErasedAt013,
  '2026_11_29_014_profile_birth_time_unknown': profileBirthTimeUnknown014,
  '2026_11_29_015_ledger_entry_codes': ledgerEntryCodes015,
};

/** Brings the read models in `schema` up to date (creating the schema when missing). */
export async function migrateReadModels(db: Kysely<unknown>, schema: string) {
  await sql`CREATE SCHEMA IF NOT EXISTS ${sql.id(schema)}`.execute(db);
  const migrator = new Migrator({
    db: db.withSchema(schema),
    provider: { getMigrations: async () => READ_MODEL_MIGRATIONS },
    migrationTableSchema: schema,
  });
  const { error, results } = await migrator.migrateToLatest();
  if (error) {
    const failed = results?.find((r) => r.status === 'Error')?.migrationName;
    throw new Error(`Read-model migration ${failed ?? ''} failed: ${String(error)}`, {
      cause: error,
    });
  }
}
