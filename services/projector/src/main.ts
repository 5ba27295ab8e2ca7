import { allProjections, Projector, watchHorizon } from '@astra/projections';
import { projectorLogger } from './logger.ts';
import { openProjectionStorage, runCli } from './storage.ts';

const LEADER_LOCK = 730511;

/**
 * The projector as its own process (`npm run projector`), for deployments where the API runs
 * with PROJECTOR=external. Replicas wait as standbys: the leader holds a session advisory lock.
 * PROJECTIONS=profiles,ledger_entries runs a subset (one projector per projection).
 */
const logger = projectorLogger();
const fatal = (message: string) => logger.fatal(message);

await runCli(async () => {
  const wanted = (process.env.PROJECTIONS ?? '')
    .split(',')
    .map((n) => n.trim())
    .filter(Boolean);
  const unknown = wanted.filter((name) => !allProjections.some((p) => p.name === name));
  if (unknown.length) {
    throw new Error(
      `Unknown projection ${unknown.join(', ')} in PROJECTIONS; known: ${allProjections.map((p) => p.name).join(', ')}`,
    );
  }
  const projections = wanted.length
    ? allProjections.filter((p) => wanted.includes(p.name))
    : allProjections;
  const names = projections.map((p) => p.name).join(',');

  const storage = await openProjectionStorage();
  if (storage.connection.kind !== 'postgres') {
    await storage.close();
    throw new Error(
      'The projector runs on its own only with DATABASE_URL (PGlite belongs to the API process).',
    );
  }
  // A standby waits for the leader's session lock; a lost leader connection frees it.
  const leader = await storage.connection.pool.connect();
  logger.info({ projections: names }, `Projector for ${names}: waiting to lead…`);
  for (;;) {
    const { rows } = await leader.query(
      'SELECT pg_try_advisory_lock($1, hashtext($2)) AS acquired',
      [LEADER_LOCK, names],
    );
    if (rows[0]?.acquired) break;
    await new Promise((resolve) => setTimeout(resolve, 2000));
  }
  const projector = new Projector(storage.store, storage.db, projections, {
    onError: (error) =>
      logger.error({ err: error }, 'Projector failed; resuming from its checkpoint'),
    logger,
  });
  projector.start();
  const stopHorizonWatch = watchHorizon(
    storage.horizonHold,
    storage.env.HORIZON_STALL_SECONDS * 1000,
    logger,
  );
  logger.info({ projections: names }, `Projector for ${names}: leading, following the event log.`);

  const signal = await new Promise<string>((resolve) => {
    process.once('SIGINT', () => resolve('SIGINT'));
    process.once('SIGTERM', () => resolve('SIGTERM'));
  });
  logger.info({ signal }, `${signal}: stopping after the current batch`);
  stopHorizonWatch();
  await projector.stop();
  leader.release();
  await storage.close();
  logger.info({ signal }, 'Stopped: the batch committed, the lock released');
  return 0;
}, fatal);
