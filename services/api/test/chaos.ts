/**
 * Chaos under load, shared by `chaos.test.ts` (a short run in `npm test`) and `npm run bench --
 * chaos` (60 s): a real primary and hot standby (streaming replication), two API processes
 * (`services/api/src/main.ts`) reading from the standby, two projector processes (one leads),
 * and mixed commands from simulated people: sign-ups, pack purchases by signed webhook, readings
 * (spends), voice sessions (the second on a reading a reactivation), admin adjustments. Mid-run,
 * one API process and the leading projector are killed with SIGKILL and started again.
 *
 * A client does what a browser or Stripe does when a server vanishes: it sends the same request
 * again (the same `Idempotency-Key`, the same webhook event), to the other API process. Each
 * command acknowledged is then checked in the log: applied exactly once.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { replicatedPostgres } from '@astra/event-store/replication';
import { streams } from '@astra/ledger';
import { allProjections, databaseOver, untilProjected } from '@astra/projections';
import pg from 'pg';
import { packCheckout, webhookSigner } from './stripeWebhooks.ts';
import { freePort } from './support.ts';

const root = join(import.meta.dirname, '../../..');
const WEBHOOK_SECRET = 'whsec_chaos_under_load';
const ADMIN_EMAIL = 'admin@example.com';
const ADMIN_PASSWORD = 'chaos admin password';
const METRICS_TOKEN = 'chaos-metrics-token-0123456789';
const signed = webhookSigner(WEBHOOK_SECRET);

export interface ChaosOptions {
  /** How long the commands run. */
  seconds: number;
  /** People signing up and then buying, reading and talking, each one command at a time. */
  people: number;
  /** Prints the processes' warnings and errors. */
  verbose?: boolean;
}

export interface ChaosResult {
  acknowledged: Record<string, number>;
  /** Each kind's latency p50, ms. */
  p50ByKind: Record<string, number>;
  /** Commands acknowledged whose effect is not in the log exactly once (each says why). */
  notExactlyOnce: string[];
  /** Streams whose revisions have a gap (duplicates cannot be stored: a unique key). */
  streamGaps: string[];
  /** Requests sent again because a kill cut them off or their process was gone. */
  resent: number;
  /** A read right after a session's own write that did not show it. */
  readYourWritesViolations: string[];
  /** `npm run ledger:verify`'s exit code and output. */
  verify: { code: number | null; output: string };
  /** Commands per second acknowledged, and their latency (first try to answer, retries included). */
  throughput: number;
  p50: number;
  p99: number;
  /** What the failures cost: the longest a command took to be acknowledged. */
  max: number;
  /** Seconds from the leading projector's SIGKILL to a standby leading. */
  takeoverSeconds: number;
  /** The reads the standby served, and those the primary served instead. */
  replicaReads: { replica: number; primary: number };
}

interface Process {
  child: ChildProcess;
  lines: string[];
  exited: Promise<void>;
}

const env = (extra: Record<string, string>) => ({
  ...process.env,
  VITEST: '',
  NODE_ENV: 'test',
  ...extra,
});

