import { randomUUID } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { SCHEMA_VERSION } from '@astra/contracts';
import { openStorage } from '@astra/event-store';
import { createThrowawayDatabase } from '@astra/event-store/testing';
import { streams } from '@astra/ledger';
import {
  databaseFor,
  LedgerExport,
  migrateReadModels,
  READ_SCHEMA,
  readModels,
  rebuildReadModels,
  userBalanceAt,
} from '@astra/projections';
import { sql } from 'kysely';
import { Ledger, systemContext } from '../services/api/src/ledger/ledger.ts';
import { adminUsersPage } from '../services/api/src/modules/admin/userQueries.ts';
import { benchSpend } from './creditAccounts.ts';
import { loadSyntheticCreditLog, syntheticUserId } from './finance.ts';
import { type Figure, writeSection } from './report.ts';

const SIZES = (process.env.BENCH_GROWTH_SIZES ?? '1000000,3000000,10000000').split(',').map(Number);
const PER_ACCOUNT = 100;
const LONG_ACCOUNT = 100_000;
const APPENDS = 500;
const COLD_COMMANDS = 50;
const BALANCES = 50;
const SEARCHES = 60;
const STEP_MS = 1000;
const START = Date.UTC(2025, 0, 1);
/** The account of `LONG_ACCOUNT` events, loaded first. */
const longId = syntheticUserId(0);

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
};
const timed = async (runs: number, run: (i: number) => Promise<unknown>) => {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    await run(i);
    times.push(performance.now() - started);
  }
  return times;
};
const seconds = async (run: () => Promise<unknown>) => {
  const started = performance.now();
  await run();
  return (performance.now() - started) / 1000;
};

/** What one log size costs. */
interface Point {
  events: number;
  appendP50: number;
  appendP99: number;
  coldP50: number;
  coldP95: number;
  readRate: number;
  rebuildSeconds: number;
  rebuildRate: number;
  exportSeconds: number;
  balanceP50: number;
  balanceP95: number;
  searchP95: number;
  bytesPerMillion: number;
}

/**
 * How every cost grows with the log: the log grown to each size of `BENCH_GROWTH_SIZES` (1, 3
 * and 10 million events) in one database, and at each size the same measurements. Writes a
 * table and a chart (`docs/growth.svg`: each cost against its value at the first size, beside
 * the lines of a flat and of a linear cost).
 */
