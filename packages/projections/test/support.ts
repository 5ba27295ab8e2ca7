import { randomUUID } from 'node:crypto';
import {
  type CreditEvent,
  type EventMetadata,
  type FeedbackEvent,
  personalData,
  type ReadingEvent,
  SCHEMA_VERSION,
  type StripeBalanceEvent,
  streamDecoders,
  type UserEvent,
} from '@astra/contracts';
import { CommandHandler, type EventStore, openStorage } from '@astra/event-store';
import { createThrowawayDatabase, pgliteTemplate } from '@astra/event-store/testing';
import {
  type CreditAccount,
  type CreditCommand,
  creditAccountDecider,
  type Feedback,
  feedbackDecider,
  isDomainError,
  type Reading,
  type ReadingCommand,
  readingDecider,
  type StripeBalance,
  streams,
  stripeBalanceDecider,
  type Tier,
  type User,
  type UserCommand,
  userDecider,
} from '@astra/ledger';
import { type Kysely, sql } from 'kysely';
import { afterEach } from 'vitest';
import { databaseFor, migrateReadModels, READ_SCHEMA } from '../src/index.ts';

/**
 * A fresh storage with migrated read models: PGlite in memory, or a throwaway PostgreSQL
 * database (its `databaseUrl`, for processes started on it). With `dataKeySecret`, personal
 * data is sealed under it, as the API and the CLIs seal it.
 */
export async function openTestStorage(
  kind: 'pglite' | 'postgres',
  { dataKeySecret }: { dataKeySecret?: string } = {},
) {
  const database = kind === 'postgres' ? await createThrowawayDatabase() : undefined;
  const storage = await openStorage({
    ...(database
      ? { databaseUrl: database.url, dataDir: null }
      : { dataDir: null, pgliteTemplate: await pgliteTemplate() }),
    ...(dataKeySecret ? { personalData, dataKeySecret } : {}),
  });
  const db = databaseFor(storage.connection);
  await migrateReadModels(db, READ_SCHEMA);
  return {
    ...storage,
    db,
    databaseUrl: database?.url,
    async dispose() {
      await db.destroy();
      await storage.close();
      await database?.drop();
    },
  };
}

/**
 * For the tests of a `describe`: `open()` gives a test a fresh storage, disposed after that test.
 */
export function freshStorage(kind: 'pglite' | 'postgres') {
  let storage: Awaited<ReturnType<typeof openTestStorage>> | undefined;
  afterEach(async () => {
    await storage?.dispose();
    storage = undefined;
  });
  return async () => (storage = await openTestStorage(kind));
}

export const metadataAt = (
  at: Date,
  actor: EventMetadata['actor'] = { kind: 'system' },
): EventMetadata => ({
  occurredAt: at.toISOString(),
  actor,
  correlationId: randomUUID(),
  causationId: null,
  schemaVersion: SCHEMA_VERSION,
});

/**
 * Runs credit commands on members' accounts as the API would, each as if it happened at an
 * instant: `at(instant, command, userId)` appends what the decider decides and answers the log
 * position of its last event (a refusal throws, as in the API).
 */
export function creditsAt(store: EventStore) {
  const credits = new CommandHandler<CreditAccount, CreditEvent>(store, creditAccountDecider, {
    decode: streamDecoders.credits,
  });
  return async (instant: string, command: CreditCommand, userId: string): Promise<bigint> => {
    const { position } = await credits.handle(
      streams.credits(userId),
      (account) => creditAccountDecider.decide(command, account),
      metadataAt(new Date(instant)),
    );
    if (position === null) throw new Error('The command appended nothing');
    return position;
  };
}

/** A pack of `amount` credits paid `amountMinor` US cents for. */
export const packPurchase = (amount: number, amountMinor: number): CreditCommand => ({
  type: 'GrantCredits',
  grantId: randomUUID(),
  kind: 'purchase',
  amount,
  reason: 'Credit pack',
  tierId: 2,
  reference: { checkoutSessionId: `cs_${randomUUID()}` },
  payment: { amountMinor, currency: 'usd' },
});

