import { type Kysely, sql } from 'kysely';

// Frozen: a released migration never changes; later changes are new migrations.

/**
 * The voice guide on the library's rows: `voice` is the reading's voice state as the ledger
 * folds it (sessions, reactivations, credits charged, refunds owed), and beside it what the
 * server's sweeps look for: a session being started (`voice_requested_at`) or running
 * (`voice_ends_at`), and a refund owed (`voice_refund_owed`). Rows of older readings had no voice
 * events: their defaults are their state.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('usage_logs')
    .addColumn('voice', 'jsonb', (c) => c.notNull().defaultTo(sql`'{}'::jsonb`))
    .addColumn('voice_session_status', 'text')
    .addColumn('voice_requested_at', 'timestamptz')
    .addColumn('voice_ends_at', 'timestamptz')
    .addColumn('voice_refund_owed', 'boolean', (c) => c.notNull().defaultTo(false))
    .execute();
  // The sweeps read only the few rows with a session under way or a refund owed.
  await db.schema
    .createIndex('usage_logs_voice_due')
    .on('usage_logs')
    .column('log_id')
    .where(sql<boolean>`voice_session_status IS NOT NULL OR voice_refund_owed`)
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('usage_logs_voice_due').execute();
  await db.schema
    .alterTable('usage_logs')
    .dropColumn('voice')
    .dropColumn('voice_session_status')
    .dropColumn('voice_requested_at')
    .dropColumn('voice_ends_at')
    .dropColumn('voice_refund_owed')
    .execute();
}
