import type { Server } from 'node:http';
import { openStorage, storageConfigOf } from '@astra/event-store';
import {
  allProjections,
  databaseFor,
  migrateReadModels,
  PolledProgress,
  type ProjectionProgress,
  Projector,
  READ_SCHEMA,
  readModels,
} from '@astra/projections';
import { offlineWriter, preloadPlaces } from '@astra/readings';
import { createApp } from './app.ts';
import type { Config } from './config.ts';
import type { AppDeps } from './dependencies.ts';
import { Consistency } from './http/consistency.ts';
import { purgeIdempotencyKeys } from './http/idempotency.ts';
import { Sessions } from './http/sessions.ts';
import { Ledger } from './ledger/ledger.ts';
import { openAiWriter } from './modules/readings/openAiWriter.ts';
import { recoverInterruptedReadings } from './modules/readings/recovery.ts';
import { appTables, migrateAppTables } from './storage/appDatabase.ts';

export interface RunningServer {
  url: string;
  port: number;
  deps: AppDeps;
  close(): Promise<void>;
}

/** Opens storage, migrates, starts the projections and serves the API and the web app. */
export async function startServer(config: Config): Promise<RunningServer> {
  const storage = await openStorage(storageConfigOf(config));
  const db = databaseFor(storage.connection);
  await migrateReadModels(db, READ_SCHEMA);
  await migrateAppTables(db);

  let projector: Projector | undefined;
  let progress: ProjectionProgress;
  if (config.PROJECTOR === 'in-process') {
    projector = new Projector(storage.store, db, allProjections, {
      onError: (error) => console.error('Projector failed; resuming from its checkpoint:', error),
    });
    projector.start();
    progress = projector;
  } else {
    progress = new PolledProgress(
      db,
      allProjections.map((p) => p.name),
    );
  }

  // The place list takes a second to index: do it now rather than on the first request.
  setImmediate(() => preloadPlaces());

  const appDb = appTables(db);
  const sessions = new Sessions(db, appDb, progress, config.READ_YOUR_WRITES_TIMEOUT_MS, config);
  const read = readModels(db);
  const deps: AppDeps = {
    config,
    ledger: new Ledger(storage.store),
    db,
    read,
    appDb,
    sessions,
    consistency: new Consistency(progress, sessions, config.READ_YOUR_WRITES_TIMEOUT_MS),
    writer: config.OPENAI_API_KEY
      ? openAiWriter({
          apiKey: config.OPENAI_API_KEY,
          baseURL: config.OPENAI_BASE_URL,
          model: config.OPENAI_MODEL,
          timeoutMs: config.OPENAI_TIMEOUT_MS,
          maxRetries: config.OPENAI_MAX_RETRIES,
        })
      : offlineWriter,
    ready: async () => {
      if (projector && !projector.running) return false;
      try {
        await read.selectFrom('checkpoints').select('name').limit(1).execute();
        return true;
      } catch {
        return false;
      }
    },
  };
  const purge = setInterval(() => {
    void sessions.purgeExpired().catch(() => {});
    void purgeIdempotencyKeys(appDb).catch(() => {});
  }, 3_600_000);
  purge.unref();
  const recover = () =>
    void recoverInterruptedReadings(deps.ledger, read).catch((error) =>
      console.error('Recovering interrupted readings failed:', error),
    );
  const recovery = setInterval(recover, 5 * 60_000);
  recovery.unref();
  const firstRecovery = setTimeout(recover, 5_000);
  firstRecovery.unref();

  const server: Server = createApp(deps).listen(config.PORT, config.HOST);
  await new Promise<void>((ready, fail) => {
    server.once('listening', ready);
    server.once('error', fail);
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : config.PORT;
  const host = config.HOST === '0.0.0.0' ? '127.0.0.1' : config.HOST;

  return {
    url: `http://${host}:${port}`,
    port,
    deps,
    async close() {
      clearInterval(purge);
      clearInterval(recovery);
      clearTimeout(firstRecovery);
      await new Promise<void>((done) => {
        server.close(() => done());
        server.closeAllConnections();
      });
      await projector?.stop();
      await db.destroy();
      await storage.close();
    },
  };
}
