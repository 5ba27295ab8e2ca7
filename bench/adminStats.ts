import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CreditEvent, UserEvent } from '@astra/contracts';
import { personalData, SCHEMA_VERSION } from '@astra/contracts';
import { openStorage } from '@astra/event-store';
import { createThrowawayDatabase } from '@astra/event-store/testing';
import { streams } from '@astra/ledger';
import {
  databaseFor,
  MonthMoney,
  migrateReadModels,
  READ_SCHEMA,
  readModels,
  rebuildReadModels,
} from '@astra/projections';
import { sql } from 'kysely';
import { adminStatsOf } from '../services/api/src/modules/admin/stats.ts';
import { startAdminServer } from './adminServer.ts';
import { writeSection } from './report.ts';

const USERS = Number(process.env.BENCH_ADMIN_USERS ?? 100_000);
const CREDIT_EVENTS = Number(process.env.BENCH_ADMIN_CREDIT_EVENTS ?? 1_000_000);
const CALLS = Number(process.env.BENCH_ADMIN_CALLS ?? 500);
const DAYS = 60;
const DAY_MS = 86_400_000;

/** One user's streams: registered, then `count` credit events (packs paid, spends, refunds). */
function historyOf(userId: string, index: number, count: number, joined: number) {
  const user: UserEvent = {
    type: 'UserRegistered',
    data: {
      userId,
      email: `member${index}@example.com`,
      fullName: `Member ${index} ${['Lovelace', 'Hopper', 'Turing', 'Noether'][index % 4]}`,
      firstName: `Member ${index}`,
      lastName: null,
      avatarUrl: null,
      provider: 'dev',
    },
  };
  const credits: CreditEvent[] = [
    { type: 'CreditAccountOpened', data: { userId } },
    { type: 'FreeCreditsGranted', data: { amount: 10 } },
  ];
  let balance = 10;
  while (credits.length < count) {
    const n = credits.length;
    if (balance < 24 || n % 5 === 0) {
      const pi = `pi_${randomUUID().replaceAll('-', '')}`;
      credits.push({
        type: 'CreditsGranted',
        data: {
          grantId: `checkout:cs_${pi}`,
          kind: 'purchase',
          amount: 100,
          reason: 'Explorer pack',
          tierId: 2,
          reference: { paymentIntentId: pi },
          payment: { amountMinor: 1799, currency: 'usd' },
        },
      });
      balance += 100;
      if (n % 7 === 0 && credits.length < count) {
        credits.push({
          type: 'PaymentRefunded',
          data: {
            paymentIntentId: pi,
            chargeId: `ch_${pi}`,
            amountMinor: 10,
            refundedMinor: 10,
            currency: 'usd',
          },
        });
      }
    } else {
      const amount = [4, 5, 8, 12, 24][n % 5]!;
      credits.push({
        type: 'CreditsSpent',
        data: {
          spendId: randomUUID(),
          amount,
          purpose: 'reading',
          description: 'Tarot Traditional reading',
          appId: 3,
          readingId: null,
        },
      });
      balance -= amount;
    }
  }
  // Spread over the days after joining, in order.
  const at = (i: number) =>
    new Date(joined + Math.floor(((Date.now() - joined) * i) / count)).toISOString();
  const metadata = (occurredAt: string) => ({
    occurredAt,
    actor: { kind: 'system' },
    correlationId: randomUUID(),
    causationId: null,
    schemaVersion: SCHEMA_VERSION,
  });
  return {
    user: [{ ...user, metadata: metadata(new Date(joined).toISOString()) }],
    credits: credits.map((event, i) => ({ ...event, metadata: metadata(at(i)) })),
  };
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
const ms = (n: number) => n.toFixed(2);

async function timed(calls: number, call: () => Promise<void>) {
  for (let i = 0; i < 20; i++) await call(); // warm-up
  const times: number[] = [];
  for (let i = 0; i < calls; i++) {
    const started = performance.now();
    await call();
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  return { p50: percentile(times, 50), p95: percentile(times, 95) };
}

/**
 * The admin dashboard's reads on PostgreSQL: `GET /api/admin/stats` and `GET /api/admin/users`
 * with a search, over 100,000 users and 1,000,000 credit events, projected.
 */
export async function adminStatsBenchmark() {
  const database = await createThrowawayDatabase('astra_bench');
  const dataDir = await mkdtemp(join(tmpdir(), 'astra-bench-admin-'));
  // As the API opens it (its data directory holds the keys' secret): keys made on the empty log.
  const storage = await openStorage({ databaseUrl: database.url, dataDir, personalData });
  const db = databaseFor(storage.connection);
  let server: Awaited<ReturnType<typeof startAdminServer>>['server'] | undefined;
  try {
    await migrateReadModels(db, READ_SCHEMA);
    const perUser = Math.max(2, Math.round(CREDIT_EVENTS / USERS));
    const started = performance.now();
    let next = 0;
    await Promise.all(
      Array.from({ length: 8 }, async () => {
        while (next < USERS) {
          const index = next++;
          const userId = randomUUID();
          const joined = Date.now() - Math.floor(((index % DAYS) + 0.5) * DAY_MS);
          const history = historyOf(userId, index, perUser, joined);
          await storage.store.append(streams.user(userId), history.user, {
            expected: 'no_stream',
          });
          await storage.store.append(streams.credits(userId), history.credits, {
            expected: 'no_stream',
          });
        }
      }),
    );
    const events = USERS * (perUser + 1);
    console.log(`Appended ${events} events in ${Math.round(performance.now() - started)} ms`);
    const projected = await rebuildReadModels(storage.store, db);
    console.log(`Projected ${projected.events} events in ${Math.round(projected.milliseconds)} ms`);
    // The load leaves a checkpoint under way (over a gigabyte of WAL), which PostgreSQL spreads
    // over the next tens of seconds: the reads below would share the machine with its writes.
    // Finished now, they measure the reads alone. (Nothing else changes: no VACUUM, no ANALYZE,
    // the tables stay as freshly built, without statistics.)
    await sql`CHECKPOINT`.execute(db);

    // This month's money as a process folds it the first time (every credit event, once).
    const foldStarted = performance.now();
    await new MonthMoney(storage.store).catchUp();
    const firstMoney = performance.now() - foldStarted;

    // The query behind the route, alone.
    const read = readModels(db);
    const query = await timed(CALLS, async () => {
      await adminStatsOf(read, 'usd', new Date());
    });

    // The routes, through HTTP on loopback, as an unlocked admin.
    const admin = await startAdminServer(database.url, dataDir);
    server = admin.server;
    const { url, cookie } = admin;
    const get = async (path: string) => {
      const answer = await fetch(`${url}${path}`, { headers: { cookie } });
      if (!answer.ok) throw new Error(`${path}: ${answer.status} ${await answer.text()}`);
      await answer.json();
    };
    // The unlock started the API's fold of this month's money; the first money request waits for
    // it. Measured after it, as an admin sees the dashboard once the fold is done.
    await get('/api/admin/stats/money');
    const stats = await timed(CALLS, () => get('/api/admin/stats'));
    const money = await timed(CALLS, () => get('/api/admin/stats/money'));
    let n = 0;
    // An e-mail, two surnames (a quarter of the users each), a name prefix (11,111 users), a term
    // that matches nobody, and no search at all (the plain first page).
    const searches = ['member4242', 'hopper', 'Member 9', 'turing', 'nobody-at-all', ''];
    const search = (term: string) => get(`/api/admin/users?search=${encodeURIComponent(term)}`);
    const users = await timed(CALLS, () => search(searches[n++ % searches.length]!));
    // Each search on its own, for where the time goes.
    const each: string[] = [];
    for (const term of searches) {
      const alone = await timed(Math.ceil(CALLS / 5), () => search(term));
      each.push(`${term ? `'${term}'` : 'none'} ${ms(alone.p50)} / ${ms(alone.p95)}`);
    }

    await writeSection(
      'admin-stats',
      'Admin dashboard reads (PostgreSQL)',
      [
        {
          what: '`GET /api/admin/stats` p50 / p95',
          measured: `${ms(stats.p50)} / ${ms(stats.p95)} ms`,
          target: '≤ 5 ms',
          met: stats.p95 <= 5,
        },
        {
          what: '`GET /api/admin/stats/money` (this month in every currency) p50 / p95',
          measured: `${ms(money.p50)} / ${ms(money.p95)} ms`,
          target: '—',
          met: null,
        },
        {
          what: "its first request of a process: the whole log's credit events folded once (an unlock starts it)",
          measured: `${(firstMoney / 1000).toFixed(1)} s`,
          target: '—',
          met: null,
        },
        {
          what: 'the stats query alone (`adminStatsOf`: 1 counters row, ≤ 31 daily rows) p50 / p95',
          measured: `${ms(query.p50)} / ${ms(query.p95)} ms`,
          target: '—',
          met: null,
        },
        {
          what: '`GET /api/admin/users?search=…` p50 / p95',
          measured: `${ms(users.p50)} / ${ms(users.p95)} ms`,
          target: 'p95 ≤ 20 ms',
          met: users.p95 <= 20,
        },
      ],
      `${USERS.toLocaleString('en-US')} users (registered over the last ${DAYS} days) with ${(USERS * perUser).toLocaleString('en-US')} credit events (packs with Stripe's amounts, spends, small refunds), rebuilt into the read models (${Math.round(projected.milliseconds / 1000)} s) and checkpointed (tables left unvacuumed, without statistics), then ${CALLS} sequential calls of each after 20 warm-up calls, from the same process as the API (in-process server, loopback HTTP, session cookie of an unlocked admin). The searches rotate over an e-mail, surnames, a name prefix, a term that matches nobody and no search; each alone (${Math.ceil(CALLS / 5)} calls, p50 / p95 ms): ${each.join(', ')}. Every admin route first reads the acting admin's own user stream (the write-side check of a blocked or demoted admin: one indexed read of the log, about 0.5–1 ms here), which the route figures include; the money route's fold is done before they are measured.`,
    );
  } finally {
    await server?.close();
    await db.destroy();
    await storage.close();
    await database.drop();
    await rm(dataDir, { recursive: true, force: true });
  }
}
