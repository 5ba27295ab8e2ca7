import { randomUUID } from 'node:crypto';
import { type Kysely, sql } from 'kysely';
import type { Logger } from '../observability/logger.ts';
import type { AppDb } from '../storage/appDatabase.ts';

/** How often a running API process beats, on the database's clock. */
export const HEARTBEAT_SECONDS = 2;
/**
 * A process that has not beaten for this long is gone (killed, cut off from the database): the
 * idempotency claims it holds are taken over by the next retry.
 */
export const PROCESS_GONE_SECONDS = 10;
/** Rows of processes gone for this long are removed (the hourly purge). */
const KEPT_HOURS = 24;

/** The table of migration 007, beside the tables in `AppTables`. */
export type ProcessTables = Kysely<{
  api_processes: { id: string; started_at: Date; heartbeat_at: Date };
}>;

/**
 * This API process as the database knows it: a row (`app.api_processes`) with a fresh id at
 * every start, beaten every `HEARTBEAT_SECONDS` on the database's clock, removed on a clean
 * shutdown. Idempotency claims name their process (`http/idempotency.ts`): a claim whose process
 * stopped beating, or has no row any more, belongs to a request nobody runs.
 *
 * `alone`: no other process can use this database (PGlite: one process per `DATA_DIR`), so every
 * other process's row is of a process gone, and is removed at the start; their claims are taken
 * over by the first retry.
 */
export class ApiProcess {
  readonly id = randomUUID();
  private timer: NodeJS.Timeout | undefined;
  private beating: Promise<void> | undefined;
  private failing = false;

  private constructor(
    private readonly db: ProcessTables,
    private readonly logger: Logger,
  ) {}

  static async start(appDb: AppDb, options: { alone: boolean; logger: Logger }) {
    const running = new ApiProcess(appDb as unknown as ProcessTables, options.logger);
    if (options.alone) await running.db.deleteFrom('api_processes').execute();
    await running.beat();
    running.timer = setInterval(() => {
      // A beat that has not come back yet is not doubled.
      running.beating ??= running
        .beat()
        .then(
          () => {
            if (running.failing) running.logger.info('The API process beats again');
            running.failing = false;
          },
          (error) => {
            if (!running.failing)
              running.logger.warn(
                { err: error },
                'The API process could not beat; its idempotency claims may be taken over',
              );
            running.failing = true;
          },
        )
        .finally(() => {
          running.beating = undefined;
        });
    }, HEARTBEAT_SECONDS * 1000);
    running.timer.unref();
    return running;
  }

  private async beat() {
    await this.db
      .insertInto('api_processes')
      .values({ id: this.id, started_at: sql`now()`, heartbeat_at: sql`now()` })
      .onConflict((oc) => oc.column('id').doUpdateSet({ heartbeat_at: sql`now()` }))
      .execute();
  }

  /** Stops beating and removes the row: the process's claims are free at once. */
  async stop() {
    clearInterval(this.timer);
    await this.beating;
    await this.db.deleteFrom('api_processes').where('id', '=', this.id).execute();
  }
}

/** Rows of processes that stopped beating a day ago (their claims are long free). */
export const purgeApiProcesses = (appDb: AppDb) =>
  (appDb as unknown as ProcessTables)
    .deleteFrom('api_processes')
    .where('heartbeat_at', '<', sql<Date>`now() - make_interval(hours => ${KEPT_HOURS})`)
    .execute();
