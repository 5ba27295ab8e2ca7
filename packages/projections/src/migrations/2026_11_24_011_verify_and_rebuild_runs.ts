import { type Kysely, sql } from 'kysely';

// Frozen: a released migration never changes; later changes are new migrations.

/**
 * The projections page's records (issue 12), kept beside the read models: each `ledger:verify`
 * result (from the command line or the admin panel) and each rebuild with its progress. They are
 * no projection of the log: a rebuild carries their rows over into the schema it swaps in.
 * At most one rebuild is `running` at a time, across processes (the unique index).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('verify_runs')
    .addColumn('id', 'uuid', (c) => c.primaryKey())
    .addColumn('at', 'timestamptz', (c) => c.notNull())
    .addColumn('ok', 'boolean', (c) => c.notNull())
    .addColumn('lines', 'jsonb', (c) => c.notNull())
    .addColumn('source', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('verify_runs_at').on('verify_runs').column('at').execute();

  await db.schema
    .createTable('rebuild_runs')
    .addColumn('id', 'uuid', (c) => c.primaryKey())
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('started_at', 'timestamptz', (c) => c.notNull())
    .addColumn('finished_at', 'timestamptz')
    .addColumn('heartbeat_at', 'timestamptz', (c) => c.notNull())
    .addColumn('replayed', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('target', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('error', 'text')
    .addColumn('schema_name', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('rebuild_runs_one_running')
    .on('rebuild_runs')
    .column('state')
    .unique()
    .where(sql<boolean>`state = 'running'`)
    .execute();
  await db.schema
    .createIndex('rebuild_runs_started_at')
    .on('rebuild_runs')
    .column('started_at')
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('rebuild_runs').execute();
  await db.schema.dropTable('verify_runs').execute();
}
