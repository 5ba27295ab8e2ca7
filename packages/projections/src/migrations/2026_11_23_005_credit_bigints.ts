import type { Kysely } from 'kysely';

// Frozen: a released migration never changes; later changes are new migrations.

/** Every credit amount, balance and counter of the read models, by table. */
const CREDIT_COLUMNS: Record<string, readonly string[]> = {
  profiles: [
    'remaining_credits',
    'credits',
    'credits_per_month',
    'credits_rollover_remaining',
    'subscription_credits',
    'free_credits',
    'promotional_credits',
    'purchased_credits',
  ],
  ledger_entries: ['amount', 'balance_after', 'credits_after'],
  admin_stats: [
    'total_users',
    'active_users',
    'blocked_users',
    'deleted_users',
    'total_credits_used',
    'total_credits_granted',
  ],
  usage_logs: ['credits_charged', 'voice_credits_charged'],
};

/**
 * Credits are `bigint`: a balance, or the admin total over all accounts, past 2^31 − 1 (history
 * from before the ledger's ceiling, or a total over many accounts) overflowed `integer` and held
 * every projection. The values stay as they are; reads turn them into numbers (`database.ts`).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await alterTypes(db, 'bigint');
}

export async function down(db: Kysely<any>): Promise<void> {
  await alterTypes(db, 'integer');
}

async function alterTypes(db: Kysely<any>, type: 'bigint' | 'integer') {
  for (const [table, columns] of Object.entries(CREDIT_COLUMNS)) {
    // One statement per table: the table is rewritten once.
    let alter = db.schema.alterTable(table).alterColumn(columns[0]!, (c) => c.setDataType(type));
    for (const column of columns.slice(1)) {
      alter = alter.alterColumn(column, (c) => c.setDataType(type));
    }
    await alter.execute();
  }
}
