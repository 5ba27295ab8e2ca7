import { type Kysely, sql } from 'kysely';

// Frozen: a released migration never changes; later changes are new migrations.

const searched = ['first_name', 'last_name', 'full_name', 'email'] as const;

/**
 * The admin panel's user search (`GET /api/admin/users?search=`: a case-insensitive substring of
 * first name, last name, full name or e-mail, `ILIKE '%…%'`) served by trigram GIN indexes, one
 * per column (the planner ORs them), where the `pg_trgm` extension exists. PostgreSQL ships it
 * (trusted since 13: the database owner may create it). Where it cannot be had (PGlite as the
 * project opens it, without its contrib `pg_trgm` loaded; or a role that may not create it) the
 * migration creates nothing and the search scans `profiles`; being frozen, it does not come back
 * for the indexes later (a new migration would).
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

export async function down(db: Kysely<any>): Promise<void> {
  for (const column of searched) {
    await db.schema.dropIndex(`profiles_${column}_trgm`).ifExists().execute();
  }
}
