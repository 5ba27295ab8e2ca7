import type { Server } from 'node:http';
import { personalData } from '@astra/contracts';
import { openStorage, storageConfigOf } from '@astra/event-store';
import {
  allProjections,
  databaseFor,
  MonthMoney,
  migrateReadModels,
  PolledProgress,
  type ProjectionProgress,
  Projector,
  READ_SCHEMA,
  readModels,
  watchHorizon,
} from '@astra/projections';
import { offlineWriter, preloadPlaces } from '@astra/readings';
import { sql } from 'kysely';
import Stripe from 'stripe';
import { createApp } from './app.ts';
import { type Config, localCheckoutEnabled, siteInfoOf, webhookSecretOf } from './config.ts';
import type { AppDeps } from './dependencies.ts';
import { ApiProcess, purgeApiProcesses } from './http/apiProcess.ts';
import { Consistency } from './http/consistency.ts';
import { purgeIdempotencyKeys } from './http/idempotency.ts';
import { Sessions } from './http/sessions.ts';
import { finishErasures } from './modules/accounts/deletion.ts';
import { mailReactor } from './modules/mail/mailReactor.ts';
import { mailTransport } from './modules/mail/transport.ts';
import { localGateway } from './modules/payments/localGateway.ts';
import { pricingSettingsOf } from './modules/payments/pricing.ts';
import { grantDueMonths } from './modules/payments/renewals.ts';
import { stripeGateway } from './modules/payments/stripeGateway.ts';
import { ReadingDrafts } from './modules/readings/drafts.ts';
import { openAiWriter } from './modules/readings/openAiWriter.ts';
import { recoverInterruptedReadings } from './modules/readings/recovery.ts';
import { recoverVoiceSessions, voiceStartCutOffMs } from './modules/voice/recovery.ts';
import { elevenLabsVoice, offlineVoice } from './modules/voice/voiceService.ts';
import { ObservedLedger, timedWriter } from './observability/instrumented.ts';
import { createLogger, type Logger } from './observability/logger.ts';
import { Metrics, type ProjectionPosition, startMetricsServer } from './observability/metrics.ts';
import { purgeSentOutbox } from './reactors/outbox.ts';
import { ReactorRunner } from './reactors/reactor.ts';
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

  let projector: Projector | undefined;
  let stopHorizonWatch = () => {};
  let progress: ProjectionProgress;
  const metrics = new Metrics({
    projections: async (): Promise<ProjectionPosition[]> => {
      if (projector) {
        return projector
          .status()
          .map((p) => ({ name: p.name, position: p.position, failed: p.state === 'failed' }));
      }
      // PROJECTOR=external: where the projector process has committed, and what it failed on.
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
    },
    head: async () => {
      if (config.KURRENTDB_CONNECTION_STRING) return null;
      const { rows } = await sql<{
        head: string | number | null;
      }>`SELECT max(position) AS head FROM public.events`.execute(db);
      return BigInt(rows[0]?.head ?? 0);
    },
  });
  if (config.PROJECTOR === 'in-process') {
    const projectorLog = logger.child({ component: 'projector' });
    projector = new Projector(storage.store, db, allProjections, {
      onError: (error) => {
        metrics.projectorErrors.inc();
        projectorLog.error({ err: error }, 'Projector failed; resuming from its checkpoint');
      },
      logger: projectorLog,
    });
    projector.start();
    stopHorizonWatch = watchHorizon(
      storage.horizonHold,
      config.HORIZON_STALL_SECONDS * 1000,
      projectorLog,
    );
    progress = projector;
  } else {
    // The projector process announces its commits; polling stays for announcements lost.
    progress = new PolledProgress(
      db,
      allProjections.map((p) => p.name),
      20,
      storage.connection.kind === 'postgres' ? storage.connection.notifications : undefined,
    );
  }

  // The place list takes a second to index: do it now rather than on the first request.
  setImmediate(() => preloadPlaces());

  const appDb = appTables(db);
  const read = readModels(db);
  // Registered (and beating) before the first request: its claims name it. A PGlite database
  // has one process at a time, so every other one registered there is gone.
  const apiProcess = await ApiProcess.start(appDb, {
    alone: storage.connection.kind === 'pglite',
    logger,
  });
  const pricing = pricingSettingsOf(config);

  // Stripe's SDK signs and checks webhooks even without a key; with one it is the gateway.
  const stripe = new Stripe(config.STRIPE_SECRET_KEY ?? 'sk_test_astra_local_checkout', {
    maxNetworkRetries: 2,
    ...(config.STRIPE_API_HOST ? { host: config.STRIPE_API_HOST } : {}),
    ...(config.STRIPE_API_PORT ? { port: config.STRIPE_API_PORT } : {}),
    ...(config.STRIPE_API_PROTOCOL ? { protocol: config.STRIPE_API_PROTOCOL } : {}),
  });
  const webhookSecret = webhookSecretOf(config);
  let ownUrl = '';
  const localCheckout = localCheckoutEnabled(config)
    ? localGateway(
        appDb,
        read,
        pricing,
        async (event) => {
          // The same path as Stripe's deliveries: a signed request to our own endpoint.
          const payload = JSON.stringify(event);
          const signature = stripe.webhooks.generateTestHeaderString({
            payload,
            secret: webhookSecret,
          });
          const answer = await fetch(`${ownUrl}/api/webhooks/stripe`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', 'stripe-signature': signature },
            body: payload,
          });
          if (!answer.ok)
            throw new Error(
              `Our webhook refused ${event.type}: ${answer.status} ${await answer.text()}`,
            );
        },
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
    appDb,
    sessions,
    consistency: new Consistency(progress, sessions, config.READ_YOUR_WRITES_TIMEOUT_MS),
    writer: timedWriter(
      config.OPENAI_API_KEY
        ? openAiWriter({
            apiKey: config.OPENAI_API_KEY,
            baseURL: config.OPENAI_BASE_URL,
            model: config.OPENAI_MODEL,
            timeoutMs: config.OPENAI_TIMEOUT_MS,
            maxRetries: config.OPENAI_MAX_RETRIES,
          })
        : offlineWriter,
      metrics,
    ),
    drafts: new ReadingDrafts(appDb, logger),
    voice: config.ELEVENLABS_API_KEY
      ? elevenLabsVoice({
          apiKey: config.ELEVENLABS_API_KEY,
          agentIds: config.ELEVENLABS_AGENT_IDS,
          baseUrl: config.ELEVENLABS_BASE_URL,
          timeoutMs: config.ELEVENLABS_TIMEOUT_MS,
        })
      : offlineVoice,
    payments: {
      stripe,
      webhookSecret,
      pricing,
      gateway: localCheckout ?? stripeGateway(stripe),
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
    monthMoney: new MonthMoney(storage.store),
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
  deps.mail.reactor.start();
  const purge = setInterval(() => {
    void sessions.purgeExpired().catch(() => {});
    void purgeIdempotencyKeys(appDb).catch(() => {});
    void purgeApiProcesses(appDb).catch(() => {});
    void purgeSentOutbox(appDb).catch(() => {});
    void deps.drafts.purgeStale().catch(() => {});
  }, 3_600_000);
  purge.unref();
  // Without Stripe there are no invoices: the app grants due months itself.
  const renew = () =>
    void grantDueMonths(deps.ledger, read, clock(), logger).catch((error) =>
      logger.error({ err: error }, 'Granting due months failed'),
    );
  const renewals = localCheckout ? setInterval(renew, 3_600_000) : undefined;
  renewals?.unref();
  const firstRenewal = localCheckout ? setTimeout(renew, 10_000) : undefined;
  firstRenewal?.unref();
  const recover = () =>
    void recoverInterruptedReadings(deps.ledger, read, logger).catch((error) =>
      logger.error({ err: error }, 'Recovering interrupted readings failed'),
    );
  const recovery = setInterval(recover, 5 * 60_000);
  recovery.unref();
  const firstRecovery = setTimeout(recover, 5_000);
  firstRecovery.unref();
  // Erasures a crash cut short (a user deleted, not yet erased) are finished: soon, then hourly.
  const finishErasing = () =>
    void finishErasures(deps, logger).catch((error) =>
      logger.error({ err: error }, 'Finishing unfinished erasures failed'),
    );
  const erasures = setInterval(finishErasing, 3_600_000);
  erasures.unref();
  const firstErasures = setTimeout(finishErasing, 5_000);
  firstErasures.unref();
  // Voice sessions end by the clock (also lazily when read); a cut-off start is failed and refunded.
  const sweepVoice = setInterval(
    () =>
      void recoverVoiceSessions(
        deps.ledger,
        read,
        clock(),
        logger,
        voiceStartCutOffMs(config),
      ).catch((error) => logger.error({ err: error }, 'Sweeping voice sessions failed')),
    30_000,
  );
  sweepVoice.unref();

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
      clearInterval(purge);
      clearInterval(recovery);
      clearInterval(sweepVoice);
      clearTimeout(firstRecovery);
      clearInterval(erasures);
      clearTimeout(firstErasures);
      clearInterval(renewals);
      clearTimeout(firstRenewal);
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
      stopHorizonWatch();
      await projector?.stop();
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
