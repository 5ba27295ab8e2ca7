import { randomUUID } from 'node:crypto';
import { setImmediate as turn } from 'node:timers/promises';
import type { EventStore, ReadAllOptions } from '@astra/event-store';
import { type Kysely, type KyselyPlugin, sql } from 'kysely';
import { checkpointOf, lockProjections } from './checkpoints.ts';
import { READ_SCHEMA } from './database.ts';
import { migrateReadModels } from './migrations/index.ts';
import { CHECKPOINTS_CHANNEL, readModelsSwapped } from './progress.ts';
import { allProjections } from './projections/index.ts';
import { Projector } from './projector.ts';
import { replayInto } from './replay.ts';

export interface RebuildReport {
  events: number;
  position: bigint;
  milliseconds: number;
}

/** How far a rebuild is: events replayed into the new tables, and the log's size when it began. */
export interface RebuildProgress {
  /** The run's id (its row in `rebuild_runs`). */
  id: string;
  replayed: number;
  /** Events in the log when the rebuild began (0: not counted, on KurrentDB). */
  target: number;
  /** When it took the running slot. */
  startedAt: Date;
}

export interface RebuildOptions {
  batchSize?: number;
  /**
   * Told once the rebuild holds the one running slot (replayed 0), then about every
   * `progressMs` while it replays, and once more when it is done.
   */
  onProgress?: (progress: RebuildProgress) => void;
  progressMs?: number;
  /** Who started it, as `rebuild_runs` records it. */
  source?: 'cli' | 'panel';
  /** Rows a projection keeps in memory while it replays (see `ReplayOptions`). */
  rowsInMemory?: number;
}

/** Catalogue tables seeded by migrations and edited in place: a rebuild carries them over. */
const REFERENCE_TABLES = ['apps', 'pricing_tiers', 'pricing_rows'] as const;
/**
 * Records kept beside the read models (migration 011), carried over at the swap itself: rows
 * written while the rebuild replayed are kept too.
 */
const RECORD_TABLES = ['verify_runs', 'rebuild_runs'] as const;
const ATTEMPTS = 20;
/** A running rebuild writes its progress (and a sign of life) this often... */
const HEARTBEAT_MS = 1000;
/** ...and one silent for this long stopped without finishing (its process died). */
export const REBUILD_STALE_SECONDS = 60;

/** `rebuild_running`: another rebuild holds the one running slot (in any process). */
export class RebuildRunningError extends Error {
  readonly code = 'rebuild_running';
  constructor() {
    super('A rebuild of the read models is running already');
  }
}

/**
 * Replays every event from zero into fresh read-model tables in a schema of their own, then swaps
 * that schema in for the live one in one transaction. The log up to the start is replayed in bulk
 * (`replayInto`: state in memory, rows by COPY, indexes built after the load); the projector then
 * applies what came since, from the checkpoints the replay left, until it has caught up with the
 * live tables. A projector running meanwhile keeps the live tables current until the swap (it is
 * held by the projections' locks during it) and continues on the new ones after it.
 *
 * One rebuild runs at a time, across processes: it takes the one `running` row of
 * `rebuild_runs` first (else `RebuildRunningError`, code `rebuild_running`) and writes its
 * progress there every second; a run silent for `REBUILD_STALE_SECONDS` is taken for dead (its
 * half-built schema is dropped) when the next one starts.
 */
