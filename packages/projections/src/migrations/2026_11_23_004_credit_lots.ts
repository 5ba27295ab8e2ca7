import { type Kysely, sql } from 'kysely';

// Frozen: a released migration never changes; later changes are new migrations.

/**
 * Profiles keep the balance in lots by source (only subscription credits are capped at a
 * renewal). The lots come from the events, so the profiles projection is replayed from the
 * start: its rows and checkpoint are cleared and the projector fills them again.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('profiles')
    .addColumn('credit_lots', 'jsonb', (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
    .addColumn('subscription_credits', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('free_credits', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('promotional_credits', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('purchased_credits', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.deleteFrom('profiles').execute();
  await db.deleteFrom('checkpoints').where('name', '=', 'profiles').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('profiles')
    .dropColumn('credit_lots')
    .dropColumn('subscription_credits')
    .dropColumn('free_credits')
    .dropColumn('promotional_credits')
    .dropColumn('purchased_credits')
    .execute();
}
