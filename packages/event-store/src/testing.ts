/**
 * Test support shared by every package: throwaway PostgreSQL databases and the rule for
 * services a machine may lack. Without `REQUIRE_TEST_SERVICES=1` a missing service skips its
 * tests with one line; with it (CI) the absence fails the run.
 */
import { randomBytes } from 'node:crypto';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import type { EventStore } from './port.ts';
import { connectPostgres, type PostgresConnection } from './postgres/connection.ts';

export const postgresAdminUrl =
  process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

const strict = process.env.REQUIRE_TEST_SERVICES === '1';

let reachable: Promise<boolean> | undefined;

export function postgresReachable(): Promise<boolean> {
  reachable ??= (async () => {
    const client = new pg.Client({
      connectionString: postgresAdminUrl,
      connectionTimeoutMillis: 2000,
    });
    try {
      await client.connect();
      await client.query('SELECT 1');
      return true;
    } catch {
      return false;
    } finally {
      await client.end().catch(() => {});
    }
  })();
  return reachable;
}

/**
 * Resolves whether a service is there; logs one line when it is not, and throws instead when
 * the run requires every service.
 */
export function requireService(name: string, available: boolean, hint: string): boolean {
  if (available) return true;
  const line = `${name} not available (${hint}): its tests are skipped.`;
  if (strict)
    throw new Error(`REQUIRE_TEST_SERVICES=1 but ${line.replace(': its tests are skipped.', '')}`);
  console.warn(`SKIPPED: ${line}`);
  return false;
}

/** A port nobody listens on now (for a server that must be told its port before it starts). */
export const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });

export const postgresForTests = async () =>
  requireService('PostgreSQL', await postgresReachable(), `no server at ${postgresAdminUrl}`);

/** A fresh database on the test server; `drop()` removes it. */
export async function createThrowawayDatabase(prefix = 'astra_test') {
  const name = `${prefix}_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: postgresAdminUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(postgresAdminUrl);
  url.pathname = `/${name}`;
  return {
    name,
    url: url.toString(),
    async drop() {
      const client = new pg.Client({ connectionString: postgresAdminUrl });
      await client.connect();
      try {
        await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } finally {
        await client.end();
      }
    },
  };
}

let template: Promise<Blob> | undefined;

/**
 * A freshly initialised PGlite data directory, made once per machine and cached on disk: an
 * in-memory PGlite starts from it in under a second instead of running initdb for seconds.
 */
export function pgliteTemplate(): Promise<Blob> {
  template ??= (async () => {
    const dir = join(tmpdir(), 'astra-test-cache');
    const entry = createRequire(import.meta.url).resolve('@electric-sql/pglite');
    const { version } = JSON.parse(
      await readFile(join(dirname(entry), '..', 'package.json'), 'utf8'),
    );
    const file = join(dir, `pglite-${version}.tar.gz`);
    try {
      return new Blob([await readFile(file)]);
    } catch {
      const db = await PGlite.create();
      const dump = await db.dumpDataDir('gzip');
      await db.close();
      await mkdir(dir, { recursive: true });
      const partial = `${file}.${process.pid}`;
      await writeFile(partial, Buffer.from(await dump.arrayBuffer()));
      await rename(partial, file);
      return dump;
    }
  })();
  return template;
}

export interface KurrentDbForTests {
  /** A connection string for `KurrentDbEventStore.connect`. */
  url: string;
  stop(): Promise<void>;
}

const kurrentDbImage =
  process.env.KURRENTDB_IMAGE ?? 'docker.kurrent.io/kurrent-latest/kurrentdb:latest';

/**
 * A KurrentDB for tests: `KURRENTDB_CONNECTION_STRING` when set, else a throwaway container
 * where a Docker engine answers (the daemon, not just the CLI), else null with one line.
 *
 * KurrentDB is required only where it can be had: under `REQUIRE_TEST_SERVICES=1` a Docker
 * engine whose container does not start fails the run, but a machine with neither Docker nor a
 * connection string (CI here) skips, with the line saying why. A connection string that does
 * not answer fails the tests themselves.
 */
export async function kurrentDbForTests(): Promise<KurrentDbForTests | null> {
  const fromEnv = process.env.KURRENTDB_CONNECTION_STRING;
  if (fromEnv) return { url: fromEnv, stop: async () => {} };
  const { GenericContainer, Wait, getContainerRuntimeClient } = await import('testcontainers');
  try {
    await getContainerRuntimeClient();
  } catch (error) {
    console.warn(
      `SKIPPED: KurrentDB not available (no KURRENTDB_CONNECTION_STRING and no Docker engine answers: ${firstLine(error)}): its tests are skipped${strict ? ', even under REQUIRE_TEST_SERVICES=1, since this machine cannot run it' : ''}.`,
    );
    return null;
  }
  // KurrentDB images read KURRENTDB_*, EventStoreDB images EVENTSTORE_*.
  const prefix = /eventstore/i.test(kurrentDbImage) ? 'EVENTSTORE' : 'KURRENTDB';
  try {
    const container = await new GenericContainer(kurrentDbImage)
      .withEnvironment({
        [`${prefix}_INSECURE`]: 'true',
        [`${prefix}_MEM_DB`]: 'true',
        [`${prefix}_RUN_PROJECTIONS`]: 'None',
      })
      .withExposedPorts(2113)
      .withWaitStrategy(Wait.forHttp('/health/live', 2113).forStatusCode(204))
      .withStartupTimeout(120_000)
      .start();
    return {
      url: `kurrentdb://${container.getHost()}:${container.getMappedPort(2113)}?tls=false`,
      stop: async () => void (await container.stop()),
    };
  } catch (error) {
    const hint = `a Docker engine answers, but ${kurrentDbImage} did not start: ${firstLine(error)}`;
    requireService('KurrentDB', false, hint);
    return null;
  }
}