export async function rebuildReadModels(
  store: EventStore,
  db: Kysely<unknown>,
  {
    batchSize = 5000,
    onProgress,
    progressMs = HEARTBEAT_MS,
    source = 'cli',
    rowsInMemory,
  }: RebuildOptions = {},
): Promise<RebuildReport> {
  const started = performance.now();
  const target = `read_rebuild_${process.pid}_${Date.now()}`;
  const retired = `read_retired_${process.pid}_${Date.now()}`;
  const names = allProjections.map((p) => p.name);
  await migrateReadModels(db, READ_SCHEMA);
  const { id, startedAt } = await claimRun(db, source, target);
  const projector = new Projector(
    yieldingStore(store),
    db.withPlugin(yieldAfterEachQuery),
    allProjections,
    {
      schema: target,
      batchSize,
    },
  );
  let events = 0;
  /** Events the bulk replay has folded; the projector counts those it applied after it. */
  let replayed = 0;
  const applied = () => replayed + projector.applied;
  const progress = () => ({ id, replayed: applied(), target: events, startedAt });
  let heartbeat: NodeJS.Timeout | undefined;
  try {
    events = await eventCount(store, db);
    await runs(db).set({ target: events }).where('id', '=', id).execute();
    onProgress?.(progress());
    heartbeat = setInterval(() => {
      onProgress?.(progress());
      // Progress is a record, not a step: a missed write is written by the next one.
      void runs(db)
        .set({ replayed: applied(), heartbeat_at: sql<Date>`now()` })
        .where('id', '=', id)
        .where('state', '=', 'running')
        .execute()
        .catch(() => {});
    }, progressMs);
    heartbeat.unref?.();

    await migrateReadModels(db, target);
    await copyReferenceTables(db, READ_SCHEMA, target);
    // The log up to now in bulk; then the projector takes over from the checkpoints it left.
    await replayInto(yieldingStore(store), db.withPlugin(yieldAfterEachQuery), allProjections, {
      schema: target,
      batchSize,
      rowsInMemory,
      onProgress: (folded) => {
        replayed = folded;
      },
    });
    for (let attempt = 1; attempt <= ATTEMPTS; attempt++) {
      await projector.catchUp();
      const position = projector.position;
      const swapped = await db.transaction().execute(async (trx) => {
        await lockProjections(trx, names);
        // The live projector moved past what the rebuild read: read on, then try again.
        if ((await checkpointOf(trx, READ_SCHEMA, names)) > position) return false;
        await carryOverRecords(trx, READ_SCHEMA, target);
        // Done in the tables swapped in, in the swap's own transaction.
        await runs(trx, target)
          .set({
            state: 'done',
            replayed: applied(),
            finished_at: sql<Date>`now()`,
            heartbeat_at: sql<Date>`now()`,
          })
          .where('id', '=', id)
          .execute();
        await sql`ALTER SCHEMA ${sql.id(READ_SCHEMA)} RENAME TO ${sql.id(retired)}`.execute(trx);
        await sql`ALTER SCHEMA ${sql.id(target)} RENAME TO ${sql.id(READ_SCHEMA)}`.execute(trx);
        await sql`DROP SCHEMA ${sql.id(retired)} CASCADE`.execute(trx);
        // API processes forget what was announced of the old tables (`PolledProgress`).
        await sql`SELECT pg_notify(${CHECKPOINTS_CHANNEL}, ${readModelsSwapped(READ_SCHEMA)})`.execute(
          trx,
        );
        return true;
      });
      if (swapped) {
        clearInterval(heartbeat);
        onProgress?.(progress());
        return { events: applied(), position, milliseconds: performance.now() - started };
      }
    }
    throw new Error(
      `The live projector kept moving ahead; the read models were not swapped after ${ATTEMPTS} attempts`,
    );
  } catch (error) {
    clearInterval(heartbeat);
    await sql`DROP SCHEMA IF EXISTS ${sql.id(target)} CASCADE`.execute(db).catch(() => {});
    await runs(db)
      .set({
        state: 'failed',
        replayed: applied(),
        error: (error instanceof Error ? error.message : String(error)).slice(0, 2000),
        finished_at: sql<Date>`now()`,
        heartbeat_at: sql<Date>`now()`,
      })
      .where('id', '=', id)
      .execute()
      .catch(() => {});
    throw error;
  }
}

/**
 * A rebuild shares its process with others (the API's requests, when started from the panel).
 * PGlite runs each statement in this thread and its answers resolve without a turn of the event
 * loop, so a replay of the whole log would hold every request (and its own progress) until it
 * ends. The rebuild's statements and log pages therefore each give the event loop a turn.
 */
const yieldAfterEachQuery: KyselyPlugin = {
  transformQuery: (args) => args.node,
  transformResult: async (args) => {
    await turn();
    return args.result;
  },
};

