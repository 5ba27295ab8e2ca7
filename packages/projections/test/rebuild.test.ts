import { randomUUID } from 'node:crypto';
import { type Kysely, sql } from 'kysely';
import { expect, it } from 'vitest';
import {
  BULK_COLUMNS,
  joinStatements,
  prepareInsert,
  runStatements,
  writeRowsQuery,
} from '../src/bulkInsert.ts';
import type { ReadDb } from '../src/database.ts';
import {
  allProjections,
  Projector,
  READ_SCHEMA,
  readModels,
  rebuildReadModels,
  verifyLedger,
} from '../src/index.ts';
import { onEachDatabase } from './databases.ts';
import { dumpReadModels, freshStorage, randomHistory } from './support.ts';

/** Every index of `schema`'s tables, by name, its definition without the schema's name. */
async function indexesOf(db: Kysely<unknown>, schema: string) {
  const { rows } = await sql<{ name: string; definition: string }>`
    SELECT indexname AS name, indexdef AS definition FROM pg_indexes
    WHERE schemaname = ${schema} ORDER BY indexname`.execute(db);
  return rows.map((row) => ({
    name: row.name,
    definition: row.definition.replaceAll(`${schema}.`, ''),
  }));
}

onEachDatabase('rebuild', (kind) => {
  const open = freshStorage(kind);

  it('rebuilds a random history into the tables the projector builds event by event, row for row, with the same indexes, and verify finds them clean', async () => {
    const { store, db } = await open();
    const fresh = await indexesOf(db, READ_SCHEMA);
    for (const seed of [3, 2027]) {
      // The second with Stripe's payouts and disputes (credits held, freed, taken back) too.
      const stripe = seed === 2027;
      await randomHistory(store, {
        commands: 700,
        users: 20,
        seed,
        payouts: stripe,
        disputes: stripe,
      });
      // Incrementally: small batches, as the live projector applies them.
      await new Projector(store, db, allProjections, { batchSize: 31 }).catchUp();
      const incremental = await dumpReadModels(db);
      // Rows in memory kept to a few, so the replay also writes and reads rows back on the way.
      const report = await rebuildReadModels(store, db, { batchSize: 113, rowsInMemory: 7 });
      let total = 0;
      for await (const _ of store.readAll()) total++;
      expect(report.events).toBe(total);
      expect(await dumpReadModels(db)).toEqual(incremental);
      expect(await indexesOf(db, READ_SCHEMA)).toEqual(fresh);
      expect((await verifyLedger(store, db)).differences).toEqual([]);
    }
    // The projector carries on over the rebuilt tables.
    const before = await dumpReadModels(db);
    await randomHistory(store, { commands: 60, users: 3, seed: 9 });
    await new Projector(store, db, allProjections).catchUp();
    const after = await dumpReadModels(db);
    expect(after.ledger_entries!.length).toBeGreaterThan(before.ledger_entries!.length);
    expect((await verifyLedger(store, db)).differences).toEqual([]);
  }, 300_000);

  it('the typed bulk insert, by COPY and in one statement: its column maps are the tables of a migrated schema, it keeps any text, refuses a value its column cannot hold, and replaces a row by its key', async () => {
    const { db } = await open();
    const { rows } = await sql<{ table: string; column: string; type: string }>`
      SELECT c.relname AS table, a.attname AS column, format_type(a.atttypid, a.atttypmod) AS type
      FROM pg_attribute a
      JOIN pg_class c ON c.oid = a.attrelid
      JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE n.nspname = ${READ_SCHEMA} AND c.relname = ANY(${Object.keys(BULK_COLUMNS)}::text[])
        AND a.attnum > 0 AND NOT a.attisdropped
      ORDER BY c.relname, a.attnum`.execute(db);
    const catalog: Record<string, Record<string, string>> = {};
    for (const row of rows) {
      catalog[row.table] ??= {};
      catalog[row.table]![row.column] = row.type
        .replace('timestamp with time zone', 'timestamptz')
        .replace('character varying', 'text');
    }
    const maps = Object.fromEntries(
      Object.entries(BULK_COLUMNS).map(([table, columns]) => [table, { ...columns }]),
    );
    expect(maps).toEqual(catalog);

    const read = readModels(db);
    type Row = Parameters<typeof writeRowsQuery<'usage_logs'>>[1][number];
    const ways = {
      copy: (trx: ReadDb, rows: Row[]) => prepareInsert('usage_logs', rows)(trx),
      statement: (trx: ReadDb, rows: Row[]) =>
        runStatements(trx, [writeRowsQuery('usage_logs', rows, 'log_id')!]),
    };
    const awkward = 'tab\there, line\nbreak, back\\slash, "quotes", {braces}, \\N, NULL, é ☾';
    for (const [way, write] of Object.entries(ways)) {
      // The bulk insert writes to the transaction's `search_path`, as the projector sets it.
      const insert = (rows: Row[]) =>
        db.transaction().execute(async (trx) => {
          await sql`SELECT set_config('search_path', ${READ_SCHEMA}, true)`.execute(trx);
          await write(readModels(trx), rows);
        });
      const id = randomUUID();
      const row: Row = {
        log_id: id,
        user_id: awkward,
        app_id: 3,
        app_name: '',
        question: null,
        input_data: JSON.stringify({ question: awkward }),
        reading_result_id: id,
        reading_result_content: '{}',
        status: 'pending',
        credits_charged: 4,
        voice_agent_used: false,
        voice_reactivation: true,
        voice_credits_charged: 0,
        created_at: new Date('2026-11-27T08:00:00.123Z'),
        reading_revision: 0n,
        voice: '{}',
        voice_requested_at: '2026-11-27T09:00:00+02:00',
        voice_refund_owed: false,
      };
      await insert([row]);
      const stored = () =>
        read
          .selectFrom('usage_logs')
          .selectAll()
          .where('log_id', '=', id)
          .executeTakeFirstOrThrow();
      expect(await stored(), way).toMatchObject({
        user_id: awkward,
        app_name: '',
        question: null,
        first_name: null,
        input_data: { question: awkward },
        credits_charged: 4,
        voice_reactivation: true,
        created_at: new Date('2026-11-27T08:00:00.123Z'),
        reading_revision: '0',
        voice_requested_at: new Date('2026-11-27T07:00:00Z'),
        voice_session_status: null,
      });
      const json = { input_data: '{}', reading_result_content: '{}', voice: '{}' };
      await expect(
        insert([{ ...(await stored()), ...json, log_id: randomUUID(), credits_charged: 1.5 }]),
        way,
      ).rejects.toThrow(/usage_logs\.credits_charged: not an integer: 1\.5/);
      if (way === 'statement') {
        // Written again under its key: the stored row is replaced, every column of it.
        await insert([{ ...row, user_id: 'someone', question: 'Why?', voice_requested_at: null }]);
        expect(await stored()).toMatchObject({
          user_id: 'someone',
          question: 'Why?',
          voice_requested_at: null,
          credits_charged: 4,
        });
        // Two tables' writes as one statement, their parameters numbered on.
        const user = randomUUID();
        await db.transaction().execute(async (trx) => {
          await sql`SELECT set_config('search_path', ${READ_SCHEMA}, true)`.execute(trx);
          await trx.executeQuery(
            joinStatements([
              writeRowsQuery('admin_stats_users', [
                { user_id: user, status: 'active', user_revision: '3', credits_revision: '7' },
              ])!,
              writeRowsQuery('usage_logs', [{ ...row, question: 'Joined?' }], 'log_id')!,
            ]),
          );
        });
        expect(await stored()).toMatchObject({ user_id: awkward, question: 'Joined?' });
        expect(
          await read
            .selectFrom('admin_stats_users')
            .selectAll()
            .where('user_id', '=', user)
            .executeTakeFirst(),
        ).toEqual({ user_id: user, status: 'active', user_revision: '3', credits_revision: '7' });
      }
    }
  });
});