export async function growthBenchmark() {
  const loadAtStart = loadavg()
    .map((l) => l.toFixed(1))
    .join(' / ');
  const database = await createThrowawayDatabase('astra_bench');
  const storage = await openStorage({ databaseUrl: database.url, dataDir: null });
  const db = databaseFor(storage.connection);
  const snapshots = storage.stateSnapshots;
  if (!snapshots) throw new Error('needs the log in PostgreSQL');
  const points: Point[] = [];
  try {
    await migrateReadModels(db, READ_SCHEMA);
    // The long account first (its events spread over the log's first stretch), then accounts of
    // 100 events taking turns, grown load by load.
    let loaded = await loadSyntheticCreditLog(db, {
      accounts: 1,
      perAccount: LONG_ACCOUNT,
      start: new Date(START),
      stepMs: STEP_MS,
    });
    let nextAccount = 1;
    for (const size of SIZES) {
      const accounts = Math.ceil((size - loaded) / PER_ACCOUNT);
      const started = performance.now();
      loaded += await loadSyntheticCreditLog(db, {
        accounts,
        perAccount: PER_ACCOUNT,
        firstAccount: nextAccount,
        start: new Date(START + loaded * STEP_MS),
        stepMs: STEP_MS,
      });
      nextAccount += accounts;
      await sql`VACUUM ANALYZE events`.execute(db);
      console.log(
        `Log of ${loaded} events (loaded in ${Math.round(performance.now() - started)} ms)`,
      );
      points.push(await measure());
    }
  } finally {
    await db.destroy();
    await storage.close();
    await database.drop();
  }

  async function measure(): Promise<Point> {
    // Single writer: one event at a time onto a stream of its own, each after the last.
    const stream = streams.credits(randomUUID());
    const metadata = {
      occurredAt: new Date().toISOString(),
      actor: { kind: 'system' as const },
      correlationId: randomUUID(),
      causationId: null,
      schemaVersion: SCHEMA_VERSION,
    };
    const appends = await timed(APPENDS, (i) =>
      storage.store.append(
        stream,
        [{ type: 'FreeCreditsGranted', data: { amount: 1 }, metadata }],
        { expected: i === 0 ? 'no_stream' : BigInt(i - 1) },
      ),
    );
    // A command on the long account in a process that has not seen it (from its snapshot). The
    // first one, untimed, gives it credits for the spends (and keeps its snapshot).
    await new Ledger(storage.store, { snapshots }).handle(
      'credits',
      longId,
      {
        type: 'GrantCredits',
        grantId: randomUUID(),
        kind: 'promotional',
        amount: 1_000,
        reason: 'Benchmark',
        tierId: null,
        reference: null,
      },
      systemContext(),
    );
    const cold = await timed(COLD_COMMANDS, () =>
      new Ledger(storage.store, { snapshots }).handle(
        'credits',
        longId,
        benchSpend(),
        systemContext(),
      ),
    );
    let read = 0;
    const readSeconds = await seconds(async () => {
      for await (const _event of storage.store.readAll({ batch: 5_000 })) read++;
    });
    const rebuild = await rebuildReadModels(storage.store, db);
    const exported = new LedgerExport(storage.store, { format: 'csv', from: null, to: null });
    const exportSeconds = await seconds(async () => {
      for await (const _chunk of exported);
    });
    const instant = (i: number) =>
      new Date(START + Math.floor(((i * 37) % BALANCES) * (LONG_ACCOUNT / BALANCES)) * STEP_MS);
    await userBalanceAt(storage.store, storage.snapshots, longId, new Date().toISOString());
    const balances = await timed(BALANCES, (i) =>
      userBalanceAt(storage.store, storage.snapshots, longId, instant(i).toISOString()),
    );
    const readDb = readModels(db);
    const terms = ['member4242', 'Member 9', 'nobody-at-all', 'member17@example.com'];
    await adminUsersPage(readDb, terms[0], 1);
    const searches = await timed(SEARCHES, (i) =>
      adminUsersPage(readDb, terms[i % terms.length], 1),
    );
    const { rows } = await sql<{ bytes: string }>`
      SELECT pg_total_relation_size('events')::text AS bytes`.execute(db);
    const point: Point = {
      events: read,
      appendP50: percentile(appends, 50),
      appendP99: percentile(appends, 99),
      coldP50: percentile(cold, 50),
      coldP95: percentile(cold, 95),
      readRate: read / readSeconds,
      rebuildSeconds: rebuild.milliseconds / 1000,
      rebuildRate: rebuild.events / (rebuild.milliseconds / 1000),
      exportSeconds,
      balanceP50: percentile(balances, 50),
      balanceP95: percentile(balances, 95),
      searchP95: percentile(searches, 95),
      bytesPerMillion: Number(rows[0]!.bytes) / (read / 1_000_000),
    };
    console.log(point);
    return point;
  }

  await writeFile(join(import.meta.dirname, '../docs/growth.svg'), chart(points));
  const m = (events: number) => `${Number((events / 1e6).toFixed(1))} M`;
  const each = (value: (p: Point) => string) =>
    points.map((p) => `${m(p.events)}: ${value(p)}`).join(' · ');
  const first = points[0]!;
  const last = points.at(-1)!;
  const growth = last.events / first.events;
  /** Stays flat: the largest log's figure within 2× of the smallest's. */
  const flat = (value: (p: Point) => number) => value(last) <= 2 * value(first);
  /** Grows no faster than the log: per event, within 1.5× of the smallest log's. */
  const linear = (value: (p: Point) => number) =>
    value(last) / last.events <= (1.5 * value(first)) / first.events;
  const ms = (value: number) => `${value.toFixed(1)} ms`;
  const s = (value: number) => `${value.toFixed(0)} s`;
  const figures: Figure[] = [
    {
      what: 'single-writer append of one event, p50 / p99',
      measured: each((p) => `${ms(p.appendP50)} / ${ms(p.appendP99)}`),
      target: 'flat',
      met: flat((p) => p.appendP99),
    },
    {
      what: `cold command (a spend) on an account of ${LONG_ACCOUNT.toLocaleString('en-US')} events, p50 / p95`,
      measured: each((p) => `${ms(p.coldP50)} / ${ms(p.coldP95)}`),
      target: 'flat',
      met: flat((p) => p.coldP95),
    },
    {
      what: 'reading the log alone (`readAll`), events/s',
      measured: each((p) => Math.round(p.readRate).toLocaleString('en-US')),
      target: '—',
      met: null,
    },
    {
      what: 'rebuild of every read model',
      measured: each((p) => s(p.rebuildSeconds)),
      target: 'linear',
      met: linear((p) => p.rebuildSeconds),
    },
    {
      what: "the rebuild's rate against reading the log alone",
      measured: each((p) => `${(p.rebuildRate / p.readRate).toFixed(2)}×`),
      target: '≥ 0.6×',
      met: points.every((p) => p.rebuildRate / p.readRate >= 0.6),
    },
    {
      what: 'CSV export of the whole log, in process',
      measured: each((p) => s(p.exportSeconds)),
      target: 'linear',
      met: linear((p) => p.exportSeconds),
    },
    {
      what: `balance as of an instant of that account, p50 / p95`,
      measured: each((p) => `${ms(p.balanceP50)} / ${ms(p.balanceP95)}`),
      target: 'flat',
      met: flat((p) => p.balanceP95),
    },
    {
      what: 'admin user search (`adminUsersPage`), p95',
      measured: each((p) => ms(p.searchP95)),
      target: 'flat',
      met: flat((p) => p.searchP95),
    },
    {
      what: 'disk per million events (`events` with its indexes)',
      measured: each((p) => `${(p.bytesPerMillion / 2 ** 20).toFixed(0)} MiB`),
      target: 'flat',
      met: flat((p) => p.bytesPerMillion),
    },
  ];
  const ratios = points.map((p) => (p.rebuildRate / p.readRate).toFixed(2)).join(', ');
  await writeSection(
    'growth',
    `Growth with the log (PostgreSQL, ${points.map((p) => m(p.events)).join(', ')} events)`,
    figures,
    `![Each cost at each log size, against its cost at ${m(first.events)} events; the dotted lines are a flat cost and a cost growing with the log](growth.svg)

One database, its log grown to each size in turn (${growth.toFixed(0)}× from the first to the last): an account of ${LONG_ACCOUNT.toLocaleString('en-US')} events, then accounts of ${PER_ACCOUNT} credit events taking turns (the finance benchmark's histories, written straight into \`events\`), \`VACUUM ANALYZE\`, then at each size: ${APPENDS} appends of one event onto a new stream, one after the other; ${COLD_COMMANDS} spends on the long account, each by a new \`Ledger\` (from the account's snapshot); the log read alone through \`readAll\` (pages of 5,000); \`rebuildReadModels\` into a fresh schema (profiles, ledger entries, admin stats: a user per account); the CSV export in this process (V8's default young generation: the CLI's is faster, see the finance section); ${BALANCES} balances as of instants spread over the long account's history; ${SEARCHES} admin searches rotating over an e-mail, a name prefix, a full address and a term that matches nobody. "flat": the largest log's figure within 2× of the smallest's; "linear": per event, within 1.5×. On the same two cores as PostgreSQL; load average when this run began: ${loadAtStart}.

The rebuild grows with the log but runs at ${ratios}× the rate of reading it alone, short of 0.6×. Besides the read it decodes every event, folds it, writes the rows by COPY and builds the indexes, and PostgreSQL shares the two cores with it. How that time divides beyond decoding (the rebuild section) is not measured yet.`,
  );
}

