import type { Server } from 'node:http';
import { personalData } from '@astra/contracts';
import { openStorage, storageConfigOf } from '@astra/event-store';
import {
  databaseFor,
  databaseOver,
  MonthMoney,
  migrateReadModels,
  READ_SCHEMA,
  readModels,
} from '@astra/projections';
import { preloadPlaces } from '@astra/readings';
import { selfDelivery, stripeOf, voiceOf, writerOf } from './adapters.ts';
import { createApp } from './app.ts';
import { type Config, localCheckoutEnabled, siteInfoOf, webhookSecretOf } from './config.ts';
import type { AppDeps } from './dependencies.ts';
import { ApiProcess } from './http/apiProcess.ts';
import { Consistency } from './http/consistency.ts';
import { ReadReplicas } from './http/readReplicas.ts';
import { Sessions } from './http/sessions.ts';
import { mailReactor } from './modules/mail/mailReactor.ts';
import { mailTransport } from './modules/mail/transport.ts';
import { localGateway } from './modules/payments/localGateway.ts';
import { pricingSettingsOf } from './modules/payments/pricing.ts';
import { stripeGateway } from './modules/payments/stripeGateway.ts';
import { catalogOf, projectApps } from './modules/readings/catalog.ts';
import { ReadingDrafts } from './modules/readings/drafts.ts';
import { type ReadingKindEngine, shippedReadingKinds } from './modules/readings/kinds.ts';
import { ObservedLedger } from './observability/instrumented.ts';
import { createLogger, type Logger } from './observability/logger.ts';
import { Metrics, startMetricsServer } from './observability/metrics.ts';
import { logHead, projectionPositions, startProjections } from './projections.ts';
import { ReactorRunner } from './reactors/reactor.ts';
import { startSchedules } from './schedules.ts';
import { appTables, migrateAppTables } from './storage/appDatabase.ts';

export interface RunningServer {
  url: string;
  port: number;
  /** `http://host:METRICS_PORT/metrics` when METRICS_PORT is set. */
  metricsUrl: string | undefined;
  deps: AppDeps;
  /**
   * Stops gracefully: no new connections, reading streams end (their clients reconnect),
   * requests in flight and readings being written finish (at most SHUTDOWN_TIMEOUT_MS, then
   * connections are cut and the writings stopped: those readings fail and are refunded), the
   * in-process projector commits its current batch and stops, then the database closes.
   */
  close(): Promise<void>;
}

export interface ServerOptions {
  /** The time the rules run on (renewal dates); the machine's clock unless given. */
  clock?: () => Date;
  /** The logger (tests pass one that writes where they read); else JSON on stdout at LOG_LEVEL. */
  logger?: Logger;
  /** The built web app to serve; `web/dist` unless given. */
  webDist?: string;
  /** The reading kinds it sells, each its record and engine; the shipped ones unless given. */
  readingKinds?: readonly ReadingKindEngine[];
}

