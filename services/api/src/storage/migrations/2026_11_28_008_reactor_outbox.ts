import { type Kysely, sql } from 'kysely';

// Frozen: a released migration never changes; later changes are new migrations.

/**
 * Reactors (events in, side effects out: e-mail) keep where they are in the log
 * (`reactor_checkpoints`) and every side effect an event called for (`outbox`), with its outcome:
 * an effect is recorded once by its key, and sent until it is sent or parked. Here, not in the
 * read schema: a rebuild of the read models must neither forget nor repeat a message.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('reactor_checkpoints')
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('position', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema
    .createTable('outbox')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('reactor', 'text', (c) => c.notNull())
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text')
    .addColumn('recipient', 'text')
    .addColumn('payload', 'jsonb')
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('next_attempt_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('last_error', 'text')
    .addColumn('provider_id', 'text')
    .addColumn('claimed_by', 'text')
    .addColumn('claimed_until', 'timestamptz')
    .addColumn('erase_after_send', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('event_at', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('sent_at', 'timestamptz')
    .addUniqueConstraint('outbox_reactor_key', ['reactor', 'key'])
    .execute();
  // What a sender looks for: the due messages of a reactor.
  await db.schema
    .createIndex('outbox_due')
    .on('outbox')
    .columns(['reactor', 'next_attempt_at'])
    .where(sql<boolean>`status IN ('pending', 'sending')`)
    .execute();
  await db.schema.createIndex('outbox_user').on('outbox').column('user_id').execute();
  await db.schema
    .createIndex('outbox_created')
    .on('outbox')
    .columns(['reactor', 'created_at'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('outbox').execute();
  await db.schema.dropTable('reactor_checkpoints').execute();
}
