import { type ChildProcess, fork, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import type { CreditEvent } from '@astra/contracts';
import { streamDecoders } from '@astra/contracts';
import { CommandHandler, openStorage } from '@astra/event-store';
import { createThrowawayDatabase } from '@astra/event-store/testing';
import { type CreditAccount, creditAccountDecider } from '@astra/ledger';
import { databaseFor, migrateReadModels, READ_SCHEMA } from '@astra/projections';
import pg from 'pg';
import { openFundedAccounts } from './creditAccounts.ts';
import { writeSection } from './report.ts';

const RATE = Number(process.env.BENCH_RATE ?? 500);
const API_PROCESSES = 2;
const ACCOUNTS_PER_API = 100;
const WARMUP_SECONDS = 5;
const SECONDS = Number(process.env.BENCH_SECONDS ?? 20);
const TARGET_P99_MS = 25;
const root = join(import.meta.dirname, '..');

interface WorkerResult {
  appendMs: number[];
  visibleMs: number[];
  timeouts: number;
  failures: number;
  spends: number;
}

const percentile = (sorted: number[], p: number) =>
  sorted.length
    ? sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!
    : NaN;
const ms = (value: number) => (value < 10 ? value.toFixed(1) : Math.round(value).toString());

/** CPU seconds a process has used (Linux `/proc`; 0 when it is gone or elsewhere). */
const cpuSeconds = (pid: number | undefined) => {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100; // utime + stime, in clock ticks
  } catch {
    return 0;
  }
};

const stop = (child: ChildProcess) =>
  new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });

/**
 * Read-your-writes across processes: the projector in its own process (`npm run projector`),
 * two API processes spending 500 times a second between them on one PostgreSQL, each waiting
 * after every spend until the read models have passed it (the API's wait with
 * PROJECTOR=external). The figure is the time from the append's answer to the end of that wait.
 */
