import { allProjections, Projector, watchHorizon } from '@astra/projections';
import { Leadership, NotLeadingError } from './leadership.ts';
import { projectorLogger } from './logger.ts';
import { openProjectionStorage, runCli } from './storage.ts';

/**
 * The projector as its own process (`npm run projector`), for deployments where the API runs
 * with PROJECTOR=external. Replicas wait as standbys and take over when the leader's lock is
 * freed (see `Leadership`).
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
  // Replicas of one set of projections: one leads, the others wait (see `Leadership`).
  const leadership = new Leadership({
    databaseUrl: storage.env.DATABASE_URL!,
    name: names,
    logger,
  });
  const shutdown = new AbortController();
  const stopped = new Promise<string>((resolve) => {
    for (const signal of ['SIGINT', 'SIGTERM'] as const) {
      process.once(signal, () => {
        logger.info({ signal }, `${signal}: stopping after the current batch`);
        shutdown.abort();
        resolve(signal);
      });
    }
  });
  logger.info({ projections: names }, `Projector for ${names}: waiting to lead…`);
  for (;;) {
    const term = await leadership.acquire(shutdown.signal);
    if (!term) break;
    const projector = new Projector(storage.store, storage.db, projections, {
      onError: (error) =>
        error instanceof NotLeadingError
          ? undefined
          : logger.error({ err: error }, 'Projector failed; resuming from its checkpoint'),
      logger,
      fence: term.fence,
    });
    projector.start();
    const stopHorizonWatch = watchHorizon(
      storage.horizonHold,
      storage.env.HORIZON_STALL_SECONDS * 1000,
      logger,
    );
    const fields = { projections: names, term: term.term.toString() };
    logger.info(
      fields,
      `Projector for ${names}: leading (term ${term.term}), following the event log.`,
    );
    const lost = await Promise.race([term.lost, stopped.then(() => null)]);
    if (lost) {
      logger.warn(
        { ...fields, reason: lost },
        `No longer leading: ${lost}. Its batches cannot commit; stopping.`,
      );
    }
    stopHorizonWatch();
    await projector.stop();
    if (!lost) {
      await term.release();
      break;
    }
    logger.info(fields, `Projector for ${names}: waiting to lead again…`);
  }
  const signal = await stopped;
  await storage.close();
  logger.info({ signal }, 'Stopped: the batch committed, the lock released');
  return 0;
}, fatal);
