import { type Kysely, sql } from 'kysely';

// Frozen: a released migration never changes; later changes are new migrations.

const searched = ['first_name', 'last_name', 'full_name', 'email'] as const;

/**
 * What the admin user search looks in: the four fields, lower-cased, one a line. The query
 * (`services/api/src/modules/admin/userQueries.ts`) writes the same expression, which is how
 * PostgreSQL knows this index serves it.
 */
const searchText = sql`lower(coalesce(first_name, '') || E'\\n' || coalesce(last_name, '') || E'\\n' || coalesce(full_name, '') || E'\\n' || coalesce(email, ''))`;

/**
 * The admin user search through ONE trigram index instead of migration 008's four. A search
 * was four bitmap index scans ORed, each also reading its index's pending list (`fastupdate`:
 * up to 4 MB of entries not yet merged, read in full by every search until a vacuum merges
 * them; megabytes of NULL last names among them). Now it is one expression index over the four
 * fields joined, with `fastupdate` off: a profile's write merges its entries at once, and a
 * search reads only the index proper. Migration 008's indexes serve nothing any more and cost
 * every write of `profiles`: they go.
 *
 * Where `pg_trgm` cannot be had (PGlite as the project opens it; a role that may not create
 * it) nothing is created and the search scans `profiles`, as before.
 */
export async function up(db: Kysely<any>): Promise<void> {
  // A failure inside the block is its own subtransaction: the migration's transaction goes on.
  await sql`DO $$ BEGIN
    CREATE EXTENSION IF NOT EXISTS pg_trgm;
  EXCEPTION WHEN OTHERS THEN
    RAISE NOTICE 'pg_trgm is not available: the admin user search scans profiles';
  END $$`.execute(db);
  const { rows } = await sql<{ schema: string }>`
    SELECT extnamespace::regnamespace::text AS schema FROM pg_extension WHERE extname = 'pg_trgm'`.execute(
    db,
  );
  const schema = rows[0]?.schema;
  if (!schema) return;
  const create = db.schema
    .createIndex('profiles_search_trgm')
    .ifNotExists()
    .on('profiles')
    .using('gin')
    .expression(sql`(${searchText}) ${sql.id(schema.replace(/^"|"$/g, ''), 'gin_trgm_ops')}`)
    .compile();
  // Kysely's index builder has no storage parameters: they follow its statement.
  await sql.raw(`${create.sql} WITH (fastupdate = off)`).execute(db);
  for (const column of searched) {
    await db.schema.dropIndex(`profiles_${column}_trgm`).ifExists().execute();
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('profiles_search_trgm').ifExists().execute();
  const { rows } = await sql<{ schema: string }>`
    SELECT extnamespace::regnamespace::text AS schema FROM pg_extension WHERE extname = 'pg_trgm'`.execute(
    db,
  );
  const schema = rows[0]?.schema;
  if (!schema) return;
  for (const column of searched) {
    await db.schema
      .createIndex(`profiles_${column}_trgm`)
      .ifNotExists()
      .on('profiles')
      .using('gin')
      .expression(sql`${sql.ref(column)} ${sql.id(schema.replace(/^"|"$/g, ''), 'gin_trgm_ops')}`)
      .execute();
  }
}
