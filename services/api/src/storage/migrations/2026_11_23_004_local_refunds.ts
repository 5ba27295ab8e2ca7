import type { Kysely } from 'kysely';

// Frozen: a released migration never changes; later changes are new migrations.

/**
 * Refunds the local checkout gave (development without Stripe; no money moves): one per invoice.
 * `local_checkout_sessions.status` is plain text and also takes 'paying' (a payment under way).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('local_refunds')
    .addColumn('invoice_id', 'text', (c) => c.primaryKey())
    .addColumn('payment_intent_id', 'text')
    .addColumn('charge_id', 'text')
    .addColumn('amount_minor', 'integer')
    .addColumn('reason', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('local_refunds').execute();
}