/** Each cost divided by its value at the first size, against the log's size, as an SVG. */
function chart(points: Point[]): string {
  const series: { name: string; color: string; value: (p: Point) => number }[] = [
    { name: 'append p99', color: '#1f77b4', value: (p) => p.appendP99 },
    { name: 'cold command p95', color: '#ff7f0e', value: (p) => p.coldP95 },
    { name: 'rebuild time', color: '#2ca02c', value: (p) => p.rebuildSeconds },
    { name: 'export time', color: '#d62728', value: (p) => p.exportSeconds },
    { name: 'balance as of p95', color: '#9467bd', value: (p) => p.balanceP95 },
    { name: 'admin search p95', color: '#8c564b', value: (p) => p.searchP95 },
    { name: 'disk per million events', color: '#e377c2', value: (p) => p.bytesPerMillion },
  ];
  const [width, height, left, right, top, bottom] = [720, 420, 60, 210, 20, 50];
  const maxX = points.at(-1)!.events;
  const ratio = (s: (typeof series)[number], p: Point) => s.value(p) / (s.value(points[0]!) || 1);
  const ratios = series.flatMap((s) => points.map((p) => ratio(s, p)));
  const maxY = Math.ceil(Math.max(maxX / points[0]!.events, ...ratios));
  const x = (events: number) => left + (events / maxX) * (width - left - right);
  const y = (ratio: number) => top + (1 - ratio / maxY) * (height - top - bottom);
  const line = (pts: [number, number][], color: string, dash = '') =>
    `<polyline fill="none" stroke="${color}" stroke-width="2"${dash ? ` stroke-dasharray="${dash}"` : ''} points="${pts.map(([px, py]) => `${px.toFixed(1)},${py.toFixed(1)}`).join(' ')}"/>`;
  const base = points[0]!.events;
  const ticksY = Array.from({ length: maxY + 1 }, (_, i) => i).filter(
    (i) => maxY <= 12 || i % 2 === 0,
  );
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" font-family="sans-serif" font-size="12">
<title>Each cost at each log size, against its cost at the first size</title>
<rect width="100%" height="100%" fill="white"/>
${ticksY.map((i) => `<line x1="${left}" x2="${width - right}" y1="${y(i)}" y2="${y(i)}" stroke="#eee"/><text x="${left - 8}" y="${y(i) + 4}" text-anchor="end">${i}×</text>`).join('\n')}
${points.map((p) => `<text x="${x(p.events)}" y="${height - bottom + 18}" text-anchor="middle">${Number((p.events / 1e6).toFixed(1))} M</text>`).join('\n')}
<text x="${(left + width - right) / 2}" y="${height - 10}" text-anchor="middle">events in the log</text>
${line(
  [
    [x(base), y(1)],
    [x(maxX), y(1)],
  ],
  '#999',
  '4 4',
)}
${line(
  [
    [x(base), y(1)],
    [x(maxX), y(maxX / base)],
  ],
  '#999',
  '1 4',
)}
${series
  .map((s) =>
    line(
      points.map((p) => [x(p.events), y(ratio(s, p))]),
      s.color,
    ),
  )
  .join('\n')}
${[...series, { name: 'flat (dashed), linear (dotted)', color: '#999' }].map((s, i) => `<rect x="${width - right + 12}" y="${top + i * 20}" width="12" height="12" fill="${s.color}"/><text x="${width - right + 30}" y="${top + i * 20 + 10}">${s.name}</text>`).join('\n')}
</svg>
`;
}
