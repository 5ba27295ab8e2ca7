import { randomUUID } from 'node:crypto';
import { loadavg } from 'node:os';
import { openStorage } from '@astra/event-store';
import { createThrowawayDatabase } from '@astra/event-store/testing';
import {
  CREDIT_ACCOUNT_SNAPSHOT_VERSION,
  type CreditCommand,
  creditAccountDecider,
  streams,
} from '@astra/ledger';
import { databaseFor } from '@astra/projections';
import { sql } from 'kysely';
import { Ledger, systemContext } from '../services/api/src/ledger/ledger.ts';
import { benchSpend } from './creditAccounts.ts';
import { loadSyntheticCreditLog, syntheticUserId } from './finance.ts';
import { writeSection } from './report.ts';

const EVENTS = Number(process.env.BENCH_COLD_EVENTS ?? 100_000);
const RUNS = 100;
const WARM_UP = 10;

const spend = benchSpend;

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
};
const ms = (value: number) => value.toFixed(2);
const n = (value: number) => value.toLocaleString('en-US');

/**
 * A command on a long credit account with a cold cache: what a command costs on an account of
 * 100,000 events in a process that has not seen it yet (a new `Ledger` each time: a restart, a
 * second replica, or a stream the cache let go), against the same on a fresh account, and the
 * one snapshot read that stands between the two.
 */
export async function coldCommandBenchmark() {
  const loadAtStart = loadavg()
    .map((l) => l.toFixed(1))
    .join(' / ');
  const database = await createThrowawayDatabase('astra_bench');
  const storage = await openStorage({ databaseUrl: database.url, dataDir: null });
  const db = databaseFor(storage.connection);
  const snapshots = storage.stateSnapshots;
  if (!snapshots) throw new Error('needs the log in PostgreSQL');
  try {
    let started = performance.now();
    await loadSyntheticCreditLog(db, {
      accounts: 1,
      perAccount: EVENTS,
      start: new Date(Date.UTC(2026, 0, 1)),
      stepMs: 60_000,
    });
    await sql`CHECKPOINT`.execute(db);
    console.log(
      `Loaded ${n(EVENTS)} credit events in ${Math.round(performance.now() - started)} ms`,
    );
    const heavy = syntheticUserId(0);
    const fresh = randomUUID();
    const coldLedger = () => new Ledger(storage.store, { snapshots });
    const codec = creditAccountDecider.snapshots!;
    const grant = (amount: number): CreditCommand => ({
      type: 'GrantCredits',
      grantId: randomUUID(),
      kind: 'promotional',
      amount,
      reason: 'Benchmark',
      tierId: null,
      reference: null,
    });
    await coldLedger().handle(
      'credits',
      fresh,
      { type: 'OpenAccount', userId: fresh },
      systemContext(),
    );
    await coldLedger().handle('credits', fresh, grant(1_000_000), systemContext());

    // The first command ever on the long account: no snapshot yet, all of it replayed (and a
    // snapshot kept where the replay ended, in the background).
    const first = coldLedger();
    started = performance.now();
    await first.handle('credits', heavy, grant(1_000_000), systemContext());
    const replayMs = performance.now() - started;
    await first.snapshotsSettled();
    const { rows } = await sql<{ revision: string; bytes: number }>`
      SELECT revision::text, length(state::text) AS bytes FROM snapshots
      WHERE stream_name = ${streams.credits(heavy)} AND version = ${CREDIT_ACCOUNT_SNAPSHOT_VERSION}
      ORDER BY revision DESC LIMIT 1`.execute(db);
    const snapshot = rows[0];
    if (!snapshot) throw new Error('no snapshot kept');

    // Cold commands, each on a new ledger, the fresh and the long account taking turns (a
    // passing load hits both alike); the snapshot read alone between them.
    const times = { fresh: [] as number[], heavy: [] as number[], read: [] as number[] };
    for (let i = 0; i < WARM_UP + RUNS; i++) {
      const keep = i >= WARM_UP;
      started = performance.now();
      await coldLedger().handle('credits', fresh, spend(), systemContext());
      if (keep) times.fresh.push(performance.now() - started);
      started = performance.now();
      const latest = await snapshots.latest(streams.credits(heavy), codec.kind, codec.version);
      codec.decode(latest?.state);
      if (keep) times.read.push(performance.now() - started);
      started = performance.now();
      const handled = await coldLedger().handle('credits', heavy, spend(), systemContext());
      if (keep) times.heavy.push(performance.now() - started);
      if (handled.newEvents.length !== 1) throw new Error('the spend was not appended');
    }
    const p = (values: number[]) =>
      `p50 ${ms(percentile(values, 50))}, p95 ${ms(percentile(values, 95))} ms`;
    const heavyP95 = percentile(times.heavy, 95);
    const bound = percentile(times.fresh, 50) + percentile(times.read, 50);
    await writeSection(
      'cold-command',
      'A command on a long account with a cold cache (PostgreSQL)',
      [
        {
          what: `cold command (a spend) on an account of ${n(EVENTS)} events, from its snapshot`,
          measured: p(times.heavy),
          target: '≤ 20 ms',
          met: heavyP95 <= 20,
        },
        {
          what: 'cold command (a spend) on a fresh account (2 events)',
          measured: p(times.fresh),
          target: '—',
          met: null,
        },
        {
          what: `one snapshot read of that account (\`snapshots.latest\` and the codec's \`decode\`: ${n(Math.round(snapshot.bytes / 1024))} KiB of JSON)`,
          measured: p(times.read),
          target: '—',
          met: null,
        },
        {
          what: 'long account p50 against fresh account p50 + snapshot read p50',
          measured: `${ms(percentile(times.heavy, 50))} against ${ms(bound)} ms (${percentile(times.heavy, 50) >= bound ? '+' : '−'}${ms(Math.abs(percentile(times.heavy, 50) - bound))})`,
          target: 'no more',
          met: percentile(times.heavy, 50) <= bound * 1.1,
        },
        {
          what: `the first command ever on that account (no snapshot yet: all ${n(EVENTS)} events replayed, one snapshot kept where the replay ended)`,
          measured: `${n(Math.round(replayMs))} ms`,
          target: '—',
          met: null,
        },
      ],
      `One credit account of ${n(EVENTS)} events (packs, spends of readings and voice reactivations, failed readings' refunds naming their lots: the finance benchmark's history) written straight into the \`events\` table, then \`CHECKPOINT\`. Every command runs on a new \`Ledger\` (an empty cache, as after a restart or on another replica): the long account's state comes from its latest snapshot (\`snapshots\`, kind \`credit-account\`, version ${CREDIT_ACCOUNT_SNAPSHOT_VERSION}, taken at revision ${n(Number(snapshot.revision))}) and the events after it (1 to ${RUNS + WARM_UP}, the spends of this run), then the spend is decided and appended; the fresh account's command asks for a snapshot too (there is none) and reads its whole stream. Without a snapshot, the first command reads and folds the whole account: ${ms(replayMs / (EVENTS / 1000))} ms per 1,000 events, paid once per long account, by the first command after this version is deployed (the fold's share grows with the packs bought: each copies the account's purchases). The snapshot keeps the purchases as one JSON text, read into a map only by a command that asks for a purchase: a spend reads the snapshot and builds no more of the state than on a fresh account. ${RUNS} commands of each kind after ${WARM_UP} of warm-up, the two accounts taking turns, in one Node process on the same two cores as PostgreSQL; "no more" allows 10 % for timing noise. Load average when this run began: ${loadAtStart}.`,
    );
  } finally {
    await db.destroy();
    await storage.close();
    await database.drop();
  }
}