/** A spend of `amount` credits on a Tarot Traditional reading (app 3). */
export const readingSpend = (amount: number): CreditCommand => ({
  type: 'SpendCredits',
  spendId: randomUUID(),
  amount,
  purpose: 'reading',
  description: 'A reading',
  appId: 3,
  readingId: null,
});

/** Deterministic pseudo-random numbers (mulberry32), so a failing history can be replayed. */
export const seeded = (seed: number) => () => {
  seed = (seed + 0x6d2b79f5) | 0;
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
};

const tiers: Tier[] = [
  { tierId: 1, tierName: 'Starter', creditsPerMonth: 60 },
  { tierId: 3, tierName: 'Stargazer', creditsPerMonth: 250 },
];

/**
 * Drives the user and credit deciders with `commands` random commands over `users` accounts,
 * the way the API would: refusals append nothing. Returns how many were applied and refused.
 * With `payouts`, every 40th command is also a Stripe payout (`stripe-balance`) of three payout
 * ids in turn, paid or failed, listing a new balance transaction and the previous one again (its
 * fee is booked once): no extra random draw, so the other commands are those of the seed.
 * With `disputes`, every 40th command (20 after a payout) opens a dispute of the payment of the
 * last pack bought (its withdrawal and dispute fee on `stripe-balance`, the pack's credits held),
 * closed 10 commands later, won or lost in turn (a won one's money returned); the next payout
 * lists its withdrawal again (booked once). No random draw either.
 */
