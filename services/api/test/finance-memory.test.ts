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
import { createThrowawayDatabase, postgresForTests } from '@astra/event-store/testing';
import { databaseFor, migrateReadModels, READ_SCHEMA } from '@astra/projections';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadSyntheticCreditLog, skipProjections } from '../../../bench/finance.ts';
import { loadConfig } from '../src/config.ts';
import { startServer } from '../src/server.ts';

/**
 * The ledger export of 1,000,000 credit events streams through HTTP without the server's memory
 * growing by more than 50 MB: the body is never held, only each account's books.
 */

const EVENTS = 1_000_000;
const PER_ACCOUNT = 100;
const MB = 2 ** 20;
const DATA_KEY_SECRET = 'the-master-secret-of-the-export-memory-test';

/** A full garbage collection, whatever flags vitest started the process with. */
setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

/** Live memory: the JavaScript heap and the buffers outside it, after a full collection. */
const liveBytes = () => {
  gc();
  const { heapUsed, external } = process.memoryUsage();
  return heapUsed + external;
};

describe.runIf(await postgresForTests())('a 1,000,000-event ledger export (PostgreSQL)', () => {
  let dispose = async () => {};
  let url: string;
  let cookie: string;
  let creditEvents: number;
  beforeAll(async () => {
    const database = await createThrowawayDatabase();
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
    dispose = async () => {
      await server?.close();
      await db.destroy();
      await storage.close();
      await database.drop();
      await rm(dataDir, { recursive: true, force: true });
    };
    await migrateReadModels(db, READ_SCHEMA);
    await loadSyntheticCreditLog(db, {
      accounts: EVENTS / PER_ACCOUNT,
      perAccount: PER_ACCOUNT,
      start: new Date(Date.UTC(2026, 0, 1)),
      stepMs: 1000,
    });
    // The synthetic events are the ledger's own shapes.
    const { rows } = await sql<{ type: string; data: unknown; metadata: unknown }>`
      SELECT DISTINCT ON (type) type, data, metadata FROM events ORDER BY type, position`.execute(
      db,
    );
    for (const row of rows) {
      const schema =
        creditEventSchemas[row.type as keyof typeof creditEventSchemas] ??
        userEventSchemas[row.type as keyof typeof userEventSchemas];
      expect(schema?.safeParse(row.data).success, row.type).toBe(true);
      expect(eventMetadataSchema.safeParse(row.metadata).success, row.type).toBe(true);
    }
    // The export reads the log, not the read models: they are not built for this test.
    await skipProjections(db);
    server = await startServer(
      loadConfig({
        NODE_ENV: 'test',
        PORT: '0',
        HOST: '127.0.0.1',
        DATA_DIR: dataDir,
        DATABASE_URL: database.url,
        DATA_KEY_SECRET,
        ADMIN_EMAILS: 'admin@example.com',
        ADMIN_PASSWORD: 'correct horse battery staple',
      }),
    );
    url = server.url;
    const signIn = await fetch(`${url}/api/auth/dev-login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'admin@example.com' }),
    });
    cookie = signIn.headers.getSetCookie()[0]!.split(';')[0]!;
    const unlocked = await fetch(`${url}/api/admin/unlock`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie, origin: url },
      body: JSON.stringify({ password: 'correct horse battery staple' }),
    });
    expect(unlocked.status).toBe(200);

    const counted = await sql<{ n: number }>`
      SELECT count(*)::int AS n FROM events WHERE stream_name LIKE 'credits-%'`.execute(db);
    creditEvents = counted.rows[0]!.n; // the million, and the admin's account
    expect(rows.map((r) => r.type).sort()).toEqual(
      expect.arrayContaining(['CreditsGranted', 'CreditsSpent', 'SpendRefunded', 'UserRegistered']),
    );
  }, 300_000);
  afterAll(() => dispose());

  it('streams every row while live memory stays within 50 MB of where it started', async () => {
    const before = liveBytes();
    let highest = before;
    let rss = process.memoryUsage().rss;
    const rssBefore = rss;
    const sampler = setInterval(() => {
      highest = Math.max(highest, liveBytes());
      rss = Math.max(rss, process.memoryUsage().rss);
    }, 2000);
    const started = performance.now();
    const answer = await new Promise<{
      status: number;
      bytes: number;
      lines: number;
      sha?: string;
    }>((resolve, reject) => {
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
    clearInterval(sampler);
    const seconds = (performance.now() - started) / 1000;
    highest = Math.max(highest, liveBytes());
    const growth = (highest - before) / MB;
    console.log(
      `Exported ${answer.lines - 1} rows, ${(answer.bytes / MB).toFixed(0)} MiB in ${seconds.toFixed(1)} s (${Math.round((answer.lines - 1) / seconds)} rows/s); live memory ${(before / MB).toFixed(0)} MiB before, at most ${growth.toFixed(1)} MiB more during; RSS at most ${((rss - rssBefore) / MB).toFixed(0)} MiB more`,
    );
    expect(answer.status).toBe(200);
    expect(creditEvents).toBeGreaterThanOrEqual(EVENTS);
    expect(answer.lines).toBe(creditEvents + 1); // the header, then one line per credit event
    expect(answer.sha).toMatch(/^[0-9a-f]{64}$/);
    expect(growth).toBeLessThanOrEqual(50);
  }, 300_000);
});
