import { type Kysely, sql } from 'kysely';

// Frozen: a released migration never changes; later changes are new migrations.

/**
 * The admin dashboard's daily series (`admin_stats_daily`, one row per UTC day that had an event
 * of the user or credit streams) and the moment the counters are as of (`admin_stats.as_of`,
 * the newest applied event's `occurredAt`). Revenue is kept by currency, in minor units, as a
 * JSON object (`{"usd": 1799}`).
 *
 * The days before this migration are filled the way every other row is: the `admin_stats`
 * projection starts over (its counters, its memory of users and its checkpoint are reset), so
 * the projector replays the history into it while the other projections stay where they are.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('admin_stats_daily')
    .addColumn('day', 'date', (c) => c.primaryKey())
    .addColumn('signups', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('credits_used', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('revenue_minor', 'jsonb', (c) => c.notNull().defaultTo(sql`'{}'::jsonb`))
    .execute();
  await db.schema.alterTable('admin_stats').addColumn('as_of', 'timestamptz').execute();

  await db.deleteFrom('checkpoints').where('name', '=', 'admin_stats').execute();
  await db.deleteFrom('admin_stats_users').execute();
  await db
    .updateTable('admin_stats')
    .set({
      total_users: 0,
      active_users: 0,
      blocked_users: 0,
      deleted_users: 0,
      total_credits_used: 0,
      total_credits_granted: 0,
    })
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('admin_stats').dropColumn('as_of').execute();
  await db.schema.dropTable('admin_stats_daily').execute();
}
