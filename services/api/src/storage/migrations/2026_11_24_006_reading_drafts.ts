import { type Kysely, sql } from 'kysely';

// Frozen: a released migration never changes; later changes are new migrations.

/**
 * The text of a reading while it is being written (its facts, and the text so far), where every
 * API process can read it: a reader's stream may land on another process than the writer's.
 * A row lives from the spend to the recorded result or failure; `run` names one writing of it.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('reading_drafts')
    .addColumn('reading_id', 'text', (c) => c.primaryKey())
    .addColumn('run', 'text', (c) => c.notNull())
    .addColumn('result', 'jsonb', (c) => c.notNull())
    .addColumn('text', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema
    .createIndex('reading_drafts_updated_at')
    .on('reading_drafts')
    .column('updated_at')
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('reading_drafts').execute();
}
