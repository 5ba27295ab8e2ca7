import type { Kysely } from 'kysely';

// Frozen: a released migration never changes; later changes are new migrations.

/**
 * The profile's birthplace as a found place (`UserBirthPlaceChanged`): name, country, label,
 * coordinates and time zone as one JSON value, so that reading forms filled from the profile
 * need no second look-up. Null while the birth city and country are free text nobody found
 * (and on every row before this migration: rebuild or the next change fills it).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('profiles').addColumn('birth_place', 'jsonb').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('profiles').dropColumn('birth_place').execute();
}
