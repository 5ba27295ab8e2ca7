import { randomUUID } from 'node:crypto';
import { type CreditEvent, type ReadingEvent, streamDecoders } from '@astra/contracts';
import { CommandHandler, type EventStore } from '@astra/event-store';
import { eventually } from '@astra/event-store/testing';
import {
  type CreditAccount,
  type CreditCommand,
  creditAccountDecider,
  isDomainError,
  type Reading,
  readingDecider,
  streams,
} from '@astra/ledger';
import { sql } from 'kysely';
import { expect, it } from 'vitest';
import {
  allProjections,
  Projector,
  readModels,
  rebuildReadModels,
  verifyLedger,
} from '../src/index.ts';
import { onEachDatabase } from './databases.ts';
import { freshStorage, metadataAt } from './support.ts';

const INT4_MAX = 2 ** 31 - 1;

const creditsOf = (store: EventStore) => {
  const handler = new CommandHandler<CreditAccount, CreditEvent>(store, creditAccountDecider, {
    decode: streamDecoders.credits,
  });
  return (userId: string, command: CreditCommand) =>
    handler.handle(
      streams.credits(userId),
      (s) => creditAccountDecider.decide(command, s),
      metadataAt(new Date('2026-11-24T10:00:00Z')),
    );
};

const grant = (amount: number, grantId = randomUUID()): CreditCommand => ({
  type: 'GrantCredits',
  grantId,
  kind: 'promotional',
  amount,
  reason: 'Big grant',
  tierId: null,
  reference: null,
});

onEachDatabase('hardening: credit amounts past 2^31', (kind) => {
  const open = freshStorage(kind);

  it('projects balances recorded past 2^31 (history from before the ceiling), and rebuilds them', async () => {
    const storage = await open();
    const { store, db } = storage;
    const credit = creditsOf(store);
    const userId = randomUUID();
    await credit(userId, { type: 'OpenAccount', userId });
    // 2,148 grants of 1,000,000 went through before the ceiling: appended as they were.
    const { nextRevision } = await store.append(
      streams.credits(userId),
      Array.from({ length: 3 }, (_, i) => ({
        type: 'CreditsGranted',
        data: {
          grantId: `old-${i}`,
          kind: 'promotional',
          amount: 1_000_000_000,
          reason: 'Old grant',
          tierId: null,
          reference: null,
        },
        metadata: metadataAt(new Date('2026-11-20T10:00:00Z')),
      })),
      { expected: 0n },
    );
    expect(nextRevision).toBe(3n);
    // A spend on it still works (and is not refused by the ceiling).
    await credit(userId, {
      type: 'SpendCredits',
      spendId: 's-1',
      amount: 4,
      purpose: 'reading',
      description: 'Tarot Traditional',
      appId: 3,
      readingId: null,
    });
    await new Projector(store, db, allProjections).catchUp();

    const read = readModels(db);
    const profile = await read
      .selectFrom('profiles')
      .select(['remaining_credits', 'credits', 'promotional_credits'])
      .where('id', '=', userId)
      .executeTakeFirstOrThrow();
    // Numbers at the read edge, exact.
    expect(profile).toEqual({
      remaining_credits: 2_999_999_996,
      credits: 3_000_000_000,
      promotional_credits: 2_999_999_996,
    });
    const last = await read
      .selectFrom('ledger_entries')
      .select(['amount', 'balance_after', 'credits_after'])
      .where('user_id', '=', userId)
      .orderBy('stream_revision', 'desc')
      .executeTakeFirstOrThrow();
    expect(last).toEqual({
      amount: -4,
      balance_after: 2_999_999_996,
      credits_after: 3_000_000_000,
    });
    expect(
      await read
        .selectFrom('admin_stats')
        .select(['total_credits_granted', 'total_credits_used'])
        .executeTakeFirstOrThrow(),
    ).toEqual({ total_credits_granted: 3_000_000_000, total_credits_used: 4 });

    const verified = await verifyLedger(store, db, { lagGraceMs: 0 });
    expect(verified.differences).toEqual([]);
    expect(verified.behind).toEqual([]);
    await rebuildReadModels(store, db);
    expect((await verifyLedger(store, db, { lagGraceMs: 0 })).differences).toEqual([]);
  });

  it('many big grants across accounts: each account stops at the ceiling, the totals pass 2^31, everything projects', async () => {
    const storage = await open();
    const { store, db } = storage;
    const credit = creditsOf(store);
    const users = Array.from({ length: 4 }, () => randomUUID());
    let refused = 0;
    for (const userId of users) {
      await credit(userId, { type: 'OpenAccount', userId });
      for (let i = 0; i < 11; i++) {
        try {
          await credit(userId, grant(100_000_000));
        } catch (error) {
          if (!isDomainError(error) || error.code !== 'balance_limit') throw error;
          refused++;
        }
      }
    }
    // Ten grants reach the ceiling; the eleventh of each account is refused, nothing written.
    expect(refused).toBe(users.length);
    const projector = new Projector(store, db, allProjections);
    await projector.catchUp();
    const stats = await readModels(db)
      .selectFrom('admin_stats')
      .select('total_credits_granted')
      .executeTakeFirstOrThrow();
    expect(stats.total_credits_granted).toBe(4_000_000_000);
    expect(stats.total_credits_granted).toBeGreaterThan(INT4_MAX);
    const report = await verifyLedger(store, db, { lagGraceMs: 0 });
    expect(report.differences).toEqual([]);
    expect(report.behind).toEqual([]);
    expect(report.accounts).toBe(users.length);
  });
});