/** Opens storage, migrates, starts the projections and serves the API and the web app. */
export async function startServer(
  config: Config,
  options: ServerOptions = {},
): Promise<RunningServer> {
  const clock = options.clock ?? (() => new Date());
  const logger = options.logger ?? createLogger({ level: config.LOG_LEVEL });
  const storage = await openStorage({ ...storageConfigOf(config), personalData });
  const { keyring } = storage;
  // The API always encrypts: a storage without a keyring would write personal data in clear.
  if (!keyring) throw new Error('The storage opened without its data keys');
  const db = databaseFor(storage.connection);
  await migrateReadModels(db, READ_SCHEMA);
  await migrateAppTables(db);

  const metrics = new Metrics({
    projections: () => projectionPositions(db, projections.projector),
    head: () => logHead(db, config),
  });
  const projections = startProjections(storage, db, config, metrics, logger);
  const { projector, progress } = projections;

  // The place list takes a second to index: do it now rather than on the first request.
  setImmediate(() => preloadPlaces());

  const appDb = appTables(db);
  const replicas =
    config.DATABASE_READ_URL.length > 0 && storage.connection.kind === 'postgres'
      ? new ReadReplicas(
          config.DATABASE_READ_URL,
          storage.connection.pool,
          progress,
          config.READ_REPLICA_WAIT_MS,
          metrics,
          logger,
        )
      : null;
  const primaryRead = readModels(db);
  const read = replicas ? readModels(databaseOver(replicas.connect)) : primaryRead;
  const catalog = catalogOf(options.readingKinds ?? shippedReadingKinds);
  await projectApps(read, catalog, clock());
  // Registered (and beating) before the first request: its claims name it. A PGlite database
  // has one process at a time, so every other one registered there is gone.
  const apiProcess = await ApiProcess.start(appDb, {
    alone: storage.connection.kind === 'pglite',
    logger,
  });
  const pricing = pricingSettingsOf(config);

  const stripe = stripeOf(config);
  const webhookSecret = webhookSecretOf(config);
  let ownUrl = '';
  const localCheckout = localCheckoutEnabled(config)
    ? localGateway(
        appDb,
        read,
        pricing,
        selfDelivery(stripe, webhookSecret, () => ownUrl),
        clock,
      )
    : null;

  const site = siteInfoOf(config);
  const mailSettings = {
    from: config.MAIL_FROM ?? `${site.operator.name} <${site.operator.email}>`,
    site,
    appUrl: config.PUBLIC_URL,
  };
  const transport = mailTransport(config.SMTP_URL);

  const sessions = new Sessions(
    storage.connection.sql,
    appDb,
    progress,
    config.READ_YOUR_WRITES_TIMEOUT_MS,
    config,
  );
  const ledger = new ObservedLedger(storage.store, metrics, {
    snapshots: storage.stateSnapshots,
    mailboxId: (address) => keyring.mailboxId(address),
    onSnapshotError: (error, stream) =>
      logger.warn({ err: error, stream }, 'Snapshot of a stream skipped'),
  });
  const deps: AppDeps = {
    config,
    ledger,
    keyring,
    snapshots: storage.snapshots,
    horizonHold: storage.horizonHold,
    db,
    read,
    replicas,
    appDb,
    sessions,
    consistency: new Consistency(progress, sessions, config.READ_YOUR_WRITES_TIMEOUT_MS, replicas),
    catalog,
    writer: writerOf(config, metrics),
    drafts: new ReadingDrafts(appDb, logger),
    voice: voiceOf(config),
    payments: {
      stripe,
      webhookSecret,
      pricing,
      gateway:
        localCheckout ??
        stripeGateway(stripe, { automaticTax: config.STRIPE_AUTOMATIC_TAX === 'on' }),
      localCheckout,
    },
    mail: {
      reactor: new ReactorRunner(
        storage.store,
        appDb,
        mailReactor(ledger, transport, mailSettings),
        {
          processId: apiProcess.id,
          maxAttempts: config.MAIL_MAX_ATTEMPTS,
          retryBaseMs: config.MAIL_RETRY_BASE_MS,
          logger: logger.child({ component: 'mail' }),
          onOutcome: (row, outcome) =>
            metrics.reactorMessages.inc({ reactor: 'mail', kind: row.kind, outcome }),
        },
      ),
      transport,
      settings: mailSettings,
    },
    clock,
    logger,
    metrics,
    apiProcess,
    monthMoney: new MonthMoney(storage.store, config.FINANCE_TIME_ZONE),
    ready: async () => {
      if (projector && !projector.running) return false;
      try {
        // The primary's: a standby that fails must not make every API process look down.
        await primaryRead.selectFrom('checkpoints').select('name').limit(1).execute();
        return true;
      } catch {
        return false;
      }
    },
  };
  deps.mail.reactor.start();
  const stopSchedules = startSchedules(deps);

  const server: Server = createApp(deps, { webDist: options.webDist }).listen(
    config.PORT,
    config.HOST,
  );
  await new Promise<void>((ready, fail) => {
    server.once('listening', ready);
    server.once('error', fail);
  });
  const metricsServer =
    config.METRICS_PORT === undefined
      ? undefined
      : await startMetricsServer(metrics, config.METRICS_PORT, config.HOST, config.METRICS_TOKEN);
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : config.PORT;
  const host = config.HOST === '0.0.0.0' ? '127.0.0.1' : config.HOST;
  ownUrl = `http://${host}:${port}`;

  return {
    url: `http://${host}:${port}`,
    port,
    metricsUrl: metricsServer ? `http://${host}:${metricsServer.port}/metrics` : undefined,
    deps,
    async close() {
      stopSchedules();
      // Requests in flight and the readings being written get the same time to finish.
      await Promise.all([
        drain(server, config.SHUTDOWN_TIMEOUT_MS, logger),
        deps.drafts.stop(config.SHUTDOWN_TIMEOUT_MS),
      ]);
      if (metricsServer) await drain(metricsServer.server, 0, logger);
      // A message being handed over finishes; the rest wait in the outbox for the next start.
      await deps.mail.reactor.stop();
      transport.close();
      // No request runs here any more: its claims left pending are free at once.
      await apiProcess
        .stop()
        .catch((error) => logger.warn({ err: error }, 'Removing the API process row failed'));
      // The projector finishes (commits) the batch it is applying, then stops.
      await projections.stop();
      await replicas?.close();
      await db.destroy();
      await deps.ledger.snapshotsSettled();
      await storage.close();
    },
  };
}

/**
 * Stops `server` accepting connections and waits for its requests in flight; idle keep-alive
 * connections close at once (and as each request ends). After `timeoutMs` the remaining
 * connections are cut.
 */
async function drain(server: Server, timeoutMs: number, logger: Logger) {
  await new Promise<void>((done) => {
    server.close(() => done());
    server.closeIdleConnections();
    // A keep-alive connection becomes idle when its request ends: close it then.
    const idle = setInterval(() => server.closeIdleConnections(), 50);
    const cut = setTimeout(() => {
      logger.warn(
        { timeoutMs },
        'Requests still in flight after the shutdown timeout: closing their connections',
      );
      server.closeAllConnections();
    }, timeoutMs);
    server.once('close', () => {
      clearInterval(idle);
      clearTimeout(cut);
    });
  });
}
