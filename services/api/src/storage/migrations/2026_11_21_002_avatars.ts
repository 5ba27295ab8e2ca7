import type { Kysely } from 'kysely';

// Frozen: a released migration never changes; later changes are new migrations.

export async function up(db: Kysely<any>): Promise<void> {
  // Pictures users uploaded, keyed by the sha256 of their bytes (one copy however many use it).
  await db.schema
    .createTable('avatars')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('content_type', 'text', (c) => c.notNull())
    .addColumn('byte_size', 'integer', (c) => c.notNull())
    .addColumn('bytes', 'bytea', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .execute();
  // Who uses each picture: the last user to let go of one removes its bytes.
  await db.schema
    .createTable('avatar_owners')
    .addColumn('avatar_id', 'text', (c) => c.notNull().references('avatars.id'))
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addPrimaryKeyConstraint('avatar_owners_pk', ['avatar_id', 'user_id'])
    .execute();
  await db.schema
    .createIndex('avatar_owners_user_id')
    .on('avatar_owners')
    .column('user_id')
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('avatar_owners').execute();
  await db.schema.dropTable('avatars').execute();
}