function start(script: string, vars: Record<string, string>, verbose: boolean): Process {
  const child = spawn(process.execPath, ['--import', 'tsx', script], {
    cwd: root,
    env: env(vars),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines: string[] = [];
  for (const stream of [child.stdout!, child.stderr!]) {
    createInterface({ input: stream }).on('line', (line) => {
      lines.push(line);
      if (verbose && /"level":"(warn|error|fatal)"/.test(line)) console.log(`[${script}] ${line}`);
    });
  }
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return { child, lines, exited };
}

const until = async (what: string, check: () => boolean | Promise<boolean>, timeoutMs = 60_000) => {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
};

const healthy = async (url: string) => {
  try {
    return (await fetch(`${url}/api/health`)).ok;
  } catch {
    return false;
  }
};

/**
 * A client of both API processes, as a load balancer with retries gives it: a request that finds
 * its process gone (refused, reset) goes to the other, the same request again; a `409
 * request_in_progress` (its first try was cut off with its process) is asked again after its
 * `Retry-After`.
 */
class Person {
  cookie: string | undefined;
  private turn = Math.floor(Math.random() * 2);
  constructor(
    private readonly apis: readonly string[],
    /** Counts the requests sent again because their process was gone, or cut them off. */
    private readonly resent: { count: number },
    /** The run failed elsewhere: stop sending. */
    private readonly stop: AbortSignal,
  ) {}

  async request(
    method: string,
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ) {
    const deadline = Date.now() + 60_000;
    for (;;) {
      this.stop.throwIfAborted();
      const base = this.apis[this.turn++ % this.apis.length]!;
      try {
        const response = await fetch(`${base}${path}`, {
          method,
          headers: {
            ...(body === undefined ? {} : { 'content-type': 'application/json' }),
            ...(this.cookie ? { cookie: this.cookie } : {}),
            ...headers,
          },
          body:
            body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
          signal: AbortSignal.timeout(30_000),
        });
        const cookie = response.headers.getSetCookie().find((c) => c.startsWith('astra.sid='));
        if (cookie) this.cookie = cookie.split(';')[0];
        const text = await response.text();
        const parsed = text ? JSON.parse(text) : null;
        if (response.status === 409 && parsed?.error === 'request_in_progress') {
          const after = Number(response.headers.get('retry-after') ?? 1);
          await new Promise((resolve) => setTimeout(resolve, Math.min(after, 2) * 1000));
          continue;
        }
        if (response.status === 503 || response.status === 502)
          throw new Error(`${response.status}`);
        return { status: response.status, body: parsed };
      } catch (error) {
        if (Date.now() > deadline || this.stop.aborted) throw error;
        this.resent.count++;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }
  }
}

const percentile = (sorted: number[], p: number) =>
  sorted.length
    ? sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!
    : 0;

/** Runs the scenario; null when this machine cannot build the replicated database. */
export async function runChaos(options: ChaosOptions): Promise<ChaosResult | null> {
  const cluster = await replicatedPostgres({ applyDelayMs: 0 });
  if (!cluster) return null;
  const verbose = options.verbose ?? false;
  const database = 'astra_chaos';
  const processes: Process[] = [];
  const dataDir = await mkdtemp(join(tmpdir(), 'astra-chaos-'));
  try {
    await cluster.createDatabase(database);
    const common = {
      DATABASE_URL: cluster.primaryUrl(database),
      DATA_KEY_SECRET: 'chaos-data-key-secret-of-at-least-32-chars',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'info',
    };
    const ports = [await freePort(), await freePort()];
    const apiVars = (port: number) => ({
      ...common,
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      PROJECTOR: 'external',
      DATABASE_READ_URL: cluster.standbyUrl(database),
      STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
      ADMIN_EMAILS: ADMIN_EMAIL,
      ADMIN_PASSWORD,
      FREE_CREDITS: '10',
      METRICS_TOKEN,
      LOG_LEVEL: 'warn',
    });
    const apis = ports.map((port) => `http://127.0.0.1:${port}`);
    const startApi = (i: number) => {
      const api = start('services/api/src/main.ts', apiVars(ports[i]!), verbose);
      processes.push(api);
      return api;
    };
    const apiProcesses = [startApi(0)];
    // The first migrates; then the second and the projectors.
    await until('the first API process', () => healthy(apis[0]!));
    apiProcesses.push(startApi(1));
    const startProjector = () => {
      const projector = start('services/projector/src/main.ts', common, verbose);
      processes.push(projector);
      return projector;
    };
    /** The pid of the projector process that leads, as `/api/health` names it. */
    const leaderPid = async (): Promise<number | undefined> => {
      try {
        const health = (await (await fetch(`${apis[0]}/api/health`)).json()) as {
          projector?: { leaders?: { pid: number }[] };
        };
        return health.projector?.leaders?.[0]?.pid;
      } catch {
        return undefined;
      }
    };
    const projectors = [startProjector()];
    await until(
      'a projector to lead',
      async () => (await leaderPid()) === projectors[0]!.child.pid,
    );
    projectors.push(startProjector());
    await until('the second API process', () => healthy(apis[1]!));

    const acknowledged: { kind: string; check: string; ms: number }[] = [];
    const resent = { count: 0 };
    const stop = new AbortController();
    const violations: string[] = [];
    const deadline = Date.now() + options.seconds * 1000;
    const ack = (kind: string, check: string, since: number) =>
      acknowledged.push({ kind, check, ms: performance.now() - since });
    const userIds: string[] = [];

    const person = async (n: number) => {
      const client = new Person(apis, resent, stop.signal);
      let since = performance.now();
      const signedIn = await client.request('POST', '/api/auth/dev-login', {
        email: `chaos-${n}-${randomUUID()}@example.com`,
      });
      if (signedIn.status !== 200) throw new Error(`sign-up: ${JSON.stringify(signedIn)}`);
      const userId = signedIn.body.id as string;
      userIds.push(userId);
      ack('sign-up', `user:${userId}`, since);
      const ledger = await client.request('GET', '/api/me/ledger');
      if (!ledger.body?.items?.some((e: { type: string }) => e.type === 'FreeCreditsGranted'))
        violations.push(`${userId}: its welcome grant not in its ledger after signing up`);
      const readings: string[] = [];
      let round = 0;
      while (Date.now() < deadline) {
        round++;
        since = performance.now();
        if (round % 5 === 1) {
          // Stripe delivers the pack's checkout; it sends it again until it is answered 2xx.
          const session = packCheckout(userId);
          const event = signed('checkout.session.completed', session);
          const answer = await client.request('POST', '/api/webhooks/stripe', event.payload, {
            'stripe-signature': event.header,
          });
          if (answer.status !== 200) throw new Error(`webhook: ${JSON.stringify(answer)}`);
          ack('purchase', `purchase:${session.id}`, since);
        } else if (round % 5 === 0 && readings.length > 0) {
          // The first reading's first session is included; every later one is a reactivation.
          const readingId = readings[0]!;
          const started = await client.request(
            'POST',
            `/api/readings/${readingId}/voice/sessions`,
            {},
            { 'idempotency-key': randomUUID() },
          );
          if (started.status === 402) continue; // no credits left for a reactivation
          if (started.status !== 201) throw new Error(`voice start: ${JSON.stringify(started)}`);
          const sessionId = started.body.session.sessionId as string;
          const reactivation = /reactivated/i.test(String(started.body.message));
          ack(
            reactivation ? 'voice reactivation' : 'voice session',
            `voice:${readingId}:${sessionId}`,
            since,
          );
          const ended = await client.request(
            'POST',
            `/api/readings/${readingId}/voice/sessions/${sessionId}/end`,
            { reason: 'ended_early' },
            { 'idempotency-key': randomUUID() },
          );
          if (ended.status !== 200) throw new Error(`voice end: ${JSON.stringify(ended)}`);
        } else {
          const made = await client.request(
            'POST',
            '/api/readings/life-path',
            { firstName: 'Ada', lastName: 'Lovelace', birthDate: '1990-12-10' },
            { 'idempotency-key': randomUUID() },
          );
          if (made.status === 402) continue; // the next round buys
          if (made.status !== 201) throw new Error(`reading: ${JSON.stringify(made)}`);
          const readingId = made.body.readingId as string;
          ack('reading', `reading:${readingId}`, since);
          readings.push(readingId);
          const read = await client.request('GET', `/api/readings/${readingId}`);
          if (read.status !== 200)
            violations.push(`reading ${readingId}: ${read.status} on the read after its start`);
        }
      }
    };

    const admin = async () => {
      const client = new Person(apis, resent, stop.signal);
      await client.request('POST', '/api/auth/dev-login', { email: ADMIN_EMAIL });
      const unlocked = await client.request('POST', '/api/admin/unlock', {
        password: ADMIN_PASSWORD,
      });
      if (unlocked.status !== 200) throw new Error(`unlock: ${JSON.stringify(unlocked)}`);
      await until('a person to sign up', () => userIds.length > 0);
      while (Date.now() < deadline) {
        const since = performance.now();
        const userId = userIds[Math.floor(Math.random() * userIds.length)]!;
        const reason = `Chaos ${randomUUID()}`;
        const adjusted = await client.request(
          'POST',
          `/api/admin/users/${userId}/credits`,
          { amount: 3, reason },
          { 'idempotency-key': randomUUID() },
        );
        if (adjusted.status !== 200) throw new Error(`adjustment: ${JSON.stringify(adjusted)}`);
        ack('adjustment', `adjustment:${reason}`, since);
        const audit = await client.request('GET', `/api/admin/users/${userId}/ledger`);
        if (!audit.body?.items?.some((e: { reason: string }) => e.reason === reason))
          violations.push(`adjustment ${reason} not in the ledger read after it`);
      }
    };

    // The failures, a third and a half of the way in.
    let takeoverSeconds = Number.NaN;
    const chaos = (async () => {
      const at = (share: number) => deadline - options.seconds * 1000 * (1 - share);
      await until('a third of the run', () => Date.now() >= at(1 / 3), options.seconds * 1000);
      apiProcesses[0]!.child.kill('SIGKILL');
      await apiProcesses[0]!.exited;
      apiProcesses[0] = startApi(0);
      await until('the killed API process to serve again', () => healthy(apis[0]!));
      await until('half of the run', () => Date.now() >= at(1 / 2), options.seconds * 1000);
      let leading: number | undefined;
      await until('the API to name the leading projector', async () => {
        leading = await leaderPid();
        return leading !== undefined;
      });
      const leader = projectors.find((p) => p.child.pid === leading);
      if (!leader) throw new Error(`no projector of this run leads (health names ${leading})`);
      leader.child.kill('SIGKILL');
      const killed = performance.now();
      await leader.exited;
      await until(
        'the standby projector to lead',
        async () => {
          const now = await leaderPid();
          return now !== undefined && now !== leading;
        },
        30_000,
      );
      takeoverSeconds = (performance.now() - killed) / 1000;
      projectors.splice(projectors.indexOf(leader), 1, startProjector());
    })();

    const started = performance.now();
    // One part failing stops the others (they would go on retrying against killed processes).
    const parts = [...Array.from({ length: options.people }, (_, n) => person(n)), admin(), chaos];
    for (const part of parts) part.catch(() => stop.abort());
    const outcomes = await Promise.allSettled(parts);
    const failed = outcomes.find((o): o is PromiseRejectedResult => o.status === 'rejected');
    if (failed) throw failed.reason;
    const seconds = (performance.now() - started) / 1000;

    const replicaReads = await readsByDatabase(apis);
    const primary = new pg.Pool({ connectionString: common.DATABASE_URL });
    try {
      await untilProjected(
        databaseOver(() => primary.connect()),
        allProjections.map((p) => p.name),
        60_000,
      );
      const notExactlyOnce = await exactlyOnce(
        primary,
        acknowledged.map((a) => a.check),
      );
      const { rows: gaps } = await primary.query<{ stream_name: string }>(`
        SELECT stream_name FROM events GROUP BY stream_name
        HAVING max(revision) + 1 <> count(*) OR min(revision) <> 0`);
      const verify = await runVerify(common);
      const latencies = acknowledged.map((a) => a.ms).sort((a, b) => a - b);
      const byKind: Record<string, number> = {};
      for (const { kind } of acknowledged) byKind[kind] = (byKind[kind] ?? 0) + 1;
      const p50ByKind = Object.fromEntries(
        Object.keys(byKind).map((kind) => [
          kind,
          Math.round(
            percentile(
              acknowledged
                .filter((a) => a.kind === kind)
                .map((a) => a.ms)
                .sort((a, b) => a - b),
              50,
            ),
          ),
        ]),
      );
      return {
        acknowledged: byKind,
        p50ByKind,
        notExactlyOnce,
        streamGaps: gaps.map((g) => g.stream_name),
        resent: resent.count,
        readYourWritesViolations: violations,
        verify,
        throughput: acknowledged.length / seconds,
        p50: percentile(latencies, 50),
        p99: percentile(latencies, 99),
        max: latencies.at(-1) ?? 0,
        takeoverSeconds,
        replicaReads,
      };
    } finally {
      await primary.end();
    }
  } finally {
    for (const { child } of processes) child.kill('SIGKILL');
    await Promise.all(processes.map((p) => p.exited));
    await cluster.stop();
    await rm(dataDir, { recursive: true, force: true });
  }
}

/** Each acknowledged command's effect, counted in the log: exactly one each. */
async function exactlyOnce(db: pg.Pool, checks: string[]) {
  const problems: string[] = [];
  const count = async (text: string, values: unknown[]) =>
    Number((await db.query<{ n: string }>(text, values)).rows[0]!.n);
  for (const check of checks) {
    const [kind, ...rest] = check.split(':');
    const ref = rest.join(':');
    let found: number;
    if (kind === 'user') {
      found = await count(
        `SELECT count(*) AS n FROM events WHERE stream_name = $1 AND type = 'UserRegistered'`,
        [streams.user(ref)],
      );
    } else if (kind === 'purchase') {
      found = await count(
        `SELECT count(*) AS n FROM events WHERE type = 'CreditsGranted'
         AND data->'reference'->>'checkoutSessionId' = $1`,
        [ref],
      );
    } else if (kind === 'reading') {
      found = await count(
        `SELECT count(*) AS n FROM events WHERE type = 'CreditsSpent'
         AND data->>'purpose' = 'reading' AND data->>'readingId' = $1`,
        [ref],
      );
    } else if (kind === 'voice') {
      // The session claimed once; a reactivation's spend made once.
      const [readingId, sessionId] = ref.split(':');
      const { rows } = await db.query<{ spend_id: string | null }>(
        `SELECT data->>'spendId' AS spend_id FROM events WHERE stream_name = $1
         AND type = 'VoiceSessionRequested' AND data->>'sessionId' = $2`,
        [streams.reading(readingId!), sessionId],
      );
      found = rows.length;
      const spendId = rows[0]?.spend_id;
      if (found === 1 && spendId) {
        const spends = await count(
          `SELECT count(*) AS n FROM events WHERE type = 'CreditsSpent' AND data->>'spendId' = $1`,
          [spendId],
        );
        if (spends !== 1) problems.push(`${check}: its reactivation spent ${spends} times`);
      }
    } else {
      found = await count(
        `SELECT count(*) AS n FROM events WHERE type = 'CreditsAdjusted' AND data->>'reason' = $1`,
        [ref],
      );
    }
    if (found !== 1) problems.push(`${check}: ${found} times in the log`);
  }
  return problems;
}

/** `npm run ledger:verify` on the run's database. */
function runVerify(vars: Record<string, string>) {
  return new Promise<{ code: number | null; output: string }>((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'services/projector/src/verify.ts'], {
      cwd: root,
      env: env(vars),
    });
    let output = '';
    child.stdout.on('data', (chunk) => {
      output += chunk;
    });
    child.stderr.on('data', (chunk) => {
      output += chunk;
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), 120_000);
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
}

/** `astra_replica_reads_total` of the API processes running now (a killed one's are lost). */
async function readsByDatabase(apis: readonly string[]) {
  const reads = { replica: 0, primary: 0 };
  for (const api of apis) {
    const text = await (
      await fetch(`${api}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } })
    ).text();
    for (const [, servedBy, value] of text.matchAll(
      /^astra_replica_reads_total\{served_by="(\w+)"[^}]*\} (\d+)/gm,
    ))
      reads[servedBy as keyof typeof reads] += Number(value);
  }
  return reads;
}
