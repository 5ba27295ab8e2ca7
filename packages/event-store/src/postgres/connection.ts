import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { cp, mkdir, readFile, rename, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join, sep } from 'node:path';
import { Mutex, PGlite, types as pgliteTypes } from '@electric-sql/pglite';
import pg from 'pg';
import { Notifications } from './notifications.ts';
import type { SqlClient } from './sql-client.ts';

/**
 * One database for the event log and the read models: PostgreSQL through a `pg` pool, or PGlite
 * embedded in this process. Both parse `bigint` and `date` as strings, so callers see the same
 * values whichever runs.
 */
export type PostgresConnection =
  | {
      kind: 'postgres';
      pool: pg.Pool;
      sql: SqlClient;
      /** LISTEN/NOTIFY between processes, on a connection of its own (opened on first use). */
      notifications: Notifications;
      close(): Promise<void>;
    }
  | {
      kind: 'pglite';
      pglite: PGlite;
      /** Serializes every use of the single PGlite connection; held across a transaction. */
      mutex: Mutex;
      sql: SqlClient;
      close(): Promise<void>;
    };

export type ConnectOptions =
  | { databaseUrl: string; maxConnections?: number; reconnectMs?: number }
  | {
      /** null keeps the database in memory. */
      dataDir: string | null;
      /** A PGlite data directory dump to start from instead of a fresh initdb (tests). */
      template?: Blob;
    };

const asText = (value: string) => value;

const pgTypes = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    oid === pg.types.builtins.DATE
      ? asText
      : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
};

/**
 * A pool on a hot standby (`DATABASE_READ_URL`): read-only, values parsed as on the primary. A
 * standby that does not answer fails fast, so its reads can go to the primary.
 */
export function replicaPool(databaseUrl: string, maxConnections = 10): pg.Pool {
  const pool = new pg.Pool({
    connectionString: databaseUrl,
    max: maxConnections,
    types: pgTypes,
    connectionTimeoutMillis: 2000,
  });
  pool.on('error', () => {});
  return pool;
}

export async function connectPostgres(options: ConnectOptions): Promise<PostgresConnection> {
  if ('databaseUrl' in options) {
    const pool = new pg.Pool({
      connectionString: options.databaseUrl,
      max: options.maxConnections ?? 20,
      types: pgTypes,
    });
    // An idle client can lose its server (restart, failover); the pool replaces it.
    pool.on('error', () => {});
    const sql: SqlClient = {
      // Not `pool.query`: it hands the connection back with the statement's error, and the pool
      // then closes it, so every refused statement (a unique violation) cost a new connection.
      // A statement the server refused leaves its connection as it was; only another failure (a
      // lost socket) may have broken it.
      query: async <Row>(text: string, params?: readonly unknown[], name?: string) => {
        const client = await pool.connect();
        let broken: Error | undefined;
        try {
          const result = await client.query({
            text,
            values: params as unknown[] | undefined,
            name,
          });
          return { rows: result.rows as Row[] };
        } catch (error) {
          if (!(error instanceof pg.DatabaseError)) broken = error as Error;
          throw error;
        } finally {
          client.release(broken);
        }
      },
      exec: async (script) => {
        await pool.query(script);
      },
    };
    const notifications = new Notifications(options.databaseUrl, {
      reconnectMs: options.reconnectMs,
    });
    return {
      kind: 'postgres',
      pool,
      sql,
      notifications,
      close: async () => {
        await notifications.close();
        await pool.end();
      },
    };
  }

  if (options.dataDir) await initializeDataDir(options.dataDir);
  const pglite = await PGlite.create(options.dataDir ?? undefined, {
    parsers: { [pgliteTypes.INT8]: asText, [pgliteTypes.DATE]: asText },
    // One embedded process: a small buffer cache keeps its memory small.
    postgresqlconf: ['shared_buffers = 32MB'],
    ...(options.template ? { loadDataDir: options.template } : {}),
  });
  const mutex = new Mutex();
  const sql: SqlClient = {
    query: (text, params) =>
      mutex.runExclusive(async () => {
        const result = await pglite.query(text, params as unknown[] | undefined);
        return { rows: result.rows as never[] };
      }),
    exec: (script) =>
      mutex.runExclusive(async () => {
        await pglite.exec(script);
      }),
  };
  return { kind: 'pglite', pglite, mutex, sql, close: () => pglite.close() };
}

/**
 * Gives a new data directory its PGlite database: a copy of a fresh one kept in
 * `node_modules/.cache/astra-pglite/<PGlite version>/`, made the first time by a child process
 * (see initDataDir.mjs). Creating a database (initdb) takes seconds; copying one, a fraction of
 * a second. Without a writable cache the child creates the database in place.
 */
async function initializeDataDir(dataDir: string) {
  if (existsSync(join(dataDir, 'PG_VERSION'))) return;
  await mkdir(dataDir, { recursive: true });
  try {
    const entry = createRequire(import.meta.url).resolve('@electric-sql/pglite');
    const marker = `${sep}node_modules${sep}`;
    const nodeModules = entry.slice(0, entry.lastIndexOf(marker) + marker.length - 1);
    const pglitePackage = join(nodeModules, '@electric-sql', 'pglite', 'package.json');
    const { version } = JSON.parse(await readFile(pglitePackage, 'utf8')) as { version: string };
    const cache = join(nodeModules, '.cache', 'astra-pglite', version);
    if (!existsSync(join(cache, 'PG_VERSION'))) {
      // Made beside the cache and renamed into it, so a concurrent start never copies half of it.
      const partial = `${cache}.${process.pid}.${Date.now()}.partial`;
      await mkdir(partial, { recursive: true });
      await createDatabase(partial);
      await rename(partial, cache).catch(async () => {
        await rm(partial, { recursive: true, force: true }); // another start made it first
      });
    }
    await cp(cache, dataDir, { recursive: true });
  } catch {
    if (!existsSync(join(dataDir, 'PG_VERSION'))) await createDatabase(dataDir);
  }
}

/** Creates a PGlite database in `dir` in a child process (see initDataDir.mjs). */
async function createDatabase(dir: string) {
  // Through the package's exports: the API's bundle (services/api/dist) is not beside it.
  const script = createRequire(import.meta.url).resolve('@astra/event-store/initDataDir.mjs');
  await new Promise<void>((resolve, reject) => {
    const child = spawn(process.execPath, [script, dir], { stdio: 'inherit' });
    child.once('error', reject);
    child.once('exit', (code) =>
      code === 0
        ? resolve()
        : reject(new Error(`Creating the database in ${dir} failed (exit ${code})`)),
    );
  });
}