const yieldingStore = (store: EventStore): EventStore =>
  new Proxy(store, {
    get(target, property, receiver) {
      if (property === 'readAll') {
        return async function* (options?: ReadAllOptions) {
          let read = 0;
          for await (const event of target.readAll(options)) {
            if (++read % 500 === 0) await turn();
            yield event;
          }
        };
      }
      const value = Reflect.get(target, property, receiver);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });

/** `rebuild_runs` (migration 011) as this file writes it. */
interface RunRecords {
  rebuild_runs: {
    id: string;
    source: string;
    state: 'running' | 'done' | 'failed';
    started_at: Date;
    finished_at: Date | null;
    heartbeat_at: Date;
    replayed: number;
    target: number;
    error: string | null;
    schema_name: string;
  };
}

const records = (db: Kysely<unknown>, schema = READ_SCHEMA) =>
  db.withSchema(schema) as unknown as Kysely<RunRecords>;

/** `rebuild_runs` of `schema` (the live read models unless given), for an update. */
const runs = (db: Kysely<unknown>, schema = READ_SCHEMA) =>
  records(db, schema).updateTable('rebuild_runs');

/**
 * Takes the one running slot: a unique index lets one row be `running`. A run silent for
 * `REBUILD_STALE_SECONDS` is marked failed first, and its half-built schema dropped.
 */
async function claimRun(db: Kysely<unknown>, source: string, schemaName: string) {
  const read = records(db);
  const stale = await read
    .updateTable('rebuild_runs')
    .set({
      state: 'failed',
      finished_at: sql<Date>`now()`,
      error: `Stopped without finishing: no sign of life for ${REBUILD_STALE_SECONDS} s (its process ended)`,
    })
    .where('state', '=', 'running')
    .where('heartbeat_at', '<', sql<Date>`now() - make_interval(secs => ${REBUILD_STALE_SECONDS})`)
    .returning('schema_name')
    .execute();
  for (const { schema_name } of stale) {
    if (/^read_rebuild_\d+_\d+$/.test(schema_name)) {
      await sql`DROP SCHEMA IF EXISTS ${sql.id(schema_name)} CASCADE`.execute(db);
    }
  }
  const id = randomUUID();
  try {
    const claimed = await read
      .insertInto('rebuild_runs')
      .values({
        id,
        source,
        state: 'running',
        started_at: sql<Date>`now()`,
        heartbeat_at: sql<Date>`now()`,
        schema_name: schemaName,
        replayed: 0,
        target: 0,
      })
      .returning('started_at')
      .executeTakeFirstOrThrow();
    return { id, startedAt: new Date(claimed.started_at) };
  } catch (error) {
    if ((error as { code?: string }).code === '23505') throw new RebuildRunningError();
    throw error;
  }
}

/** Events in the log now: the rebuild's target (counted in the table; unknown on KurrentDB). */
async function eventCount(store: EventStore, db: Kysely<unknown>) {
  if (store.kind === 'kurrentdb') return 0;
  const { rows } = await sql<{ n: string }>`SELECT count(*)::text AS n FROM public.events`.execute(
    db,
  );
  return Number(rows[0]?.n ?? 0);
}

async function copyReferenceTables(db: Kysely<unknown>, from: string, to: string) {
  await db.transaction().execute(async (trx) => {
    for (const table of [...REFERENCE_TABLES].reverse()) {
      await sql`DELETE FROM ${sql.table(`${to}.${table}`)}`.execute(trx);
    }
    for (const table of REFERENCE_TABLES) {
      await sql`INSERT INTO ${sql.table(`${to}.${table}`)} SELECT * FROM ${sql.table(`${from}.${table}`)}`.execute(
        trx,
      );
    }
  });
}

/** Copies the records into the new schema, holding writers of the old tables off until commit. */
async function carryOverRecords(trx: Kysely<unknown>, from: string, to: string) {
  for (const table of RECORD_TABLES) {
    await sql`LOCK TABLE ${sql.table(`${from}.${table}`)} IN EXCLUSIVE MODE`.execute(trx);
  }
  for (const table of RECORD_TABLES) {
    await sql`DELETE FROM ${sql.table(`${to}.${table}`)}`.execute(trx);
    await sql`INSERT INTO ${sql.table(`${to}.${table}`)} SELECT * FROM ${sql.table(`${from}.${table}`)}`.execute(
      trx,
    );
  }
}
