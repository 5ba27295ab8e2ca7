import { type Kysely, sql } from 'kysely';

// Frozen: a released migration never changes; later changes are new migrations.

/** A refund names its payment intent: find the purchase it paid without scanning the ledger. */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createIndex('ledger_entries_payment_intent')
    .on('ledger_entries')
    .expression(sql`(reference->>'paymentIntentId')`)
    .where(sql.ref('type'), '=', 'CreditsGranted')
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('ledger_entries_payment_intent').execute();
}
