import type { ProjectorRun } from '@astra/contracts';
import type { Storage } from '@astra/event-store';
import {
  allProjections,
  PolledProgress,
  type ProjectionProgress,
  Projector,
  projectorLeaders,
  readModels,
  watchHorizon,
} from '@astra/projections';
import { type Kysely, sql } from 'kysely';
import type { Config } from './config.ts';
import type { Logger } from './observability/logger.ts';
import type { Metrics, ProjectionPosition } from './observability/metrics.ts';

/**
 * The read models as this process sees them: the projector in this process (`PROJECTOR=
 * in-process`), or the commits the projector process announces (polling stays for
 * announcements lost).
 */
export interface Projections {
  projector: Projector | undefined;
  progress: ProjectionProgress;
  /** Stops the projector (it commits the batch it is applying) and the horizon watch. */
  stop(): Promise<void>;
}

export function startProjections(
  storage: Storage,
  db: Kysely<unknown>,
  config: Config,
  metrics: Metrics,
  logger: Logger,
): Projections {
  if (config.PROJECTOR !== 'in-process') {
    const progress = new PolledProgress(
      db,
      allProjections.map((p) => p.name),
      20,
      storage.connection.kind === 'postgres' ? storage.connection.notifications : undefined,
    );
    return { projector: undefined, progress, stop: async () => {} };
  }
  const projectorLog = logger.child({ component: 'projector' });
  const projector = new Projector(storage.store, db, allProjections, {
    onError: (error) => {
      metrics.projectorErrors.inc();
      projectorLog.error({ err: error }, 'Projector failed; resuming from its checkpoint');
    },
    logger: projectorLog,
  });
  projector.start();
  const stopHorizonWatch = watchHorizon(
    storage.horizonHold,
    config.HORIZON_STALL_SECONDS * 1000,
    projectorLog,
  );
  return {
    projector,
    progress: projector,
    async stop() {
      stopHorizonWatch();
      await projector.stop();
    },
  };
}

/**
 * Where each projection stands, for the metrics: the projector's own status, or (`PROJECTOR=
 * external`) where the projector process has committed and what it failed on.
 */
export async function projectionPositions(
  db: Kysely<unknown>,
  projector: Projector | undefined,
): Promise<ProjectionPosition[]> {
  if (projector) {
    return projector
      .status()
      .map((p) => ({ name: p.name, position: p.position, failed: p.state === 'failed' }));
  }
  const read = readModels(db);
  const [checkpoints, failures] = await Promise.all([
    read.selectFrom('checkpoints').select(['name', 'position']).execute(),
    read.selectFrom('projection_failures').select('name').execute(),
  ]);
  const positions = new Map(checkpoints.map((c) => [c.name, BigInt(c.position)]));
  const failed = new Set(failures.map((f) => f.name));
  return allProjections.map(({ name }) => ({
    name,
    position: positions.get(name) ?? 0n,
    failed: failed.has(name),
  }));
}

/**
 * Who applies the projections: this process (`PROJECTOR=in-process`), or the projector processes
 * that lead now (their lock's session is alive), from `projector_leaders`.
 */
export async function projectorRun(db: Kysely<unknown>, config: Config): Promise<ProjectorRun> {
  return config.PROJECTOR === 'in-process'
    ? { mode: 'in-process', leaders: [] }
    : { mode: 'external', leaders: await projectorLeaders(db) };
}

/** The event log's head position (none with the log on KurrentDB). */
export async function logHead(db: Kysely<unknown>, config: Config) {
  if (config.KURRENTDB_CONNECTION_STRING) return null;
  const { rows } = await sql<{
    head: string | number | null;
  }>`SELECT max(position) AS head FROM public.events`.execute(db);
  return BigInt(rows[0]?.head ?? 0);
}
