import type { Kysely } from 'kysely';

// Frozen: a released migration never changes; later changes are new migrations.

/**
 * "I don't know my birth time" (`birthTimeUnknown` of `UserProfileUpdated`): true when the
 * person said so, so that reading forms filled from the profile draw a chart without a time.
 * Null otherwise (and on every row before this migration: rebuild or the next change fills it).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('profiles').addColumn('birth_time_unknown', 'boolean').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('profiles').dropColumn('birth_time_unknown').execute();
}
