import { randomUUID } from 'node:crypto';
import { ADMIN_USERS_COUNT_LIMIT } from '@astra/contracts';
import { openStorage } from '@astra/event-store';
import {
  createThrowawayDatabase,
  pgliteTemplate,
  postgresReachable,
} from '@astra/event-store/testing';
import {
  databaseFor,
  migrateReadModels,
  READ_SCHEMA,
  type ReadDb,
  readModels,
} from '@astra/projections';
import { type CompiledQuery, Kysely, PostgresDialect, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ADMIN_USERS_PAGE_SIZE,
  adminUsersPage,
  BROAD_SEARCH_WALK,
} from '../src/modules/admin/userQueries.ts';

/**
 * The admin user search (`adminUsersPage`) against its definition, on PGlite (no `pg_trgm`: a
 * scan) and PostgreSQL (migration 009's trigram index): a case-insensitive substring of one of
 * four fields, deleted accounts left out, newest first (then by id), counted up to the cap. The
 * reference answer is computed here from the rows inserted.
 */

interface Row {
  id: string;
  email: string | null;
  first_name: string | null;
  last_name: string | null;
  full_name: string | null;
  status: string;
  created_at: string;
}

const USERS = BROAD_SEARCH_WALK + 2_000;
const base = Date.UTC(2026, 0, 1);

/** The rows: broad terms of several spreads, narrow ones, ties on `created_at`, deletions. */
function rowsOf(): Row[] {
  const rows: Row[] = [];
  for (let i = 0; i < USERS; i++) {
    rows.push({
      id: randomUUID(),
      // Every user: "Common" in the e-mail; pairs share their moment (ids decide between them).
      email: i % 97 === 0 ? null : `user${i}.common@example.com`,
      first_name: i % 3 === 0 ? null : `Tenth${i % 10 === 0 ? 'X' : ''} ${i}`,
      // The oldest 1,500 only: a broad term with no match among the newest users.
      last_name: i < 1_500 ? `Oldname${i}` : i % 5 === 0 ? null : `Last${i}`,
      full_name: i % 7 === 0 ? `Seventh Person ${i}` : null,
      status: i % 50 === 0 ? 'deleted' : i % 11 === 0 ? 'blocked' : 'active',
      created_at: new Date(base + Math.floor(i / 2) * 60_000).toISOString(),
    });
  }
  const special = (fields: Partial<Row>) =>
    rows.push({
      id: randomUUID(),
      email: null,
      first_name: null,
      last_name: null,
      full_name: null,
      status: 'active',
      created_at: new Date(base - 86_400_000).toISOString(),
      ...fields,
    });
  special({ first_name: 'Qx', last_name: 'Zy' });
  special({ email: 'under_score@Example.com' });
  special({ full_name: '100% Sure' });
  special({ first_name: 'Back\\slash' });
  return rows;
}

const lower = (text: string) => text.toLowerCase();

/** The search by its definition. */
function expected(rows: Row[], search: string, page: number) {
  const term = lower(search.trim());
  const matches = rows
    .filter((row) => row.status !== 'deleted')
    .filter(
      (row) =>
        !term ||
        [row.first_name, row.last_name, row.full_name, row.email].some(
          (field) => field !== null && lower(field).includes(term),
        ),
    )
    .sort((a, b) =>
      a.created_at !== b.created_at
        ? a.created_at < b.created_at
          ? 1
          : -1
        : a.id < b.id
          ? 1
          : a.id > b.id
            ? -1
            : 0,
    );
  const offset = (page - 1) * ADMIN_USERS_PAGE_SIZE;
  return {
    ids: matches.slice(offset, offset + ADMIN_USERS_PAGE_SIZE).map((row) => row.id),
    total: Math.min(matches.length, ADMIN_USERS_COUNT_LIMIT),
    totalCapped: matches.length > ADMIN_USERS_COUNT_LIMIT,
  };
}

