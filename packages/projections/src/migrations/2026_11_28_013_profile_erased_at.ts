import { type Kysely, sql } from 'kysely';

// Frozen: a released migration never changes; later changes are new migrations.

/**
 * When the user's personal data was erased (`PersonalDataErased`): the row then keeps only ids,
 * status, role, credit figures and dates. Null for everyone else (and on every row before this
 * migration: rebuild or the next erasure fills it). The API's sweep looks for deleted users not
 * yet erased (an erasure a crash cut short): a partial index keeps that look small.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('profiles').addColumn('erased_at', 'timestamptz').execute();
  await db.schema
    .createIndex('profiles_erasure_pending')
    .on('profiles')
    .column('id')
    .where(sql.ref('status'), '=', 'deleted')
    .where(sql.ref('erased_at'), 'is', null)
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('profiles_erasure_pending').ifExists().execute();
  await db.schema.alterTable('profiles').dropColumn('erased_at').execute();
}
