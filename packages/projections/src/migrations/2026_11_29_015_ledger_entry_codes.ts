import type { Kysely } from 'kysely';

// Frozen: a released migration never changes; later changes are new migrations.

/**
 * Ledger entries keep codes and parameters, not sentences: `kind` (the type's group) and
 * `details` (the parameters its words are built from, `ledgerDetailsOf`) replace the stored
 * `reason` text, which is now written at read time (`ledgerEntryDescription`). The details come
 * from the events, so the ledger_entries projection is replayed from the start: its rows and
 * checkpoint are cleared and the projector fills them again.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.deleteFrom('ledger_entries').execute();
  await db.deleteFrom('checkpoints').where('name', '=', 'ledger_entries').execute();
  await db.schema
    .alterTable('ledger_entries')
    .dropColumn('reason')
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('details', 'jsonb', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.deleteFrom('ledger_entries').execute();
  await db.deleteFrom('checkpoints').where('name', '=', 'ledger_entries').execute();
  await db.schema
    .alterTable('ledger_entries')
    .dropColumn('kind')
    .dropColumn('details')
    .addColumn('reason', 'text', (c) => c.notNull())
    .execute();
}