export async function crossProcessBenchmark() {
  const database = await createThrowawayDatabase('astra_bench');
  const children: ChildProcess[] = [];
  const admin = new pg.Client({ connectionString: database.url });
  await admin.connect();
  try {
    const storage = await openStorage({ databaseUrl: database.url, dataDir: null });
    const accounts = Array.from({ length: API_PROCESSES * ACCOUNTS_PER_API }, () => randomUUID());
    try {
      const handler = new CommandHandler<CreditAccount, CreditEvent>(
        storage.store,
        creditAccountDecider,
        { decode: streamDecoders.credits },
      );
      await openFundedAccounts(handler, accounts);
      // The read models exist before the processes start (each would migrate them at once).
      const db = databaseFor(storage.connection);
      await migrateReadModels(db, READ_SCHEMA);
      await db.destroy();
    } finally {
      await storage.close();
    }

    const env = { ...process.env, DATABASE_URL: database.url, LOG_LEVEL: 'warn' };
    // The projector as `npm run projector` runs it.
    const projector = spawn(
      process.execPath,
      ['--import', 'tsx', 'services/projector/src/main.ts'],
      { cwd: root, env, stdio: ['ignore', 'ignore', 'inherit'] },
    );
    children.push(projector);
    const apis = Array.from({ length: API_PROCESSES }, (_, i) =>
      fork(join(import.meta.dirname, 'crossProcess/apiWorker.ts'), {
        cwd: root,
        execArgv: ['--import', 'tsx'],
        env: {
          ...env,
          RATE: String(RATE / API_PROCESSES),
          WARMUP_SECONDS: String(WARMUP_SECONDS),
          SECONDS: String(SECONDS),
          ACCOUNTS: accounts.slice(i * ACCOUNTS_PER_API, (i + 1) * ACCOUNTS_PER_API).join(','),
        },
        stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
      }),
    );
    children.push(...apis);
    const messages = apis.map((api) => {
      const next = () =>
        new Promise<Record<string, unknown>>((resolve, reject) => {
          api.once('message', (message) => resolve(message as Record<string, unknown>));
          api.once('exit', (code) => reject(new Error(`an API process exited (${code})`)));
        });
      return next;
    });
    await Promise.all(messages.map((next) => next()));
    const results = apis.map((_, i) => messages[i]!() as unknown as Promise<WorkerResult>);
    const loadBefore = loadavg()[0]!;
    for (const api of apis) api.send('go');
    // What each part costs while measured: the processes' and the database's backends' CPU time.
    const backends = async () =>
      (
        await admin.query<{ pid: number }>(
          'SELECT pid FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()',
          [database.name],
        )
      ).rows.map((row) => row.pid);
    await new Promise((resolve) => setTimeout(resolve, WARMUP_SECONDS * 1000));
    const measuredFrom = performance.now();
    // Pools close idle connections and open new ones: the backends are sampled as they come
    // and go, each counted from its first sample (a new one from zero) to its last.
    const servers = new Map<number, { first: number; last: number }>();
    // The log's horizon is server-wide: a transaction in another database (another run, a test
    // suite) that holds a transaction id holds every reader of this log back until it ends.
    const outsiders: number[] = [];
    const sample = async () => {
      const { rows } = await admin.query<{ ms: number | null }>(
        `SELECT max(extract(epoch FROM clock_timestamp() - xact_start) * 1000)::float8 AS ms
         FROM pg_stat_activity WHERE backend_xid IS NOT NULL AND datname IS DISTINCT FROM $1`,
        [database.name],
      );
      outsiders.push(rows[0]?.ms ?? 0);
      for (const pid of await backends()) {
        const used = cpuSeconds(pid);
        const known = servers.get(pid);
        if (known) known.last = Math.max(known.last, used);
        else servers.set(pid, { first: sampled ? 0 : used, last: used });
      }
    };
    let sampled = false;
    await sample();
    sampled = true;
    const sampler = setInterval(() => void sample().catch(() => {}), 200);
    const cpu = () => ({
      projector: cpuSeconds(projector.pid),
      apis: apis.reduce((sum, api) => sum + cpuSeconds(api.pid), 0),
      postgres: [...servers.values()].reduce((sum, { first, last }) => sum + last - first, 0),
    });
    const cpuBefore = { ...cpu(), postgres: 0 };
    const done = await Promise.all(results);
    clearInterval(sampler);
    await sample();
    const cpuAfter = cpu();
    const wall = (performance.now() - measuredFrom) / 1000;
    const share = (part: keyof ReturnType<typeof cpu>) =>
      ((cpuAfter[part] - cpuBefore[part]) / wall).toFixed(2);
    const loadAfter = loadavg()[0]!;

    const visible = done.flatMap((r) => r.visibleMs).sort((a, b) => a - b);
    const appended = done.flatMap((r) => r.appendMs).sort((a, b) => a - b);
    const spends = done.reduce((sum, r) => sum + r.spends, 0);
    const timeouts = done.reduce((sum, r) => sum + r.timeouts, 0);
    const failures = done.reduce((sum, r) => sum + r.failures, 0);
    const [p50, p95, p99] = [50, 95, 99].map((p) => percentile(visible, p)) as [
      number,
      number,
      number,
    ];
    const met = p99 <= TARGET_P99_MS && timeouts === 0 && failures === 0;
    await writeSection(
      'cross-process',
      'Read-your-writes across processes (PostgreSQL, projector in its own process)',
      [
        {
          what: `spends offered / answered (${API_PROCESSES} API processes, ${SECONDS} s)`,
          measured: `${RATE}/s / ${Math.round(appended.length / SECONDS)}/s (${failures} failed)`,
          target: `${RATE}/s`,
          met: appended.length >= spends * 0.99 && failures === 0,
        },
        {
          what: 'append answer to read-your-writes wait over, p50 / p95 / p99',
          measured: `${ms(p50)} / ${ms(p95)} / ${ms(p99)} ms (max ${ms(visible.at(-1) ?? NaN)}; ${timeouts} waits timed out)`,
          target: `p99 ≤ ${TARGET_P99_MS} ms`,
          met,
        },
        {
          what: 'CPU used while measured (cores): projector process / both API processes / PostgreSQL backends of the run',
          measured: `${share('projector')} / ${share('apis')} / ${share('postgres')}`,
          target: '—',
          met: null,
        },
        {
          what: 'other databases holding the server-wide horizon: samples (every 200 ms) with an outside transaction open > 20 ms / the longest seen',
          measured: `${Math.round((100 * outsiders.filter((held) => held > 20).length) / outsiders.length)} % / ${Math.round(Math.max(0, ...outsiders))} ms`,
          target: '0 % on a quiet server',
          met: null,
        },
        {
          what: 'the spend itself (decide, append), p50 / p99',
          measured: `${ms(percentile(appended, 50))} / ${ms(percentile(appended, 99))} ms`,
          target: '—',
          met: null,
        },
      ],
      `One projector process (\`services/projector/src/main.ts\`, as \`npm run projector\` runs it) and ${API_PROCESSES} API processes on one PostgreSQL, on the same two cores. Each API process is the API's write path and its external-mode wait, without HTTP: the API's \`Ledger\` spends 1 credit on one of ${ACCOUNTS_PER_API} accounts of its own (the credit decider on the stream's state, an append at its revision), on a steady schedule (${RATE / API_PROCESSES}/s each, open loop), then \`PolledProgress.waitFor(position)\` as \`Consistency.settle\` calls it, built as \`server.ts\` builds it for PROJECTOR=external. The API announces each append (NOTIFY after its commit); the projector's listening connection wakes its subscription, and its batch's commit announces which projections passed which position, which releases the API's waits without a query (polling at 50 ms and 20 ms stays as the fallback). ${WARMUP_SECONDS} s of warm-up at the same rate, then ${SECONDS} s measured (${spends.toLocaleString('en-US')} spends; \`BENCH_RATE\` and \`BENCH_SECONDS\` change the rate and the time). Load average (1 min) ${loadBefore.toFixed(2)} before the run, ${loadAfter.toFixed(2)} after: other work on the machine shows in these figures.`,
    );
  } finally {
    await Promise.all(children.map(stop));
    await admin.end();
    await database.drop();
  }
}
