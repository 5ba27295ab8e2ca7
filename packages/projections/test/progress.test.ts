import {
  connectPostgres,
  LISTENER_APPLICATION,
  openStorage,
  PostgresEventStore,
} from '@astra/event-store';
import { createThrowawayDatabase, eventually, postgresForTests } from '@astra/event-store/testing';
import { describe, expect, it } from 'vitest';
import {
  allProjections,
  databaseFor,
  migrateReadModels,
  PolledProgress,
  Projector,
  READ_SCHEMA,
  readModels,
} from '../src/index.ts';
import { checkpointsAnnouncement, readModelsSwapped } from '../src/progress.ts';

const available = await postgresForTests();

/** Until the API's listening connection is listening. */
const listening = (
  api: Extract<Awaited<ReturnType<typeof connectPostgres>>, { kind: 'postgres' }>,
) =>
  eventually(async () => {
    const { rows } = await api.sql.query(
      `SELECT 1 FROM pg_stat_activity
       WHERE datname = current_database() AND application_name = $1 AND query LIKE 'LISTEN%'`,
      [LISTENER_APPLICATION],
    );
    return rows.length === 1;
  });

/**
 * A projector's process (its storage and read models, in `schemas`) and an API process (its own
 * pool and listening connection) on one throwaway database.
 */
async function processes(schemas: readonly string[] = [READ_SCHEMA]) {
  const database = await createThrowawayDatabase();
  const projecting = await openStorage({ databaseUrl: database.url, dataDir: null });
  const projectorDb = databaseFor(projecting.connection);
  for (const schema of schemas) await migrateReadModels(projectorDb, schema);
  const api = await connectPostgres({ databaseUrl: database.url });
  if (api.kind !== 'postgres') throw new Error('expected PostgreSQL');
  const apiDb = databaseFor(api);
  return {
    projecting,
    projectorDb,
    api,
    apiDb,
    async close() {
      await apiDb.destroy();
      await api.close();
      await projectorDb.destroy();
      await projecting.close();
      await database.drop();
    },
  };
}

/**
 * A poll interval no test waits out (each test gives up at half of it, however slowly a loaded
 * machine starts its processes): only an announcement explains progress seen before it.
 */
const NEVER = 60_000;

describe.runIf(available)('Progress of a projector in another process (PostgreSQL)', () => {
  it(
    "releases the API's wait when the projector commits, without a query, not at its poll",
    async () => {
      const { projecting, projectorDb, api, apiDb, close } = await processes();
      const apiStore = await PostgresEventStore.open(api.sql, { notifications: api.notifications });
      // Every query the wait makes goes through this plugin: it counts them.
      let queries = 0;
      const progress = new PolledProgress(
        apiDb.withPlugin({
          transformQuery: ({ node }) => {
            queries++;
            return node;
          },
          transformResult: async ({ result }) => result,
        }),
        allProjections.map((p) => p.name),
        NEVER,
        api.notifications,
      );
      try {
        await listening(api);
        const projector = new Projector(projecting.store, projectorDb, allProjections);
        for (let n = 0; n < 3; n++) {
          const { position } = await apiStore.append(
            `progress-${n}`,
            [{ type: 'Noted', data: { n } }],
            { expected: 'no_stream' },
          );
          // The wait sleeps until an announcement (its poll is never).
          const waiting = progress.waitFor(position, NEVER);
          await projector.catchUp();
          expect(await waiting).toBe(true);
          expect(progress.position).toBeGreaterThanOrEqual(position);
          // After the first wait (the listening connection's start asks for one read: it may
          // have missed commits), released by the batches' announcements alone.
          if (n === 0) queries = 0;
        }
        expect(queries).toBe(0);
      } finally {
        progress.close();
        await apiStore.close();
        await close();
      }
    },
    NEVER / 2,
  );
  it(
    'releases a wait only once every projection waited for has passed it, in the read models it reads',
    async () => {
      const { projecting, projectorDb, api, apiDb, close } = await processes([
        READ_SCHEMA,
        'rebuilding',
      ]);
      const progress = new PolledProgress(
        apiDb,
        allProjections.map((p) => p.name),
        NEVER,
        api.notifications,
      );
      try {
        await listening(api);
        const { position } = await projecting.store.append(
          'progress-0',
          [{ type: 'Noted', data: {} }],
          { expected: 'no_stream' },
        );
        const [first, ...others] = allProjections;
        // Every projection passes it in another schema (a rebuild), one of them in the live one.
        await new Projector(projecting.store, projectorDb, allProjections, {
          schema: 'rebuilding',
        }).catchUp();
        await new Projector(projecting.store, projectorDb, [first!]).catchUp();
        expect(await progress.waitFor(position, 300)).toBe(false);
        // The others in a projector of their own: now every one has.
        const waiting = progress.waitFor(position, NEVER);
        await new Projector(projecting.store, projectorDb, others).catchUp();
        expect(await waiting).toBe(true);
      } finally {
        progress.close();
        await close();
      }
    },
    NEVER / 2,
  );
  it('forgets what was announced of the read models a rebuild swapped out: a projection they had further on does not release a wait', async () => {
    const database = await createThrowawayDatabase();
    const storage = await openStorage({ databaseUrl: database.url, dataDir: null });
    const db = databaseFor(storage.connection);
    await migrateReadModels(db, READ_SCHEMA);
    // Announcements as the test sends them.
    let announce: (payload: string | null) => void = () => {};
    const names = ['profiles', 'ledger_entries'];
    const progress = new PolledProgress(db, names, 20, {
      listen: (_channel, handler) => {
        announce = handler;
        return () => {};
      },
    });
    try {
      // The swapped-in tables: profiles at 100, ledger_entries at 112.
      await readModels(db)
        .insertInto('checkpoints')
        .values([
          { name: 'profiles', position: '100' },
          { name: 'ledger_entries', position: '112' },
        ])
        .execute();
      announce(
        checkpointsAnnouncement({ schema: READ_SCHEMA, position: 110n, names: ['profiles'] }),
      );
      announce(readModelsSwapped(READ_SCHEMA));
      announce(
        checkpointsAnnouncement({ schema: READ_SCHEMA, position: 112n, names: ['ledger_entries'] }),
      );
      expect(await progress.waitFor(105n, 300)).toBe(false);
      expect(await progress.waitFor(100n, NEVER)).toBe(true);
    } finally {
      progress.close();
      await db.destroy();
      await storage.close();
      await database.drop();
    }
  });
});