for (const kind of ['pglite', 'postgres'] as const) {
  describe(`the admin user search (${kind === 'pglite' ? 'PGlite' : 'PostgreSQL'})`, () => {
    const rows = rowsOf();
    let read: ReadDb;
    let queries: CompiledQuery[] = [];
    let dispose = async () => {};
    let skipped = false;

    beforeAll(async () => {
      if (kind === 'postgres' && !(await postgresReachable())) {
        skipped = true;
        return;
      }
      const database = kind === 'postgres' ? await createThrowawayDatabase() : undefined;
      const storage = await openStorage(
        database
          ? { databaseUrl: database.url, dataDir: null }
          : { dataDir: null, pgliteTemplate: await pgliteTemplate() },
      );
      const connection = storage.connection;
      // On PostgreSQL, every query is kept, to ask the planner about it.
      const db =
        connection.kind === 'postgres'
          ? new Kysely<unknown>({
              dialect: new PostgresDialect({
                pool: { connect: () => connection.pool.connect(), end: async () => {} },
              }),
              log: (event) => {
                if (event.level === 'query') queries.push(event.query);
              },
            })
          : databaseFor(connection);
      await migrateReadModels(db, READ_SCHEMA);
      for (let i = 0; i < rows.length; i += 2_000) {
        await sql`INSERT INTO ${sql.id(READ_SCHEMA, 'profiles')}
            (id, email, first_name, last_name, full_name, status, created_at, updated_at)
          SELECT id, email, first_name, last_name, full_name, status, created_at, created_at
          FROM json_to_recordset(${JSON.stringify(rows.slice(i, i + 2_000))}) AS r(
            id text, email text, first_name text, last_name text, full_name text, status text,
            created_at timestamptz)`.execute(db);
      }
      read = readModels(db);
      dispose = async () => {
        await db.destroy();
        await storage.close();
        await database?.drop();
      };
    }, 120_000);
    afterAll(() => dispose());

    const check = async (search: string, page: number) => {
      const answer = await adminUsersPage(read, search || undefined, page);
      expect(
        {
          ids: answer.items.map((user) => user.id),
          total: answer.total,
          totalCapped: answer.totalCapped,
        },
        `${JSON.stringify(search)} page ${page}`,
      ).toEqual(expected(rows, search, page));
      return answer;
    };

    it('finds a match in each of the four fields, case-insensitively, newest first', async (context) => {
      if (skipped) return context.skip();
      expect((await check('QX', 1)).items).toHaveLength(1); // first name
      expect((await check('zY', 1)).items).toHaveLength(1); // last name
      expect((await check('seventh person 70', 1)).items.length).toBeGreaterThan(1); // full name
      expect((await check('USER4242.COMMON@', 1)).items).toHaveLength(1); // e-mail
      await check('nobody-at-all', 1);
      await check('tenthx 1', 1);
    });

    it('takes % and _ and the escape as characters, and never matches across two fields', async (context) => {
      if (skipped) return context.skip();
      expect((await check('under_score', 1)).items).toHaveLength(1);
      expect((await check('common_example', 1)).items).toHaveLength(0); // not any one character
      expect((await check('user1%common', 1)).items).toHaveLength(0); // not any characters
      expect((await check('100% s', 1)).items).toHaveLength(1);
      expect((await check('0%', 1)).items).toHaveLength(1);
      expect((await check('k\\s', 1)).items).toHaveLength(1);
      expect((await check('%', 1)).items).toHaveLength(1);
      // First name "Qx" and last name "Zy", joined by the index's line break: not one field.
      expect((await check('qx\nzy', 1)).items).toHaveLength(0);
      expect((await check('x\nz', 1)).items).toHaveLength(0);
    });

    it('pages broad terms (past the cap) exactly, wherever their matches are', async (context) => {
      if (skipped) return context.skip();
      for (const page of [1, 2, 50, 51, 80]) {
        await check('common', page); // everyone: found among the newest
        await check('tenthx', page); // one in ten
        await check('oldname', page); // only among the oldest: past the walk of the newest
        await check('', page); // no search
        await check('7', page); // too short for a trigram
      }
      expect((await check('common', 1)).totalCapped).toBe(true);
      await check('Tenth 1', 3); // narrower than the cap
    });

    it('on PostgreSQL, counts through the one trigram index', async (context) => {
      if (skipped || kind !== 'postgres') return context.skip();
      queries = [];
      await adminUsersPage(read, 'user4242.common', 1);
      const count = queries.find((query) => query.sql.includes('count('));
      expect(count).toBeDefined();
      // The search's expression must be the index's: the planner then has the index to use.
      const plan = await read.transaction().execute(async (trx) => {
        await sql`SET LOCAL enable_seqscan = off`.execute(trx);
        const { rows: lines } = await trx.executeQuery<{ 'QUERY PLAN': string }>({
          ...count!,
          sql: `EXPLAIN ${count!.sql}`,
        });
        return lines.map((line) => line['QUERY PLAN']).join('\n');
      });
      expect(plan).toContain('profiles_search_trgm');
      const indexes = await sql<{ indexname: string }>`
        SELECT indexname FROM pg_indexes WHERE schemaname = ${READ_SCHEMA} AND tablename = 'profiles'`.execute(
        read,
      );
      // Migration 008's four indexes are gone: one index serves the search.
      expect(
        indexes.rows.map((row) => row.indexname).filter((name) => name.includes('trgm')),
      ).toEqual(['profiles_search_trgm']);
    });
  });
}