const firstLine = (error: unknown) =>
  (error instanceof Error ? error.message : String(error)).split('\n')[0];

/**
 * Delegates to a store and records, for each stream read, where it began and how many events it
 * delivered: what a test of a cache or of snapshots needs to see what was read.
 */
export function readCountingStore(store: EventStore) {
  const reads: { from: bigint; events: number }[] = [];
  const spy: EventStore = {
    kind: store.kind,
    append: (stream, events, options) => store.append(stream, events, options),
    async *readStream(stream, options) {
      const read = { from: options?.from ?? 0n, events: 0 };
      reads.push(read);
      for await (const event of store.readStream(stream, options)) {
        read.events++;
        yield event;
      }
    },
    readAll: (options) => store.readAll(options),
    subscribeAll: (options) => store.subscribeAll(options),
    close: () => store.close(),
  };
  return { spy, reads };
}

/**
 * The two SQL engines a test runs on, for `describe.each`: [name, whether it runs here, a fresh
 * database's connection]. PGlite always runs; PostgreSQL when `available`. `closeLater` keeps
 * something to close (a connection, a store) for `closeAll`, which closes those, newest first,
 * then drops the throwaway PostgreSQL databases made (call it in `afterAll`).
 */
export function sqlEngines(available: boolean) {
  const closers: (() => Promise<void>)[] = [];
  const drops: (() => Promise<void>)[] = [];
  const engines: [string, boolean, () => Promise<PostgresConnection>][] = [
    [
      'PGlite',
      true,
      async () => connectPostgres({ dataDir: null, template: await pgliteTemplate() }),
    ],
    [
      'PostgreSQL',
      available,
      async () => {
        const database = await createThrowawayDatabase();
        drops.push(database.drop);
        return connectPostgres({ databaseUrl: database.url });
      },
    ],
  ];
  const closeLater = (close: () => Promise<void>) => {
    closers.unshift(close);
  };
  const closeAll = async () => {
    for (const close of [...closers, ...drops]) await close();
  };
  return { engines, closeLater, closeAll };
}

/** Polls `check` until it holds (no fixed sleeps), failing after `timeoutMs`; its value. */
export async function eventually<T>(
  check: () => Promise<T | undefined | null | false>,
  timeoutMs = 20_000,
): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > until) throw new Error('condition not reached in time');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
