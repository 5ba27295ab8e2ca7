import type { Kysely } from 'kysely';

// Frozen: a released migration never changes; later changes are new migrations.

/** Checkout sessions of the local checkout page (development without Stripe). */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('local_checkout_sessions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('tier_id', 'integer', (c) => c.notNull())
    .addColumn('billing_type', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('payment_intent_id', 'text')
    .addColumn('subscription_id', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('local_checkout_sessions').execute();
}
