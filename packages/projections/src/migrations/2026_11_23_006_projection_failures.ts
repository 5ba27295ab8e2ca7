import type { Kysely } from 'kysely';

// Frozen: a released migration never changes; later changes are new migrations.

/**
 * A projection that cannot apply an event stops alone: the projector records it here (its
 * checkpoint, the error, since when) and deletes the row once it has resumed. The health route
 * of any API process reads it.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('projection_failures')
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('position', 'bigint', (c) => c.notNull())
    .addColumn('error', 'text', (c) => c.notNull())
    .addColumn('failed_at', 'timestamptz', (c) => c.notNull())
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('projection_failures').execute();
}
