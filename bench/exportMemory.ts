import { mkdtemp, rm } from 'node:fs/promises';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import {
  creditEventSchemas,
  eventMetadataSchema,
  personalData,
  userEventSchemas,
} from '@astra/contracts';
import { openStorage } from '@astra/event-store';
import { createThrowawayDatabase } from '@astra/event-store/testing';
import { databaseFor, migrateReadModels, READ_SCHEMA } from '@astra/projections';
import { sql } from 'kysely';
import { loadConfig } from '../services/api/src/config.ts';
import { startServer } from '../services/api/src/server.ts';
import { loadSyntheticCreditLog, skipProjections } from './finance.ts';
import { writeSection } from './report.ts';

/**
 * The ledger export of 1,000,000 credit events through HTTP, in the API's own process: how much
 * its live memory grows while the CSV streams (target: within 50 MB, whatever the log's size,
 * because rows are written as the log is read and only each account's books are kept).
 */

const EVENTS = 1_000_000;
const PER_ACCOUNT = 100;
const MB = 2 ** 20;
const ADMIN_PASSWORD = 'correct horse battery staple';
const DATA_KEY_SECRET = 'the-master-secret-of-the-export-memory-benchmark';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

/** Live memory: the JavaScript heap and the buffers outside it, after a full collection. */
const liveBytes = () => {
  gc();
  const { heapUsed, external } = process.memoryUsage();
  return heapUsed + external;
};

/** Reads the export, counting bytes and lines and dropping the body. */
const readExport = (url: string, cookie: string) =>
  new Promise<{ status: number; bytes: number; lines: number; sha?: string }>((resolve, reject) => {
    const req = request(`${url}/api/admin/exports/ledger?format=csv`, { headers: { cookie } });
    req.on('response', (res) => {
      let bytes = 0;
      let lines = 0;
      res.on('data', (chunk: Buffer) => {
        bytes += chunk.length;
        for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) lines++;
      });
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          bytes,
          lines,
          sha: res.trailers['x-content-sha256'],
        }),
      );
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });

/** The synthetic events have the ledger's own shapes (one of each type checked). */
async function expectLedgerShapes(db: ReturnType<typeof databaseFor>) {
  const { rows } = await sql<{ type: string; data: unknown; metadata: unknown }>`
    SELECT DISTINCT ON (type) type, data, metadata FROM events ORDER BY type, position`.execute(db);
  for (const row of rows) {
    const schema =
      creditEventSchemas[row.type as keyof typeof creditEventSchemas] ??
      userEventSchemas[row.type as keyof typeof userEventSchemas];
    if (
      !schema?.safeParse(row.data).success ||
      !eventMetadataSchema.safeParse(row.metadata).success
    )
      throw new Error(`synthetic ${row.type} is not the ledger's shape`);
  }
}

export async function exportMemoryBenchmark() {
  const database = await createThrowawayDatabase('astra_bench');
  const dataDir = await mkdtemp(join(tmpdir(), 'astra-export-memory-'));
  // Opened with encryption first, so the log is one of this version even though the synthetic
  // events are written in clear (as a log's older events would be).
  const storage = await openStorage({
    databaseUrl: database.url,
    dataDir: null,
    personalData,
    dataKeySecret: DATA_KEY_SECRET,
  });
  const db = databaseFor(storage.connection);
  let server: Awaited<ReturnType<typeof startServer>> | undefined;
  try {
    await migrateReadModels(db, READ_SCHEMA);
    await loadSyntheticCreditLog(db, {
      accounts: EVENTS / PER_ACCOUNT,
      perAccount: PER_ACCOUNT,
      start: new Date(Date.UTC(2026, 0, 1)),
      stepMs: 1000,
    });
    await expectLedgerShapes(db);
    // The export reads the log, not the read models: they are not built here.
    await skipProjections(db);
    server = await startServer(
      loadConfig({
        NODE_ENV: 'test',
        LOG_LEVEL: 'warn',
        PORT: '0',
        HOST: '127.0.0.1',
        DATA_DIR: dataDir,
        DATABASE_URL: database.url,
        DATA_KEY_SECRET,
        ADMIN_EMAILS: 'admin@example.com',
        ADMIN_PASSWORD,
      }),
    );
    const { url } = server;
    const signIn = await fetch(`${url}/api/auth/dev-login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'admin@example.com' }),
    });
    const cookie = signIn.headers.getSetCookie()[0]!.split(';')[0]!;
    const unlocked = await fetch(`${url}/api/admin/unlock`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie, origin: url },
      body: JSON.stringify({ password: ADMIN_PASSWORD }),
    });
    if (unlocked.status !== 200) throw new Error(`admin unlock answered ${unlocked.status}`);
    const counted = await sql<{ n: number }>`
      SELECT count(*)::int AS n FROM events WHERE stream_name LIKE 'credits-%'`.execute(db);
    const creditEvents = counted.rows[0]!.n; // the million, and the admin's account

    const before = liveBytes();
    let highest = before;
    const rssBefore = process.memoryUsage().rss;
    let rss = rssBefore;
    const sampler = setInterval(() => {
      highest = Math.max(highest, liveBytes());
      rss = Math.max(rss, process.memoryUsage().rss);
    }, 2000);
    const started = performance.now();
    const answer = await readExport(url, cookie).finally(() => clearInterval(sampler));
    const seconds = (performance.now() - started) / 1000;
    highest = Math.max(highest, liveBytes());
    const growth = (highest - before) / MB;
    const rows = answer.lines - 1;
    const whole =
      answer.status === 200 && rows === creditEvents && /^[0-9a-f]{64}$/.test(answer.sha ?? '');

    await writeSection(
      'export-memory',
      'Ledger export memory (PostgreSQL, 1,000,000 credit events, HTTP)',
      [
        {
          what: 'rows exported (one per credit event), with the SHA-256 trailer',
          measured: `${rows.toLocaleString('en')} of ${creditEvents.toLocaleString('en')}`,
          target: 'every one',
          met: whole,
        },
        {
          what: "growth of the API process's live memory (heap + external) while it streams",
          measured: `${growth.toFixed(1)} MB (from ${(before / MB).toFixed(0)} MB; RSS +${((rss - rssBefore) / MB).toFixed(0)} MB)`,
          target: '≤ 50 MB',
          met: growth <= 50,
        },
        {
          what: 'rows per second',
          measured: `${Math.round(rows / seconds).toLocaleString('en')} (${(answer.bytes / MB).toFixed(0)} MiB in ${seconds.toFixed(1)} s)`,
          target: '—',
          met: null,
        },
      ],
      `${(EVENTS / PER_ACCOUNT).toLocaleString('en')} accounts of ${PER_ACCOUNT} synthetic credit events (\`bench/finance.ts\`), read models not built (the export reads the log). The API runs in the benchmark's process, so its memory is read there: after a full collection every 2 s while an HTTP client on loopback reads the CSV and drops it. What the export keeps is each account's lots and the value they hold, about a kilobyte an account, so the growth follows the number of accounts, not of events.`,
    );
  } finally {
    await server?.close();
    await db.destroy();
    await storage.close();
    await database.drop();
    await rm(dataDir, { recursive: true, force: true });
  }
}
