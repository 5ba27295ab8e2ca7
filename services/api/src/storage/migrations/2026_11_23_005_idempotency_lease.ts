import type { Kysely } from 'kysely';

// Frozen: a released migration never changes; later changes are new migrations.

/**
 * A pending idempotency claim holds a lease (on the database's clock) and names its holder: a
 * claim whose request was cut off (a crash, `kill -9`) is taken over once the lease runs out,
 * instead of answering `request_in_progress` until the key is purged. Claims from before this
 * have neither; their lease counts from `created_at`.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('idempotency_keys')
    .addColumn('lease_until', 'timestamptz')
    .addColumn('claim_token', 'text')
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('idempotency_keys')
    .dropColumn('lease_until')
    .dropColumn('claim_token')
    .execute();
}
