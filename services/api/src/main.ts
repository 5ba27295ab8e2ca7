import { ConfigError, loadConfig } from './config.ts';
import { createLogger } from './observability/logger.ts';
import { startServer } from './server.ts';

// LOG_LEVEL, read before the configuration so that a bad configuration is logged too.
const logger = createLogger();

try {
  const config = loadConfig();
  const server = await startServer(config, { logger });
  const storage = config.DATABASE_URL ? 'PostgreSQL' : `PGlite in ${config.DATA_DIR}`;
  logger.info(
    { url: server.url, metricsUrl: server.metricsUrl, storage, env: config.NODE_ENV },
    `Astra is listening on ${server.url} (${storage}, ${config.NODE_ENV})`,
  );
  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info(
      { signal, timeoutMs: config.SHUTDOWN_TIMEOUT_MS },
      `${signal}: shutting down (finishing requests in flight)`,
    );
    // However the steps go, the process ends: a bounded wait past the requests' own bound.
    setTimeout(() => {
      logger.error({ signal }, 'Shutdown did not finish in time; exiting');
      process.exit(1);
    }, config.SHUTDOWN_TIMEOUT_MS + 20_000).unref();
    try {
      await server.close();
      logger.info({ signal }, 'Stopped: requests finished, projector stopped, database closed');
      process.exit(0);
    } catch (error) {
      logger.error({ err: error, signal }, 'Shutdown failed');
      process.exit(1);
    }
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
} catch (error) {
  if (error instanceof ConfigError) logger.fatal(error.message);
  else logger.fatal({ err: error }, 'Astra could not start');
  process.exit(1);
}
