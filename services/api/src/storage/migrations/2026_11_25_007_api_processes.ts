import { type Kysely, sql } from 'kysely';

// Frozen: a released migration never changes; later changes are new migrations.

/**
 * Every running API process has a row it beats (on the database's clock), and a pending
 * idempotency claim names the process that holds it: a claim whose process stopped beating (a
 * crash, `kill -9`) is taken over by the next retry at once, instead of after its 5-minute
 * lease. Claims from before this name no process; only their lease frees them.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('api_processes')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('started_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('heartbeat_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.alterTable('idempotency_keys').addColumn('process_id', 'text').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('idempotency_keys').dropColumn('process_id').execute();
  await db.schema.dropTable('api_processes').execute();
}
