import type { HorizonHold, Keyring, SnapshotStore } from '@astra/event-store';
import type { MonthMoney, ReadDb } from '@astra/projections';
import type { NarrativeWriter } from '@astra/readings';
import type { Kysely } from 'kysely';
import type Stripe from 'stripe';
import type { Config } from './config.ts';
import type { ApiProcess } from './http/apiProcess.ts';
import type { Consistency } from './http/consistency.ts';
import type { ReadReplicas } from './http/readReplicas.ts';
import type { Sessions } from './http/sessions.ts';
import type { Ledger } from './ledger/ledger.ts';
import type { MailSettings } from './modules/mail/mailReactor.ts';
import type { MailTransport } from './modules/mail/transport.ts';
import type { PaymentGateway } from './modules/payments/gateway.ts';
import type { LocalCheckout } from './modules/payments/localGateway.ts';
import type { PricingSettings } from './modules/payments/pricing.ts';
import type { Catalog } from './modules/readings/catalog.ts';
import type { ReadingDrafts } from './modules/readings/drafts.ts';
import type { VoiceService } from './modules/voice/voiceService.ts';
import type { Logger } from './observability/logger.ts';
import type { Metrics } from './observability/metrics.ts';
import type { ReactorRunner } from './reactors/reactor.ts';
import type { AppDb } from './storage/appDatabase.ts';

/** What the routes work with; assembled once in `server.ts`. */
export interface AppDeps {
  config: Config;
  ledger: Ledger;
  /** The data keys of personal data: erasure destroys a person's (docs/operations.md). */
  keyring: Keyring;
  /** Folds of streams kept beside the log (balances as of an instant start from them). */
  snapshots: SnapshotStore;
  /** The oldest transaction holding the event log's horizon (never, with the log on KurrentDB). */
  horizonHold: () => Promise<HorizonHold | null>;
  /** The database of the read models and the app tables. */
  db: Kysely<unknown>;
  /** The read models: on a read replica for a GET routed there (`replicas`), else the primary. */
  read: ReadDb;
  /** Hot standbys the GET requests read from (`DATABASE_READ_URL`), when there are any. */
  replicas: ReadReplicas | null;
  appDb: AppDb;
  sessions: Sessions;
  consistency: Consistency;
  /** The reading kinds sold and their prices: commands take a reading's price from here. */
  catalog: Catalog;
  /** Writes the text of readings (OpenAI with a key, else offline). */
  writer: NarrativeWriter;
  /** The texts of readings being written, where every process's readers find them. */
  drafts: ReadingDrafts;
  /** The voice guide's service: ElevenLabs Agents with a key, else the offline guide. */
  voice: VoiceService;
  /** Stripe (its SDK also checks webhook signatures) or the local checkout of development. */
  payments: {
    stripe: Stripe;
    webhookSecret: string;
    /** Configured amounts, currency and Stripe price ids over the seeded catalogue. */
    pricing: PricingSettings;
    gateway: PaymentGateway;
    /** Present when there is no Stripe key: our own checkout page. */
    localCheckout: LocalCheckout | null;
  };
  /** The product's e-mails: the reactor that records and sends them, its transport and sender. */
  mail: { reactor: ReactorRunner; transport: MailTransport; settings: MailSettings };
  /** The time, for rules that depend on it (renewal dates). */
  clock: () => Date;
  /** The process's JSON logger (a request's own is `req.log`, with its ids). */
  logger: Logger;
  /** Prometheus metrics (`GET /metrics`). */
  metrics: Metrics;
  /** This month's money as the month report counts it, folded in this process (the dashboard). */
  monthMoney: MonthMoney;
  /** This process as the database knows it (its idempotency claims name it). */
  apiProcess: ApiProcess;
  /** Migrations ran and the projections run. */
  ready: () => Promise<boolean>;
}