onEachDatabase('hardening: a projection that cannot apply an event', (kind) => {
  const open = freshStorage(kind);

  it('stops only that projection: the others reach the head, its failure is recorded, verify reports the lag, and it resumes once it can', async () => {
    const storage = await open();
    const { store, db } = storage;
    const credit = creditsOf(store);
    const readings = new CommandHandler<Reading, ReadingEvent>(store, readingDecider, {
      decode: streamDecoders.reading,
    });
    const request = (userId: string, question: string) => {
      const readingId = randomUUID();
      return readings.handle(
        streams.reading(readingId),
        (s) =>
          readingDecider.decide(
            {
              type: 'RequestReading',
              readingId,
              userId,
              spendId: randomUUID(),
              appId: 3,
              appName: 'Tarot Traditional',
              input: { question },
              firstName: 'Ada',
              question,
              creditsCharged: 4,
            },
            s,
          ),
        metadataAt(new Date('2026-11-24T10:00:00Z')),
      );
    };
    // A row the library cannot take (as a bad deploy or a constraint would refuse it).
    await sql`ALTER TABLE read.usage_logs ADD CONSTRAINT no_poison CHECK (question IS DISTINCT FROM 'poison')`.execute(
      db,
    );
    const errors: unknown[] = [];
    const projector = new Projector(store, db, allProjections, {
      onError: (error) => errors.push(error),
      retryMs: 20,
      maxRetryMs: 100,
    });
    projector.start();
    try {
      const userId = randomUUID();
      await credit(userId, { type: 'OpenAccount', userId });
      const fine = await request(userId, 'fine');
      const poisoned = await request(userId, 'poison');
      const other = randomUUID();
      await credit(other, { type: 'OpenAccount', userId: other });
      const { position: head } = await credit(other, grant(10));

      // The other projections reach the head; read-your-writes does not wait on the failed one.
      expect(await projector.waitFor(head!, 10_000)).toBe(true);
      // It waits right before the event it fails on (found on its own, when a batch held more).
      const failure = await eventually(async () =>
        projector
          .status()
          .find(
            (s) => s.name === 'usage_logs' && s.state === 'failed' && s.position === fine.position,
          ),
      );
      expect(failure.error).toMatch(/no_poison/);
      const checkpoints = Object.fromEntries(
        (await readModels(db).selectFrom('checkpoints').selectAll().execute()).map((row) => [
          row.name,
          BigInt(row.position),
        ]),
      );
      for (const name of ['profiles', 'ledger_entries', 'admin_stats', 'feedback']) {
        expect(checkpoints[name], name).toBe(head);
      }
      expect(checkpoints.usage_logs).toBe(fine.position);
      expect(
        await readModels(db)
          .selectFrom('profiles')
          .select('remaining_credits')
          .where('id', '=', other)
          .executeTakeFirst(),
      ).toEqual({ remaining_credits: 10 });
      // Recorded where the health route (in any process) reads it.
      const recorded = await readModels(db)
        .selectFrom('projection_failures')
        .selectAll()
        .executeTakeFirstOrThrow();
      expect(recorded).toMatchObject({ name: 'usage_logs', position: String(fine.position) });
      expect(recorded.error).toMatch(/no_poison/);
      expect(poisoned.position! > fine.position!).toBe(true);

      const report = await verifyLedger(store, db, { lagGraceMs: 0 });
      expect(report.differences).toEqual([]);
      expect(report.behind).toEqual([{ name: 'usage_logs', position: fine.position, head }]);

      // The fix is deployed (here: the constraint goes): it retries, resumes and catches up.
      await sql`ALTER TABLE read.usage_logs DROP CONSTRAINT no_poison`.execute(db);
      await eventually(async () => projector.status().every((s) => s.state === 'live'));
      await eventually(async () => {
        const row = await readModels(db)
          .selectFrom('checkpoints')
          .select('position')
          .where('name', '=', 'usage_logs')
          .executeTakeFirst();
        return row !== undefined && BigInt(row.position) >= head!;
      });
      expect(
        await readModels(db)
          .selectFrom('usage_logs')
          .select('question')
          .orderBy('created_at')
          .orderBy('question')
          .execute(),
      ).toEqual([{ question: 'fine' }, { question: 'poison' }]);
      expect(await readModels(db).selectFrom('projection_failures').selectAll().execute()).toEqual(
        [],
      );
      // Live again: new events reach every projection.
      const { position: later } = await credit(other, grant(5));
      expect(await projector.waitFor(later!, 10_000)).toBe(true);
      expect((await verifyLedger(store, db, { lagGraceMs: 2000 })).behind).toEqual([]);
    } finally {
      await projector.stop();
    }
  }, 60_000);
});
