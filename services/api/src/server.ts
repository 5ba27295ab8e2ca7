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
import Stripe from 'stripe';
import { createApp } from './app.ts';
import { type Config, localCheckoutEnabled, webhookSecretOf } from './config.ts';
import type { AppDeps } from './dependencies.ts';
import { Consistency } from './http/consistency.ts';
import { purgeIdempotencyKeys } from './http/idempotency.ts';
import { Sessions } from './http/sessions.ts';
import { Ledger } from './ledger/ledger.ts';
import { localGateway } from './modules/payments/localGateway.ts';
import { pricingSettingsOf } from './modules/payments/pricing.ts';
import { grantDueMonths } from './modules/payments/renewals.ts';
import { stripeGateway } from './modules/payments/stripeGateway.ts';
import { openAiWriter } from './modules/readings/openAiWriter.ts';
import { recoverInterruptedReadings } from './modules/readings/recovery.ts';
import { appTables, migrateAppTables } from './storage/appDatabase.ts';

export interface RunningServer {
  url: string;
  port: number;
  deps: AppDeps;
  close(): Promise<void>;
}

export interface ServerOptions {
  /** The time the rules run on (renewal dates); the machine's clock unless given. */
  clock?: () => Date;
}

/** Opens storage, migrates, starts the projections and serves the API and the web app. */
export async function startServer(
  config: Config,
  options: ServerOptions = {},
): Promise<RunningServer> {
  const clock = options.clock ?? (() => new Date());
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
  const read = readModels(db);
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

  const sessions = new Sessions(
    storage.connection.sql,
    appDb,
    progress,
    config.READ_YOUR_WRITES_TIMEOUT_MS,
    config,
  );
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
    payments: {
      stripe,
      webhookSecret,
      pricing,
      gateway: localCheckout ?? stripeGateway(stripe),
      localCheckout,
    },
    clock,
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
  // Without Stripe there are no invoices: the app grants due months itself.
  const renew = () =>
    void grantDueMonths(deps.ledger, read, clock()).catch((error) =>
      console.error('Granting due months failed:', error),
    );
  const renewals = localCheckout ? setInterval(renew, 3_600_000) : undefined;
  renewals?.unref();
  const firstRenewal = localCheckout ? setTimeout(renew, 10_000) : undefined;
  firstRenewal?.unref();
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
  ownUrl = `http://${host}:${port}`;

  return {
    url: `http://${host}:${port}`,
    port,
    deps,
    async close() {
      clearInterval(purge);
      clearInterval(recovery);
      clearTimeout(firstRecovery);
      clearInterval(renewals);
      clearTimeout(firstRenewal);
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
