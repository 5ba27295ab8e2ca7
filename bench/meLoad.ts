import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createThrowawayDatabase } from '@astra/event-store/testing';
import autocannon from 'autocannon';
import { apiNodeArgs, buildApi } from '../services/api/build.ts';
import { writeSection } from './report.ts';

const RATE = 1000;
// Long enough that the 99th percentile rests on some 30,000 requests.
const SECONDS = Number(process.env.BENCH_SECONDS ?? 30);
const root = join(import.meta.dirname, '..');

/** The API as `npm start` runs it, in its own process. */
async function startApi(env: Record<string, string>, port: number) {
  await buildApi();
  const child = spawn(process.execPath, apiNodeArgs, {
    cwd: root,
    env: { ...process.env, ...env, PORT: String(port), HOST: '127.0.0.1' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 600; i++) {
    const healthy = await fetch(`${url}/api/health`)
      .then((r) => r.ok)
      .catch(() => false);
    if (healthy) return { url, child };
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  child.kill();
  throw new Error('the API did not start');
}

const stop = (child: ChildProcess) =>
  new Promise<void>((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });

/** `GET /api/me` of a signed-in user under a steady 1,000 requests/s on loopback. */
export async function meLoadBenchmark() {
  const database = await createThrowawayDatabase('astra_bench');
  const common = {
    DATABASE_URL: database.url,
    SESSION_SECRET: 'benchmark-session-secret',
    DATA_KEY_SECRET: 'benchmark-master-secret-of-the-data-keys',
  };
  try {
    // Production turns the dev sign-in off: sign in through a development instance first.
    const signer = await startApi({ ...common, NODE_ENV: 'development' }, 3901);
    const login = await fetch(`${signer.url}/api/auth/dev-login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'load@example.com' }),
    });
    const cookie = login.headers.getSetCookie()[0]!.split(';')[0]!;
    await stop(signer.child);

    const api = await startApi(
      {
        ...common,
        NODE_ENV: 'production',
        STRIPE_SECRET_KEY: 'sk_test_unused',
        STRIPE_WEBHOOK_SECRET: 'whsec_unused',
        // Required in production; nothing is mailed during the load.
        SMTP_URL: 'smtp://127.0.0.1:2525',
        PUBLIC_URL: 'http://127.0.0.1:3902',
        // Production requires the operator's details (the Impressum, the support address).
        OPERATOR_NAME: 'Astra Benchmark Ltd',
        OPERATOR_ADDRESS: 'Example Street 1; 10115 Berlin; Germany',
        OPERATOR_EMAIL: 'operator@astra.example',
        SUPPORT_EMAIL: 'support@astra.example',
      },
      3902,
    );
    try {
      const measured = hasWrk() ? wrk(api.url, cookie) : await withAutocannon(api.url, cookie);
      const { served, p50, p90, p99, failed } = measured;
      await writeSection(
        'me-load',
        '`GET /api/me` under load (PostgreSQL, loopback)',
        [
          {
            what: 'requests per second offered / served',
            measured: `${RATE} / ${Math.round(served)}`,
            target: '1,000',
            met: served >= RATE * 0.95,
          },
          {
            what: 'latency p50 / p90 / p99',
            measured: `${p50} / ${p90} / ${p99} ms`,
            target: 'p99 ≤ 10 ms',
            met: p99 <= 10,
          },
          {
            what: 'errors and non-2xx answers',
            measured: `${failed}`,
            target: '0',
            met: failed === 0,
          },
          ...(measured.saturation
            ? [
                {
                  what: 'the same server at saturation (no pacing)',
                  measured: `${Math.round(measured.saturation.served)} requests/s, p99 ${measured.saturation.p99} ms`,
                  target: '—',
                  met: null,
                },
              ]
            : []),
          ...(measured.bare
            ? [
                {
                  what: 'machine baseline: a bare `node:http` server answering constant JSON, at saturation',
                  measured: `${Math.round(measured.bare.served)} requests/s, p99 ${measured.bare.p99} ms`,
                  target: '—',
                  met: null,
                },
              ]
            : []),
        ],
        `${measured.tool}; ${SECONDS} s runs after a warm-up, against the API started as \`npm start\` starts it (its own process, NODE_ENV=production, PostgreSQL over TCP on 127.0.0.1). Every request reads its session and the user's profile in one query. The load generator, the API and PostgreSQL share the machine's 2 cores.`,
      );
    } finally {
      await stop(api.child);
    }
  } finally {
    await database.drop();
  }
}

interface Measured {
  tool: string;
  served: number;
  p50: number;
  p90: number;
  p99: number;
  failed: number;
  saturation?: { served: number; p99: number };
  bare?: { served: number; p99: number };
}

const hasWrk = () => {
  try {
    execFileSync('wrk', ['--version'], { stdio: 'ignore' });
    return true;
  } catch (error) {
    return (error as { status?: number }).status === 1; // wrk --version exits 1 after printing
  }
};

const ms = (value: string) => {
  const [, n, unit] = /([\d.]+)(us|ms|s)/.exec(value) ?? [];
  const number = Number(n);
  return (
    Math.round((unit === 'us' ? number / 1000 : unit === 's' ? number * 1000 : number) * 100) / 100
  );
};

/** One wrk run; `delayMs` paces each connection to make a steady offered rate. */
function runWrk(
  url: string,
  cookie: string | null,
  seconds: number,
  delayMs: number | null,
  connections = 10,
) {
  const script = join(tmpdir(), `astra-wrk-${process.pid}.lua`);
  writeFileSync(
    script,
    `${cookie ? `wrk.headers["Cookie"] = "${cookie}"\n` : ''}${delayMs ? `function delay() return ${delayMs} end\n` : ''}`,
  );
  const output = execFileSync(
    'wrk',
    ['-t1', `-c${connections}`, `-d${seconds}s`, '--latency', '-s', script, url],
    { encoding: 'utf8' },
  );
  // A line of the latency distribution ('     99%    9.88ms'), not the '±stdev' column's '70.90%'.
  const percentile = (p: string) =>
    ms(new RegExp(`^\\s+${p}%\\s+(\\S+)`, 'm').exec(output)?.[1] ?? '0ms');
  const errors =
    Number(/Non-2xx or 3xx responses: (\d+)/.exec(output)?.[1] ?? 0) +
    Number(
      /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/
        .exec(output)
        ?.slice(1)
        .reduce((a, b) => a + Number(b), 0) ?? 0,
    );
  return {
    served: Number(/Requests\/sec:\s+([\d.]+)/.exec(output)?.[1] ?? 0),
    p50: percentile('50'),
    p90: percentile('90'),
    p99: percentile('99'),
    failed: errors,
  };
}

function wrk(url: string, cookie: string): Measured {
  const target = `${url}/api/me`;
  runWrk(target, cookie, 3, null); // warm-up
  // 11 connections, each pausing 8 ms after every answer, offer about 1,000 requests/s.
  const paced = runWrk(target, cookie, SECONDS, 8, 11);
  const saturation = runWrk(target, cookie, 5, null);
  const bare = spawn(process.execPath, [
    '-e',
    "require('http').createServer((q,s)=>{s.setHeader('content-type','application/json');s.end('{\"ok\":true}')}).listen(3903)",
  ]);
  execFileSync('sleep', ['1']);
  const baseline = runWrk('http://127.0.0.1:3903/', null, 5, null);
  bare.kill();
  return {
    tool: 'wrk, 1 thread, 11 connections, each pausing 8 ms after every answer (about 1,000 requests/s offered)',
    ...paced,
    saturation,
    bare: baseline,
  };
}

async function withAutocannon(url: string, cookie: string): Promise<Measured> {
  const run = (duration: number) =>
    autocannon({
      url: `${url}/api/me`,
      headers: { cookie },
      connections: 20,
      overallRate: RATE,
      duration,
    });
  await run(3);
  const result = await run(SECONDS);
  return {
    tool: `autocannon (wrk is not installed), 20 connections, a fixed overall rate of ${RATE} requests/s`,
    served: result.requests.average,
    p50: result.latency.p50,
    p90: result.latency.p90,
    p99: result.latency.p99,
    failed: result.errors + result.non2xx,
  };
}