export async function randomHistory(
  store: EventStore,
  {
    commands,
    users,
    seed = 42,
    payouts = false,
    disputes = false,
  }: { commands: number; users: number; seed?: number; payouts?: boolean; disputes?: boolean },
) {
  const random = seeded(seed);
  const pick = <T>(items: readonly T[]) => items[Math.floor(random() * items.length)]!;
  const credits = new CommandHandler<CreditAccount, CreditEvent>(store, creditAccountDecider, {
    decode: streamDecoders.credits,
  });
  const people = new CommandHandler<User, UserEvent>(store, userDecider, {
    decode: streamDecoders.user,
  });
  const feedback = new CommandHandler<Feedback, FeedbackEvent>(store, feedbackDecider, {
    decode: streamDecoders.feedback,
  });
  const balance = new CommandHandler<StripeBalance, StripeBalanceEvent>(
    store,
    stripeBalanceDecider,
    { decode: streamDecoders.stripeBalance },
  );
  const payout = async (i: number) => {
    clock += 60_000;
    const transaction = (n: number) => ({
      id: `txn_${n}`,
      type: 'charge',
      currency: 'usd',
      amountMinor: 1799,
      feeMinor: 52 + (n % 7),
      netMinor: 1799 - 52 - (n % 7),
      sourceId: `ch_${n}`,
    });
    const handled = await balance.handle(
      streams.stripeBalance(null),
      (s) =>
        stripeBalanceDecider.decide(
          {
            type: 'RecordPayout',
            eventId: `evt_${i}`,
            payout: {
              id: `po_${(i / 40) % 3}`,
              amountMinor: 1500,
              currency: 'usd',
              arrivalDate: new Date(clock).toISOString(),
              status: (i / 40) % 4 === 3 ? 'failed' : 'paid',
            },
            transactions: [
              transaction(i),
              transaction(i - 40),
              ...(disputes && i >= 40 ? [withdrawal(i - 20)] : []),
            ],
          },
          s,
        ),
      metadataAt(new Date(clock), { kind: 'stripe' }),
    );
    if (handled.newEvents.length) applied++;
  };
  /** The money a dispute opened at command `n` withdrew (and its fee). */
  const withdrawal = (n: number) => ({
    id: `txn_du_${n}`,
    type: 'dispute',
    currency: 'usd',
    amountMinor: -1799,
    feeMinor: 1500,
    netMinor: -3299,
    sourceId: `du_${n}`,
  });
  /** A dispute opened at command `opened`: at it, or (`status`) closed at command `i`. */
  const dispute = async (i: number, opened: number, status: 'needs_response' | 'won' | 'lost') => {
    const payment = disputedPacks.get(opened);
    if (!payment) return;
    clock += 60_000;
    const { userId, paymentIntentId } = payment;
    const disputed = {
      disputeId: `du_${opened}`,
      chargeId: `ch_du_${opened}`,
      paymentIntentId,
      amountMinor: 1799,
      currency: 'usd',
    };
    const metadata = metadataAt(new Date(clock), { kind: 'stripe' });
    const returned = { ...withdrawal(opened), id: `txn_dr_${opened}`, amountMinor: 1799 };
    const { newEvents } = await balance.handle(
      streams.stripeBalance(null),
      (s) =>
        stripeBalanceDecider.decide(
          {
            type: 'RecordDispute',
            eventId: `evt_du_${i}`,
            dispute: {
              id: disputed.disputeId,
              chargeId: disputed.chargeId,
              amountMinor: 1799,
              currency: 'usd',
              status,
            },
            transactions: status === 'won' ? [withdrawal(opened), returned] : [withdrawal(opened)],
          },
          s,
        ),
      metadata,
    );
    if (newEvents.length) applied++;
    const command: CreditCommand =
      status === 'needs_response'
        ? { type: 'OpenDispute', ...disputed }
        : { type: 'CloseDispute', ...disputed, status, paidMinor: 1799 };
    const handled = await credits.handle(
      streams.credits(userId),
      (s) => creditAccountDecider.decide(command, s),
      metadata,
    );
    if (handled.newEvents.length) applied++;
  };
  const ids = Array.from({ length: users }, () => randomUUID());
  /** The last pack bought, and the one each dispute (by the command that opened it) disputes. */
  let lastPack: { userId: string; paymentIntentId: string } | null = null;
  const disputedPacks = new Map<number, { userId: string; paymentIntentId: string }>();
  let clock = Date.parse('2026-01-01T00:00:00Z');
  let applied = 0;
  let refused = 0;

  const readings = new CommandHandler<Reading, ReadingEvent>(store, readingDecider, {
    decode: streamDecoders.reading,
  });
  const run = async (
    kind: 'credits' | 'user' | 'reading',
    userId: string,
    command: CreditCommand | UserCommand | ReadingCommand,
  ) => {
    clock += Math.floor(random() * 3_600_000);
    const at = new Date(clock);
    const admin = random() < 0.5;
    const metadata = metadataAt(
      at,
      admin ? { kind: 'user', userId: 'admin-1', role: 'admin' } : { kind: 'system' },
    );
    try {
      if (kind === 'credits') {
        const handled = await credits.handle(
          streams.credits(userId),
          (s) => creditAccountDecider.decide(command as CreditCommand, s),
          metadata,
        );
        if (handled.newEvents.length) applied++;
      } else if (kind === 'reading') {
        // The reading stream's id travels in the command (RequestReading) or in `userId`'s place.
        const readingId = 'readingId' in command ? String(command.readingId) : userId;
        // Whose reading it is (the store seals its personal fields under the requester's key).
        const subject = (s: Reading) => s.userId ?? ('userId' in command ? command.userId : userId);
        const handled = await readings.handle(
          streams.reading(readingId),
          (s) => readingDecider.decide(command as ReadingCommand, s),
          (s) => ({ ...metadata, subject: subject(s) }),
        );
        if (handled.newEvents.length) applied++;
      } else {
        const handled = await people.handle(
          streams.user(userId),
          (s) => userDecider.decide(command as UserCommand, s),
          metadata,
        );
        if (handled.newEvents.length) applied++;
      }
    } catch (error) {
      if (!isDomainError(error)) throw error;
      refused++;
    }
  };

  for (const userId of ids) {
    await run('user', userId, {
      type: 'RegisterUser',
      userId,
      email: `${userId}@example.com`,
      fullName: 'Random Person',
      firstName: 'Random',
      lastName: 'Person',
      avatarUrl: null,
      provider: 'dev',
    });
    await run('credits', userId, { type: 'OpenAccount', userId });
    await run('credits', userId, { type: 'GrantFreeAllotment', amount: 10 });
  }
  const spendIds = new Map<string, string[]>();
  for (let i = 0; i < commands; i++) {
    if (payouts && i % 40 === 0) await payout(i);
    if (disputes && i % 40 === 20 && lastPack) {
      disputedPacks.set(i, lastPack);
      await dispute(i, i, 'needs_response');
    }
    if (disputes && i % 40 === 30) await dispute(i, i - 10, (i - 10) % 80 === 20 ? 'won' : 'lost');
    const userId = pick(ids);
    const roll = random();
    const now = new Date(clock);
    if (roll < 0.05) {
      // A reading's saga: requested, paid, then generated or failed and refunded; sometimes deleted.
      const readingId = randomUUID();
      const spendId = randomUUID();
      const amount = pick([4, 5, 8, 12, 24]);
      await run('reading', userId, {
        type: 'RequestReading',
        readingId,
        userId,
        appId: 3,
        appName: 'Tarot Traditional',
        input: { question: 'Why?' },
        firstName: 'Random',
        question: `Question ${i}?`,
        creditsCharged: amount,
        spendId,
      });
      await run('credits', userId, {
        type: 'SpendCredits',
        spendId,
        amount,
        purpose: 'reading',
        description: 'Tarot Traditional',
        appId: 3,
        readingId,
      });
      if (random() < 0.8) {
        await run('reading', readingId, {
          type: 'CompleteReading',
          result: { readingText: `Reading ${i}` },
          writer: 'offline',
        });
        if (random() < 0.3) await run('reading', readingId, { type: 'DeleteReading', userId });
      } else {
        await run('credits', userId, { type: 'RefundSpend', spendId, reason: 'generation_failed' });
        await run('reading', readingId, {
          type: 'FailReading',
          reason: 'generation_failed',
          refunded: true,
        });
      }
    } else if (roll < 0.35) {
      const spendId = randomUUID();
      spendIds.set(userId, [...(spendIds.get(userId) ?? []).slice(-20), spendId]);
      await run('credits', userId, {
        type: 'SpendCredits',
        spendId,
        amount: pick([2, 4, 5, 8, 12, 24]),
        purpose: random() < 0.9 ? 'reading' : 'voice_reactivation',
        description: 'A reading',
        appId: 3,
        readingId: null,
      });
    } else if (roll < 0.45) {
      await run('credits', userId, {
        type: 'RefundSpend',
        spendId: pick(spendIds.get(userId) ?? ['none']),
        reason: 'generation_failed',
      });
    } else if (roll < 0.6) {
      const grantId = random() < 0.1 ? 'checkout:repeat' : randomUUID();
      const kind = random() < 0.8 ? 'purchase' : 'promotional';
      if (kind === 'purchase') lastPack = { userId, paymentIntentId: `pi_${userId}_${i % 7}` };
      await run('credits', userId, {
        type: 'GrantCredits',
        grantId,
        kind,
        amount: pick([40, 100, 180]),
        reason: 'Credit pack',
        tierId: 2,
        reference: { checkoutSessionId: `cs_${i}`, paymentIntentId: `pi_${userId}_${i % 7}` },
        // What Stripe took, VAT included for some (no extra random draw: the seeded histories
        // stay as they were).
        payment: {
          amountMinor: 1799,
          currency: i % 5 === 0 ? 'eur' : 'usd',
          ...(i % 3 === 0 ? { tax: { amountMinor: 287, country: 'DE', ratePercent: 19 } } : {}),
          ...(i % 3 === 1 ? { tax: { amountMinor: 300, country: 'FR', ratePercent: 20 } } : {}),
        },
      });
    } else if (roll < 0.72) {
      await run('credits', userId, {
        type: 'AdjustCredits',
        amount: pick([-30, -5, 3, 20, 0]),
        reason: random() < 0.05 ? ' ' : 'Support adjustment',
        adminId: 'admin-1',
      });
    } else if (roll < 0.78) {
      await run('credits', userId, {
        type: 'ActivateSubscription',
        tier: pick(tiers),
        subscriptionId: `sub_${userId}`,
        now,
      });
    } else if (roll < 0.86) {
      const tier = pick(tiers);
      await run(
        'credits',
        userId,
        random() < 0.5
          ? { type: 'RefreshMonthlyCredits', tier, now }
          : {
              type: 'GrantMonthlyCredits',
              tier,
              period: now.toISOString().slice(0, 7),
              trigger: 'renewal',
              reference: { invoiceId: `in_${i}` },
              now,
              payment: { amountMinor: 999, currency: 'usd' },
            },
      );
    } else if (roll < 0.89) {
      // Refunds of some payment intent of this user, partial or whole, before or after it was paid.
      await run('credits', userId, {
        type: 'RefundPurchase',
        paymentIntentId: `pi_${userId}_${Math.floor(random() * 7)}`,
        chargeId: `ch_${i}`,
        refundedMinor: pick([300, 1000, 1799]),
        paidMinor: 1799,
        currency: 'usd',
      });
    } else if (roll < 0.92) {
      await run(
        'credits',
        userId,
        random() < 0.5
          ? { type: 'CancelSubscription', reason: 'user_requested' }
          : { type: 'EndSubscription', reason: 'stripe' },
      );
    } else if (roll < 0.97) {
      await run(
        'user',
        userId,
        pick<UserCommand>([
          { type: 'BlockUser' },
          { type: 'UnblockUser' },
          { type: 'UpdateProfile', changes: { birthCity: pick(['Paris', 'Lima', 'Oslo']) } },
          { type: 'ChangeRole', role: pick(['user', 'admin']) },
        ]),
      );
    } else if (roll < 0.975) {
      await run('user', userId, { type: 'DeleteUser', reason: 'user_requested' });
      await run('credits', userId, { type: 'CloseAccount' });
    } else if (roll < 0.985) {
      await run('credits', userId, { type: 'GrantFreeAllotment', amount: 10 });
    } else {
      const feedbackId = randomUUID();
      clock += Math.floor(random() * 3_600_000);
      await feedback.handle(
        streams.feedback(feedbackId),
        (s) =>
          feedbackDecider.decide(
            { type: 'SubmitFeedback', feedbackId, userId, message: `Feedback ${i}` },
            s,
          ),
        metadataAt(new Date(clock), { kind: 'user', userId, role: 'user' }),
      );
      applied++;
    }
  }
  return { applied, refused, users: ids };
}

/** Every read table's rows in key order: two dumps are equal when the read models are. */
export async function dumpReadModels(db: Kysely<unknown>, schema = READ_SCHEMA) {
  const keys: Record<string, string> = {
    profiles: 'id',
    ledger_entries: 'position',
    apps: 'app_id',
    pricing_tiers: 'tier_id',
    pricing_rows: 'tier_id, billing_type',
    usage_logs: 'log_id',
    admin_stats: 'id',
    admin_stats_users: 'user_id',
    admin_stats_daily: 'day',
    feedback: 'feedback_id',
    checkpoints: 'name',
  };
  const dump: Record<string, unknown[]> = {};
  for (const [table, key] of Object.entries(keys)) {
    const result =
      await sql`SELECT * FROM ${sql.table(`${schema}.${table}`)} ORDER BY ${sql.raw(key)}`.execute(
        db,
      );
    dump[table] = result.rows;
  }
  return dump;
}
