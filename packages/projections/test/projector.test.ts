import { randomUUID } from 'node:crypto';
import {
  type CreditEvent,
  type FeedbackEvent,
  streamDecoders,
  type UserEvent,
} from '@astra/contracts';
import { CommandHandler } from '@astra/event-store';
import {
  type CreditAccount,
  type CreditCommand,
  creditAccountDecider,
  type Feedback,
  feedbackDecider,
  streams,
  type User,
  userDecider,
} from '@astra/ledger';
import { sql } from 'kysely';
import { expect, it } from 'vitest';
import { allProjections, Projector, readModels, rebuildReadModels } from '../src/index.ts';
import { onEachDatabase } from './databases.ts';
import { dumpReadModels, freshStorage, metadataAt, randomHistory } from './support.ts';

onEachDatabase('projector', (kind) => {
  const open = freshStorage(kind);

  it('projects a history into profiles, ledger entries and admin stats', async () => {
    const { store, db } = await open();
    const userId = randomUUID();
    const credits = new CommandHandler<CreditAccount, CreditEvent>(store, creditAccountDecider, {
      decode: streamDecoders.credits,
    });
    const users = new CommandHandler<User, UserEvent>(store, userDecider, {
      decode: streamDecoders.user,
    });
    let clock = Date.parse('2026-11-01T09:00:00Z');
    const tick = () => {
      clock += 60_000;
      return new Date(clock);
    };
    const at = () => metadataAt(tick());
    const admin = () => metadataAt(tick(), { kind: 'user', userId: 'admin-7', role: 'admin' });
    const credit = (command: Parameters<typeof creditAccountDecider.decide>[0], meta = at()) =>
      credits.handle(streams.credits(userId), (s) => creditAccountDecider.decide(command, s), meta);

    await users.handle(
      streams.user(userId),
      (s) =>
        userDecider.decide(
          {
            type: 'RegisterUser',
            userId,
            email: 'ada@example.com',
            fullName: 'Ada Lovelace',
            firstName: 'Ada',
            lastName: 'Lovelace',
            avatarUrl: null,
            provider: 'google',
          },
          s,
        ),
      at(),
    );
    await credit({ type: 'OpenAccount', userId });
    await credit({ type: 'GrantFreeAllotment', amount: 10 });
    await credit({
      type: 'GrantCredits',
      grantId: 'checkout:cs_1',
      kind: 'purchase',
      amount: 100,
      reason: 'Explorer pack',
      tierId: 2,
      reference: { checkoutSessionId: 'cs_1' },
    });
    await credit({
      type: 'SpendCredits',
      spendId: 'sp1',
      amount: 24,
      purpose: 'reading',
      description: 'Natal Birth Chart reading',
      appId: 1,
      readingId: 'r1',
    });
    await credit({ type: 'RefundSpend', spendId: 'sp1', reason: 'generation_failed' });
    await credit(
      {
        type: 'AdjustCredits',
        amount: -6,
        reason: 'Duplicate purchase correction',
        adminId: 'admin-7',
      },
      admin(),
    );
    await credit({
      type: 'ActivateSubscription',
      tier: { tierId: 1, tierName: 'Starter', creditsPerMonth: 60 },
      subscriptionId: 'sub_1',
      now: new Date('2026-11-01T12:00:00Z'),
    });
    await credit({
      type: 'RefreshMonthlyCredits',
      tier: { tierId: 1, tierName: 'Starter', creditsPerMonth: 60 },
      now: new Date('2026-11-02T12:00:00Z'),
    });
    await users.handle(
      streams.user(userId),
      (s) =>
        userDecider.decide(
          { type: 'UpdateProfile', changes: { birthCity: 'London', birthDate: '1815-12-10' } },
          s,
        ),
      at(),
    );

    const projector = new Projector(store, db, allProjections);
    await projector.catchUp();
    const read = readModels(db);

    const profile = await read
      .selectFrom('profiles')
      .selectAll()
      .where('id', '=', userId)
      .executeTakeFirstOrThrow();
    expect(profile).toMatchObject({
      email: 'ada@example.com',
      full_name: 'Ada Lovelace',
      birth_city: 'London',
      birth_date: '1815-12-10',
      // Purchased and free credits are kept: only subscription credits count for the rollover.
      remaining_credits: 164,
      credits: 170, // 10 + 100 + 60
      tier_id: 1,
      subscription_tier: 'Starter',
      subscription_type: 'subscription',
      subscription_status: 'active',
      credits_per_month: 60,
      next_renewal_date: '2026-12-01',
      last_credit_refresh_date: '2026-11-02',
      credits_rollover_remaining: 0,
      // The spend took the 10 free and 14 purchased; its refund gave them back; the admin's -6
      // took free credits (spent before purchased ones).
      subscription_credits: 60,
      free_credits: 4,
      promotional_credits: 0,
      purchased_credits: 100,
      status: 'active',
      role: 'user',
    });

    const entries = await read
      .selectFrom('ledger_entries')
      .selectAll()
      .where('user_id', '=', userId)
      .orderBy('stream_revision')
      .execute();
    expect(entries.map((e) => [e.type, e.amount, e.balance_after])).toEqual([
      ['CreditAccountOpened', 0, 0],
      ['FreeCreditsGranted', 10, 10],
      ['CreditsGranted', 100, 110],
      ['CreditsSpent', -24, 86],
      ['SpendRefunded', 24, 110],
      ['CreditsAdjusted', -6, 104],
      ['SubscriptionActivated', 0, 104],
      ['MonthlyCreditsGranted', 60, 164],
    ]);
    const adjustment = entries.find((e) => e.type === 'CreditsAdjusted')!;
    expect(adjustment).toMatchObject({
      actor_kind: 'user',
      actor_id: 'admin-7',
      actor_role: 'admin',
      kind: 'adjustment',
      details: { note: 'Duplicate purchase correction' },
    });
    expect(entries.find((e) => e.type === 'CreditsGranted')!.reference).toEqual({
      checkoutSessionId: 'cs_1',
    });
    expect(
      entries.every((e, i) => i === 0 || BigInt(e.position) > BigInt(entries[i - 1]!.position)),
    ).toBe(true);

    expect(
      await read.selectFrom('admin_stats').selectAll().executeTakeFirstOrThrow(),
    ).toMatchObject({
      total_users: 1,
      active_users: 1,
      total_credits_used: 0, // the refund gave the spend back
      total_credits_granted: 170,
    });
  });

  it("keeps the dashboard's daily series by UTC day, and the moment they are as of", async () => {
    const { store, db } = await open();
    const credits = new CommandHandler<CreditAccount, CreditEvent>(store, creditAccountDecider, {
      decode: streamDecoders.credits,
    });
    const users = new CommandHandler<User, UserEvent>(store, userDecider, {
      decode: streamDecoders.user,
    });
    const credit = (userId: string, at: string, command: CreditCommand) =>
      credits.handle(
        streams.credits(userId),
        (s) => creditAccountDecider.decide(command, s),
        metadataAt(new Date(at)),
      );
    const register = (userId: string, at: string) =>
      users.handle(
        streams.user(userId),
        (s) =>
          userDecider.decide(
            {
              type: 'RegisterUser',
              userId,
              email: `${userId}@example.com`,
              fullName: null,
              firstName: null,
              lastName: null,
              avatarUrl: null,
              provider: 'dev',
            },
            s,
          ),
        metadataAt(new Date(at)),
      );
    const [ada, bob] = [randomUUID(), randomUUID()];
    const pack = (userId: string, pi: string): CreditCommand => ({
      type: 'GrantCredits',
      grantId: `checkout:cs_${pi}`,
      kind: 'purchase',
      amount: 100,
      reason: 'Explorer pack',
      tierId: 2,
      reference: { paymentIntentId: pi, userId },
      payment: { amountMinor: 1799, currency: 'usd' },
    });
    const refund = (pi: string, refundedMinor: number): CreditCommand => ({
      type: 'RefundPurchase',
      paymentIntentId: pi,
      chargeId: `ch_${pi}`,
      refundedMinor,
      paidMinor: 1799,
      currency: 'usd',
    });
    const spend = (spendId: string, amount: number): CreditCommand => ({
      type: 'SpendCredits',
      spendId,
      amount,
      purpose: 'reading',
      description: 'Tarot',
      appId: 3,
      readingId: null,
    });
    // Day one, just before midnight UTC: Ada signs up, buys, spends 24 and gets 8 back.
    await register(ada, '2026-11-01T22:00:00Z');
    await credit(ada, '2026-11-01T22:00:01Z', { type: 'OpenAccount', userId: ada });
    await credit(ada, '2026-11-01T22:10:00Z', pack(ada, 'pi_a'));
    await credit(ada, '2026-11-01T23:00:00Z', spend('s1', 24));
    await credit(ada, '2026-11-01T23:30:00Z', spend('s2', 8));
    await credit(ada, '2026-11-01T23:59:59Z', {
      type: 'RefundSpend',
      spendId: 's2',
      reason: 'generation_failed',
    });
    const projector = new Projector(store, db, allProjections, { batchSize: 3 });
    await projector.catchUp();
    // Day two: Bob signs up; Ada's payment is refunded 0.10 (no credit) and then 5.39 in all;
    // the redelivered refund records nothing.
    await register(bob, '2026-11-02T00:00:00Z');
    await credit(bob, '2026-11-02T00:00:01Z', { type: 'OpenAccount', userId: bob });
    await credit(ada, '2026-11-02T08:00:00Z', refund('pi_a', 10));
    await credit(ada, '2026-11-02T09:00:00Z', refund('pi_a', 539));
    await credit(ada, '2026-11-02T09:30:00Z', refund('pi_a', 539));
    await credit(bob, '2026-11-02T10:00:00Z', {
      type: 'GrantCredits',
      grantId: 'checkout:cs_e',
      kind: 'purchase',
      amount: 40,
      reason: 'Starter pack',
      tierId: 1,
      reference: { paymentIntentId: 'pi_e' },
      payment: { amountMinor: 799, currency: 'EUR' },
    });
    await projector.catchUp();

    const read = readModels(db);
    const daily = await read
      .selectFrom('admin_stats_daily')
      .select([
        sql<string>`day::text`.as('day'),
        sql<number>`signups::int`.as('signups'),
        sql<number>`credits_used::int`.as('credits_used'),
        'revenue_minor',
      ])
      .orderBy('day')
      .execute();
    expect(daily).toEqual([
      { day: '2026-11-01', signups: 1, credits_used: 24, revenue_minor: { usd: 1799 } },
      { day: '2026-11-02', signups: 1, credits_used: 0, revenue_minor: { usd: -539, eur: 799 } },
    ]);
    const stats = await read.selectFrom('admin_stats').selectAll().executeTakeFirstOrThrow();
    expect(stats).toMatchObject({ total_users: 2, total_credits_used: 24 });
    expect(new Date(stats.as_of!).toISOString()).toBe('2026-11-02T10:00:00.000Z');

    // A replay from zero in other batches gives the same rows.
    const once = await dumpReadModels(db);
    await read.updateTable('checkpoints').set({ position: '0' }).execute();
    await new Projector(store, db, allProjections, { batchSize: 1000 }).catchUp();
    expect(await dumpReadModels(db)).toEqual(once);
    await rebuildReadModels(store, db, { batchSize: 2 });
    expect(await dumpReadModels(db)).toEqual(once);
  });

  it('projects each feedback message once, dated by when it was sent', async () => {
    const { store, db } = await open();
    const feedback = new CommandHandler<Feedback, FeedbackEvent>(store, feedbackDecider, {
      decode: streamDecoders.feedback,
    });
    const sent = new Date('2026-11-20T10:00:00Z');
    for (const [feedbackId, message] of [
      ['f-1', 'Lovely'],
      ['f-2', 'More tarot, please'],
      ['f-1', 'Lovely'], // the same message again is not a second one
    ] as const) {
      await feedback.handle(
        streams.feedback(feedbackId),
        (s) =>
          feedbackDecider.decide({ type: 'SubmitFeedback', feedbackId, userId: 'u-1', message }, s),
        metadataAt(sent, { kind: 'user', userId: 'u-1', role: 'user' }),
      );
    }
    await new Projector(store, db, allProjections).catchUp();
    await readModels(db).updateTable('checkpoints').set({ position: '0' }).execute();
    await new Projector(store, db, allProjections).catchUp(); // a replay changes nothing
    const rows = await readModels(db)
      .selectFrom('feedback')
      .selectAll()
      .orderBy('feedback_id')
      .execute();
    expect(rows).toEqual([
      { feedback_id: 'f-1', user_id: 'u-1', message: 'Lovely', created_at: sent },
      { feedback_id: 'f-2', user_id: 'u-1', message: 'More tarot, please', created_at: sent },
    ]);
  });

  it('applies nothing twice: a replay from zero, or two projectors at once, leave the same tables', async () => {
    const { store, db } = await open();
    await randomHistory(store, { commands: 400, users: 12, seed: 7 });
    const first = new Projector(store, db, allProjections, { batchSize: 37 });
    await first.catchUp();
    const once = await dumpReadModels(db);

    await readModels(db).updateTable('checkpoints').set({ position: '0' }).execute();
    await Promise.all([
      new Projector(store, db, allProjections, { batchSize: 50 }).catchUp(),
      new Projector(store, db, allProjections, { batchSize: 23 }).catchUp(),
    ]);
    expect(await dumpReadModels(db)).toEqual(once);
  });

  it('follows live appends, and a command can wait until its write is readable', async () => {
    const { store, db } = await open();
    const projector = new Projector(store, db, allProjections);
    projector.start();
    try {
      const userId = randomUUID();
      const credits = new CommandHandler<CreditAccount, CreditEvent>(store, creditAccountDecider, {
        decode: streamDecoders.credits,
      });
      await credits.handle(
        streams.credits(userId),
        (s) => creditAccountDecider.decide({ type: 'OpenAccount', userId }, s),
        metadataAt(new Date()),
      );
      const { position } = await credits.handle(
        streams.credits(userId),
        (s) => creditAccountDecider.decide({ type: 'GrantFreeAllotment', amount: 10 }, s),
        metadataAt(new Date()),
      );
      expect(await projector.waitFor(position!, 5000)).toBe(true);
      const profile = await readModels(db)
        .selectFrom('profiles')
        .select('remaining_credits')
        .where('id', '=', userId)
        .executeTakeFirst();
      expect(profile?.remaining_credits).toBe(10);
      expect(await projector.waitFor(position! + (1n << 40n), 50)).toBe(false);
    } finally {
      await projector.stop();
    }
  });

  it('rebuilds from zero into fresh tables and swaps: two rebuilds give identical tables', async () => {
    const { store, db } = await open();
    await randomHistory(store, { commands: 600, users: 15, seed: 11 });
    const live = new Projector(store, db, allProjections);
    await live.catchUp();
    const projected = await dumpReadModels(db);

    let total = 0;
    for await (const _ of store.readAll()) total++;
    const first = await rebuildReadModels(store, db);
    expect(first.events).toBe(total);
    const afterFirst = await dumpReadModels(db);
    await rebuildReadModels(store, db, { batchSize: 97 });
    const afterSecond = await dumpReadModels(db);

    expect(afterFirst).toEqual(afterSecond);
    expect(afterFirst).toEqual(projected);
    // The live projector carries on over the swapped-in tables.
    const userId = randomUUID();
    const credits = new CommandHandler<CreditAccount, CreditEvent>(store, creditAccountDecider, {
      decode: streamDecoders.credits,
    });
    await credits.handle(
      streams.credits(userId),
      (s) => creditAccountDecider.decide({ type: 'OpenAccount', userId }, s),
      metadataAt(new Date()),
    );
    await live.catchUp();
    expect(
      await readModels(db)
        .selectFrom('profiles')
        .select('id')
        .where('id', '=', userId)
        .executeTakeFirst(),
    ).toEqual({ id: userId });
  });
});
