import { mkdtemp, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { type ExportFormat, personalData } from '@astra/contracts';
import { openStorage } from '@astra/event-store';
import { createThrowawayDatabase } from '@astra/event-store/testing';
import {
  allProjections,
  databaseFor,
  LedgerExport,
  migrateReadModels,
  monthlyReport,
  READ_SCHEMA,
  userBalanceAt,
} from '@astra/projections';
import { type Kysely, sql } from 'kysely';
import { startAdminServer } from './adminServer.ts';
import { drainElsewhere, exportByCli } from './exportProcesses.ts';
import { writeSection } from './report.ts';

const EVENTS = Number(process.env.BENCH_FINANCE_EVENTS ?? 1_000_000);
const PER_ACCOUNT = Number(process.env.BENCH_FINANCE_PER_ACCOUNT ?? 100);
const HEAVY_EVENTS = 10_000;
const BALANCE_CALLS = 100;
const DAY_MS = 86_400_000;

/** One credit history's shape (see `syntheticCreditLogSql`). */
export interface SyntheticLog {
  /** Accounts, each with a user stream (`UserRegistered`) and a credit stream. */
  accounts: number;
  /** Credit events per account (at least 4). */
  perAccount: number;
  /** Accounts are numbered from here (so several loads into one log do not collide). */
  firstAccount?: number;
  /** When the first event happened, and the time between two events of the log. */
  start: Date;
  stepMs: number;
}

/**
 * A UUID-shaped id (version 4, variant 8) of a namespace (two hex digits), a load (so that two
 * loads into one log do not collide) and a number: cheap to make in SQL, unique, and spelled as
 * the ledger's ids are.
 */
const uuidSql = (namespace: string, load: number, n: string) =>
  `'${namespace}000000-${load.toString(16).padStart(4, '0')}-4000-8000-' || lpad(to_hex(${n}), 12, '0')`;

/**
 * `INSERT … SELECT generate_series`: credit events shaped exactly like the ledger's own (the
 * payloads of `creditEventSchemas`, the metadata of `eventMetadataSchema`, JSON as PostgreSQL
 * stores it), written straight into the `events` table in global order `g = revision × accounts
 * + account` (the accounts take turns), positions numbered as an append numbers them:
 * `(transaction id << 20) + ordinal`.
 *
 * Each account: opened, the free 10, two spends of 5 (the free lot), then cycles of 22 events —
 * a pack of 100 credits paid 17.99 USD (every fourth account 15.00 EUR), 20 spends of 5 (every
 * tenth a voice reactivation), and a 22nd event: in even cycles the refund of the 20th spend (a
 * failed reading: 5 credits back to the pack's lot), in odd cycles one more spend of 5 (the
 * refunded 5 first). Balances never go below zero and every refund names the lot its spend took.
 */
export function syntheticCreditLogSql(log: SyntheticLog, from: number, to: number) {
  const first = log.firstAccount ?? 0;
  const load = first;
  const start = log.start.getTime();
  const user = uuidSql('f1', 0, 'a');
  const spend = (n: string) => uuidSql('a1', load, n);
  const spent = (
    n: string,
  ) => `format('{"spendId":"%s","amount":5,"purpose":"%s","description":"%s","appId":3,"readingId":"%s"}',
      ${spend(n)},
      CASE WHEN r % 10 = 5 THEN 'voice_reactivation' ELSE 'reading' END,
      CASE WHEN r % 10 = 5 THEN 'Voice guide reactivated' ELSE 'Tarot Traditional reading' END,
      ${uuidSql('b1', load, n)})`;
  const grant = `'checkout:cs_test_' || lpad(to_hex(a), 8, '0') || lpad(to_hex(c), 8, '0') || 'a1B2c3D4'`;
  const intent = `'pi_' || lpad(to_hex(a), 8, '0') || lpad(to_hex(c), 8, '0') || 'e5F6g7H8'`;
  return sql`
    INSERT INTO events (position, stream_name, revision, event_id, type, data, metadata)
    SELECT (pg_current_xact_id()::text::bigint << 20) + (g - ${sql.lit(from)}),
      'credits-' || ${sql.raw(user)}, r, (${sql.raw(uuidSql('e1', load, 'g'))})::uuid,
      CASE
        WHEN r = 0 THEN 'CreditAccountOpened'
        WHEN r = 1 THEN 'FreeCreditsGranted'
        WHEN r < 4 THEN 'CreditsSpent'
        WHEN k = 0 THEN 'CreditsGranted'
        WHEN k = 21 AND c % 2 = 0 THEN 'SpendRefunded'
        ELSE 'CreditsSpent' END,
      (CASE
        WHEN r = 0 THEN format('{"userId":"%s"}', ${sql.raw(user)})
        WHEN r = 1 THEN '{"amount":10}'
        WHEN r < 4 THEN ${sql.raw(spent('g'))}
        WHEN k = 0 THEN format('{"grantId":"%s","kind":"purchase","amount":100,"reason":"Explorer credit pack","tierId":2,"reference":{"checkoutSessionId":"%s","paymentIntentId":"%s","stripeEventId":"evt_%s"},"payment":{"amountMinor":%s,"currency":"%s"}}',
          ${sql.raw(grant)}, substr(${sql.raw(grant)}, 10), ${sql.raw(intent)}, lpad(to_hex(g), 24, '0'),
          CASE WHEN a % 4 = 3 THEN 1500 ELSE 1799 END, CASE WHEN a % 4 = 3 THEN 'eur' ELSE 'usd' END)
        WHEN k = 21 AND c % 2 = 0 THEN format('{"spendId":"%s","amount":5,"reason":"generation_failed","lots":[{"lot":"%s","source":"purchased","amount":5}]}',
          ${sql.raw(spend(`(g - ${log.accounts})`))}, ${sql.raw(grant)})
        ELSE ${sql.raw(spent('g'))} END)::jsonb,
      format('{"occurredAt":"%s","actor":%s,"correlationId":"%s","causationId":null,"schemaVersion":1}',
        to_char(to_timestamp((${sql.lit(start)} + g * ${sql.lit(log.stepMs)}) / 1000.0) AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
        CASE
          WHEN r < 2 THEN '{"kind":"system"}'
          WHEN r >= 4 AND k = 0 THEN '{"kind":"stripe"}'
          ELSE format('{"kind":"user","userId":"%s","role":"user"}', ${sql.raw(user)}) END,
        ${sql.raw(uuidSql('c1', load, 'g'))})::jsonb
    FROM generate_series(${sql.lit(from)}::bigint, ${sql.lit(to - 1)}::bigint) AS g,
      LATERAL (SELECT ${sql.lit(first)} + g % ${sql.lit(log.accounts)} AS a,
        g / ${sql.lit(log.accounts)} AS r) AS ar,
      LATERAL (SELECT (r - 4) / 22 AS c, (r - 4) % 22 AS k) AS ck`;
}

/** The accounts' user streams (`UserRegistered`, with an e-mail), just before their credits. */
function syntheticUsersSql(log: SyntheticLog) {
  const first = log.firstAccount ?? 0;
  const user = uuidSql('f1', 0, 'a');
  const at = new Date(log.start.getTime() - 1000).toISOString();
  return sql`
    INSERT INTO events (position, stream_name, revision, event_id, type, data, metadata)
    SELECT (pg_current_xact_id()::text::bigint << 20) + g,
      'user-' || ${sql.raw(user)}, 0, (${sql.raw(uuidSql('d1', first, 'g'))})::uuid, 'UserRegistered',
      format('{"userId":"%s","email":"member%s@example.com","fullName":"Member %s","firstName":"Member","lastName":null,"avatarUrl":null,"provider":"dev"}',
        ${sql.raw(user)}, a, a)::jsonb,
      format('{"occurredAt":"${sql.raw(at)}","actor":{"kind":"system"},"correlationId":"%s","causationId":null,"schemaVersion":1}',
        ${sql.raw(uuidSql('d2', first, 'g'))})::jsonb
    FROM generate_series(0, ${sql.lit(log.accounts - 1)}) AS g,
      LATERAL (SELECT ${sql.lit(first)} + g AS a) AS ar`;
}

/** The user id of synthetic account `index`. */
export const syntheticUserId = (index: number) =>
  `f1000000-0000-4000-8000-${index.toString(16).padStart(12, '0')}`;

/**
 * Loads a synthetic log straight into the `events` table: the users first, then the credit
 * events in chunks of 200,000, four at a time, each chunk its own transaction. The transactions
 * take their ids in chunk order before any of them writes, so positions rise with `g` as
 * appends' do. Returns the credit events written.
 */
export async function loadSyntheticCreditLog(db: Kysely<unknown>, log: SyntheticLog) {
  if (log.perAccount < 4) throw new Error('perAccount must be at least 4');
  // Into an empty table, the secondary indexes are built once at the end (a third faster than
  // keeping them up row by row); the table ends as the event store made it.
  const { rows } = await sql<{ empty: boolean }>`
    SELECT NOT EXISTS (SELECT 1 FROM events) AS empty`.execute(db);
  const empty = rows[0]!.empty;
  if (empty) {
    await sql`ALTER TABLE events DROP CONSTRAINT events_stream_revision_key,
      DROP CONSTRAINT events_event_id_key`.execute(db);
    await sql`DROP INDEX events_type_position`.execute(db);
  }
  await syntheticUsersSql(log).execute(db);
  const total = log.accounts * log.perAccount;
  const chunk = 200_000;
  const ranges: [number, number][] = [];
  for (let from = 0; from < total; from += chunk)
    ranges.push([from, Math.min(total, from + chunk)]);
  for (let i = 0; i < ranges.length; i += 4) {
    const group = ranges.slice(i, i + 4);
    // Each chunk's transaction takes its id, in order; then all of them write at once.
    const opened: { taken: Promise<void>; go: () => void; done: Promise<unknown> }[] = [];
    for (const [from, to] of group) {
      let go!: () => void;
      const ready = new Promise<void>((resolve) => {
        go = resolve;
      });
      let taken!: () => void;
      const idTaken = new Promise<void>((resolve) => {
        taken = resolve;
      });
      const done = db.transaction().execute(async (trx) => {
        await sql`SELECT pg_current_xact_id()`.execute(trx);
        taken();
        await ready;
        await syntheticCreditLogSql(log, from, to).execute(trx);
      });
      await Promise.race([idTaken, done]);
      opened.push({ taken: idTaken, go, done });
    }
    for (const transaction of opened) transaction.go();
    await Promise.all(opened.map((t) => t.done));
  }
  if (empty) {
    await sql`ALTER TABLE events ADD CONSTRAINT events_stream_revision_key UNIQUE (stream_name, revision),
      ADD CONSTRAINT events_event_id_key UNIQUE (event_id)`.execute(db);
    await sql`CREATE INDEX events_type_position ON events (type, position)`.execute(db);
  }
  return total;
}

/**
 * Moves every projection's checkpoint to the log's head without projecting anything: for the
 * finance benchmark and tests, whose routes read the log and never the read models (a server
 * starts at once instead of projecting a million events first). The read models stay empty.
 */
export async function skipProjections(db: Kysely<unknown>) {
  const names = allProjections.map((p) => p.name);
  await sql`
    INSERT INTO ${sql.id(READ_SCHEMA, 'checkpoints')} (name, position)
    SELECT name, (SELECT coalesce(max(position), 0) FROM events) FROM unnest(${names}::text[]) AS name
    ON CONFLICT (name) DO UPDATE SET position = excluded.position`.execute(db);
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;

/**
 * The finance side on PostgreSQL: the ledger export (CSV and JSON lines, in process and through
 * HTTP), the monthly report over 1,000,000 credit events, and the balance as of an instant of
 * an account with 10,000 events.
 */
export async function financeBenchmark() {
  const loadAtStart = loadavg()
    .map((l) => l.toFixed(1))
    .join(' / ');
  const database = await createThrowawayDatabase('astra_bench');
  const dataDir = await mkdtemp(join(tmpdir(), 'astra-bench-finance-'));
  // With its personal data sealed, as the API and the CLIs open it (their data directory holds
  // the keys' secret): on the empty log, so its keys are made.
  const storage = await openStorage({ databaseUrl: database.url, dataDir, personalData });
  const db = databaseFor(storage.connection);
  let server: Awaited<ReturnType<typeof startAdminServer>>['server'] | undefined;
  try {
    await migrateReadModels(db, READ_SCHEMA);
    const accounts = Math.ceil(EVENTS / PER_ACCOUNT);
    const span = 180 * DAY_MS;
    const start = new Date(Date.UTC(2026, 0, 1));
    let started = performance.now();
    const events = await loadSyntheticCreditLog(db, {
      accounts,
      perAccount: PER_ACCOUNT,
      start,
      stepMs: Math.floor(span / EVENTS),
    });
    // One account with 10,000 events, after the others.
    const heavy = accounts;
    await loadSyntheticCreditLog(db, {
      accounts: 1,
      perAccount: HEAVY_EVENTS,
      firstAccount: heavy,
      start: new Date(start.getTime() + span),
      stepMs: 1000,
    });
    // The finance routes read the log, never the read models: they are not built here.
    await skipProjections(db);
    await sql`CHECKPOINT`.execute(db);
    console.log(
      `Loaded ${events + HEAVY_EVENTS} credit events in ${Math.round(performance.now() - started)} ms`,
    );
    const all = events + HEAVY_EVENTS;

    // Reading the log alone, through the port: the floor under every figure below.
    started = performance.now();
    let read = 0;
    for await (const _event of storage.store.readAll({ batch: 1_000 })) read++;
    const readRate = read / ((performance.now() - started) / 1000);

    // The export as `npm run ledger:export` makes it (its own process, the body dropped), and
    // once in this process for comparison (V8's default young generation: see the notes).
    // Rates are of the events replayed: the journal writes a transaction only where money moves.
    const byCli = async (format: ExportFormat) => {
      const said = await exportByCli(database.url, format, dataDir);
      return { ...said, rate: all / said.seconds };
    };
    const csv = await byCli('csv');
    const jsonl = await byCli('jsonl');
    const journal = await byCli('journal');
    if (csv.rows !== all || jsonl.rows !== all) throw new Error('the export missed rows');
    started = performance.now();
    const inProcess = new LedgerExport(storage.store, { format: 'csv', from: null, to: null });
    for await (const _chunk of inProcess);
    const inProcessRate = inProcess.rows / ((performance.now() - started) / 1000);
    if (inProcess.sha256() !== csv.sha256) throw new Error('the CSV export differs in process');
    console.log({ csv, jsonl, inProcessRate });

    // The monthly report of the log's third month (the whole log is replayed).
    started = performance.now();
    const report = await monthlyReport(storage.store, '2026-03');
    const reportSeconds = (performance.now() - started) / 1000;
    if (report.flags.length) throw new Error(`The report flags: ${report.flags.join('; ')}`);

    // Through HTTP, as an unlocked admin.
    const admin = await startAdminServer(database.url, dataDir);
    server = admin.server;
    const { url, cookie } = admin;

    const overHttp = await drainElsewhere(`${url}/api/admin/exports/ledger?format=csv`, cookie);
    const httpSeconds = overHttp.seconds;
    if (overHttp.status !== 200 || !overHttp.trailers['x-content-sha256'])
      throw new Error(`export over HTTP: ${overHttp.status}`);
    const httpRate = all / httpSeconds;

    started = performance.now();
    const reportAnswer = await fetch(`${url}/api/admin/reports/monthly?month=2026-03`, {
      headers: { cookie },
    });
    if (!reportAnswer.ok) throw new Error(`report over HTTP: ${reportAnswer.status}`);
    await reportAnswer.json();
    const reportHttpSeconds = (performance.now() - started) / 1000;

    // Balance as of an instant of the account with 10,000 events. The first question ever asked
    // of it replays the whole stream (no snapshot yet) and keeps a snapshot every 1,000 events
    // beside the log; every later question, in this process or another, starts from the last
    // snapshot before its instant. Measured: the first question (snapshots dropped before, once
    // over HTTP and once in process), then questions at instants spread over the history.
    const heavyId = syntheticUserId(heavy);
    const heavyStart = start.getTime() + span;
    const instant = (i: number) =>
      new Date(heavyStart + Math.floor((i * HEAVY_EVENTS * 1000) / BALANCE_CALLS)).toISOString();
    const balanceOver = async (at: string) => {
      const answer = await fetch(`${url}/api/admin/users/${heavyId}/balance?at=${at}`, {
        headers: { cookie },
      });
      if (!answer.ok) throw new Error(`balance: ${answer.status}`);
      return (await answer.json()) as { events: number };
    };
    const now = new Date().toISOString();
    await sql`TRUNCATE snapshots`.execute(db);
    started = performance.now();
    const cold = await balanceOver(now);
    const coldHttp = performance.now() - started;
    if (cold.events !== HEAVY_EVENTS) throw new Error(`balance: ${JSON.stringify(cold)}`);
    await sql`TRUNCATE snapshots`.execute(db);
    started = performance.now();
    await userBalanceAt(storage.store, storage.snapshots, heavyId, now);
    const coldCore = performance.now() - started;
    const times: number[] = [];
    const core: number[] = [];
    for (let i = 0; i < BALANCE_CALLS; i++) {
      const at = instant((i * 37) % BALANCE_CALLS);
      let began = performance.now();
      await balanceOver(at);
      times.push(performance.now() - began);
      began = performance.now();
      await userBalanceAt(storage.store, storage.snapshots, heavyId, at);
      core.push(performance.now() - began);
    }
    times.sort((x, y) => x - y);
    core.sort((x, y) => x - y);
    const p50 = percentile(times, 50);
    const p95 = percentile(times, 95);

    const n = (value: number) => Math.round(value).toLocaleString('en-US');
    await writeSection(
      'finance',
      'Ledger export, monthly report and balance as of (PostgreSQL)',
      [
        {
          what: `reading the log alone: \`readAll\` of ${n(read)} events, nothing done with them`,
          measured: `${n(readRate)} events/s`,
          target: '—',
          met: null,
        },
        {
          what: `CSV export of ${n(all)} credit events by \`npm run ledger:export\` (its own process)`,
          measured: `${csv.seconds.toFixed(1)} s, ${n(csv.rate)} events/s (${(csv.bytes / 2 ** 20).toFixed(0)} MiB)`,
          target: '≥ 100,000 events/s',
          met: csv.rate >= 100_000,
        },
        {
          what: `JSON lines export of ${n(all)} credit events by \`npm run ledger:export\``,
          measured: `${jsonl.seconds.toFixed(1)} s, ${n(jsonl.rate)} events/s (${(jsonl.bytes / 2 ** 20).toFixed(0)} MiB)`,
          target: '≥ 100,000 events/s',
          met: jsonl.rate >= 100_000,
        },
        {
          what: `Journal (hledger) export of ${n(all)} credit events by \`npm run ledger:export\` (${n(journal.rows)} transactions)`,
          measured: `${journal.seconds.toFixed(1)} s, ${n(journal.rate)} events/s (${(journal.bytes / 2 ** 20).toFixed(0)} MiB)`,
          target: '—',
          met: null,
        },
        {
          what: `CSV export of ${n(all)} credit events through \`GET /api/admin/exports/ledger\` (a client process on loopback)`,
          measured: `${httpSeconds.toFixed(1)} s, ${n(httpRate)} events/s`,
          target: '≥ 100,000 events/s',
          met: httpRate >= 100_000,
        },
        {
          what: "the same CSV export in the benchmark's own process, with V8's default young generation",
          measured: `${n(inProcessRate)} events/s`,
          target: '—',
          met: null,
        },
        {
          what: `monthly report over ${n(all)} credit events, in process`,
          measured: `${reportSeconds.toFixed(1)} s`,
          target: '≤ 10 s',
          met: reportSeconds <= 10,
        },
        {
          what: 'monthly report through `GET /api/admin/reports/monthly`',
          measured: `${reportHttpSeconds.toFixed(1)} s`,
          target: '≤ 10 s',
          met: reportHttpSeconds <= 10,
        },
        {
          what: `balance as of an instant of an account with ${n(HEAVY_EVENTS)} events, \`GET /api/admin/users/:id/balance\`, ${BALANCE_CALLS} instants spread over its history`,
          measured: `p50 ${p50.toFixed(1)} ms, p95 ${p95.toFixed(1)} ms (in process: p50 ${percentile(core, 50).toFixed(1)} ms)`,
          target: '≤ 50 ms',
          met: p95 <= 50,
        },
        {
          what: 'the first question ever asked of that account (no snapshot yet: all 10,000 events replayed, 10 snapshots kept)',
          measured: `${coldHttp.toFixed(0)} ms (in process: ${coldCore.toFixed(0)} ms)`,
          target: '—',
          met: null,
        },
      ],
      `${n(accounts)} accounts of ${PER_ACCOUNT} credit events each (packs paid in USD or EUR, spends of readings and voice reactivations, failed readings' refunds naming their lots) taking turns in the log, each with its user stream, and one account of ${n(HEAVY_EVENTS)} events; written straight into the \`events\` table (\`INSERT … SELECT generate_series\`, shaped as the ledger writes them), then \`CHECKPOINT\`; the read models are not built (these routes never read them). The exports are of the whole log (every credit event in range): the \`SpendRefunded\` events first (a read by type), then the log 1,000 events a query, the store reading the next page while a page is folded; the body is hashed (SHA-256) and dropped: \`npm run ledger:export\` writes it to nothing (its own timing, from opening the export to its last byte, as it reports it on stderr), and the HTTP export is read by a client in a process of its own on loopback that drops the body (timed there from its request on). \`ledger:export\` runs with a young generation of 64 MiB a semi-space (\`--max-semi-space-size=64\`, V8's default is 16): a replay makes garbage that dies young at a high rate, and with the default the collector runs four times as often; the same export in the benchmark's own process shows the default. The API keeps the default (its memory is measured against its own target). The report replays the whole log for one month of it. The balance checks the user stream, then replays the account's stream from the last snapshot (\`snapshots\`, beside the log) whose events all happened by its instant, reading at most about 1,000 events; the first question ever asked of an account has no snapshot yet and replays all of it (10 pages of 1,000 events), keeping a snapshot every 1,000 events and where it ends (the log never changes, so a replay up to a revision holds forever). What bounds these figures on this machine: reading the log alone through the event store's \`readAll\` (PostgreSQL building each page of 1,000 events as one JSON array, then one \`JSON.parse\` a page on the Node thread) measured ${n(readRate)} events/s with nothing done to the events, on the same two cores as PostgreSQL. Load average when this run began: ${loadAtStart}.`,
    );
  } finally {
    await server?.close();
    await db.destroy();
    await storage.close();
    await database.drop();
    await rm(dataDir, { recursive: true, force: true });
  }
}
