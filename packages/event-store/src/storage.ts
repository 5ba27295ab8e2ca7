import { randomBytes } from 'node:crypto';
import { link, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { z } from 'zod';
import type { EventStore } from './port.ts';
import {
  type ConnectOptions,
  connectPostgres,
  type PostgresConnection,
} from './postgres/connection.ts';
import { lockDataDir } from './postgres/dataDirLock.ts';
import { DEFAULT_HORIZON_STALL_MS, type HorizonHold, horizonHold } from './postgres/horizon.ts';
import { PostgresEventStore } from './postgres/postgres-event-store.ts';
import { EncryptingEventStore, type PersonalDataPolicy } from './privacy/encryptingStore.ts';
import { Keyring } from './privacy/keyring.ts';
import { PostgresSnapshotStore, type SnapshotStore } from './snapshots.ts';

export interface StorageConfig {
  /** PostgreSQL for events and read models; without it, PGlite under `dataDir`. */
  databaseUrl?: string | undefined;
  /** PGlite's directory; null keeps everything in memory (tests). */
  dataDir: string | null;
  /** Moves the event log to KurrentDB; read models stay in PostgreSQL / PGlite. */
  kurrentdbConnectionString?: string | undefined;
  /** A PGlite dump to start an in-memory database from (tests). */
  pgliteTemplate?: Blob | undefined;
  /**
   * How long a transaction may hold the log's horizon before readers stop waiting for it (a
   * whole-log read fails with `LogHorizonStalledError`) and health says so (default 30 s).
   */
  horizonStallMs?: number | undefined;
  /**
   * The master key's secret (`DATA_KEY_SECRET`). Absent: the one kept in `dataDir`
   * (`data-key-secret`, made on first start), or with no `dataDir` one for this process only.
   */
  dataKeySecret?: string | undefined;
  /**
   * Which event fields are personal data (the contracts' `personalData`): the store encrypts
   * them under their subject's key. Absent: events are stored as given (benchmarks' baselines).
   */
  personalData?: PersonalDataPolicy | undefined;
  /** `privacy:migrate` opens a log written before personal data was encrypted. */
  migratingPrivacy?: boolean;
}

export interface Storage {
  connection: PostgresConnection;
  store: EventStore;
  /** Folds of streams kept beside the log (in PostgreSQL / PGlite whichever holds the log). */
  snapshots: SnapshotStore;
  /**
   * The snapshots a command handler may start a stream's state from: `snapshots` where they share
   * the log's database (PostgreSQL / PGlite: backed up and restored with it); null with the log on
   * KurrentDB, where a snapshot could come from another history than the log's, and a decision on
   * it could still append at a revision the log has reached since.
   */
  stateSnapshots: SnapshotStore | null;
  /** The data keys of personal data (null when the store encrypts nothing). */
  keyring: Keyring | null;
  /**
   * The oldest transaction holding the log's horizon, and for how long (null: none; always with
   * the log on KurrentDB, which has no horizon).
   */
  horizonHold: () => Promise<HorizonHold | null>;
  close(): Promise<void>;
}

/** The database and the event log the configuration names. */
export async function openStorage(config: StorageConfig): Promise<Storage> {
  const options: ConnectOptions = config.databaseUrl
    ? { databaseUrl: config.databaseUrl }
    : { dataDir: config.dataDir, template: config.pgliteTemplate };
  // PGlite's directory belongs to one process at a time.
  const unlock =
    'dataDir' in options && options.dataDir ? await lockDataDir(options.dataDir) : async () => {};
  const connection = await connectPostgres(options).catch(async (error) => {
    await unlock();
    throw error;
  });
  try {
    const log = config.kurrentdbConnectionString
      ? await openKurrentDb(config.kurrentdbConnectionString)
      : await PostgresEventStore.open(connection.sql, {
          kind: connection.kind,
          // PGlite serves one process: its own appends wake its subscriptions.
          ...(connection.kind === 'postgres' ? { notifications: connection.notifications } : {}),
          horizonWaitMs: config.horizonStallMs ?? DEFAULT_HORIZON_STALL_MS,
        });
    const keyring = config.personalData
      ? await Keyring.open(connection.sql, await dataKeySecretOf(config), {
          logHasEvents: () => hasEvents(log),
          migrating: config.migratingPrivacy ?? false,
        }).catch(async (error) => {
          await log.close();
          throw error;
        })
      : null;
    const store =
      keyring && config.personalData
        ? new EncryptingEventStore(log, keyring, config.personalData)
        : log;
    const snapshots = await PostgresSnapshotStore.open(connection.sql);
    return {
      keyring,
      connection,
      store,
      snapshots,
      stateSnapshots: config.kurrentdbConnectionString ? null : snapshots,
      horizonHold: config.kurrentdbConnectionString
        ? async () => null
        : () => horizonHold(connection.sql),
      async close() {
        await store.close();
        await connection.close();
        await unlock();
      },
    };
  } catch (error) {
    await connection.close();
    await unlock();
    throw error;
  }
}

const hasEvents = async (store: EventStore) => {
  for await (const _ of store.readAll({ batch: 1 })) return true;
  return false;
};

/**
 * The secret of the data keys' master key: the configured one, else the one kept in the
 * embedded database's directory (made there on its first start: the database and its keys'
 * secret then live and move together), else a new one for a database in memory.
 */
async function dataKeySecretOf(config: StorageConfig): Promise<string> {
  if (config.dataKeySecret) return config.dataKeySecret;
  if (!config.dataDir) return randomBytes(32).toString('base64url');
  const file = join(config.dataDir, 'data-key-secret');
  const stored = async () => {
    const secret = (await readFile(file, 'utf8')).trim();
    if (secret.length < 32) {
      throw new Error(
        `${file} holds no usable secret (it needs at least 32 characters): restore it from where you keep it, or set DATA_KEY_SECRET`,
      );
    }
    return secret;
  };
  try {
    return await stored();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  await mkdir(config.dataDir, { recursive: true });
  // Written whole beside it, then linked into place: a reader never sees half a secret, and of
  // two processes starting at once the first one's is kept (the link refuses an existing file).
  const draft = `${file}.${process.pid}.new`;
  await writeFile(draft, `${randomBytes(32).toString('base64url')}\n`, { mode: 0o600 });
  try {
    await link(draft, file).catch((error) => {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    });
  } finally {
    await rm(draft, { force: true });
  }
  return stored();
}

/**
 * The KurrentDB adapter is imported only when it is configured: its client loads a native
 * module (the Rust bridge) that no PostgreSQL or PGlite process needs.
 */
async function openKurrentDb(connectionString: string): Promise<EventStore> {
  const { KurrentDbEventStore } = await import('./kurrentdb/kurrentdb-event-store.ts');
  return KurrentDbEventStore.connect(connectionString);
}

/** The environment settings that choose the storage, shared by every process that opens it. */
export const storageEnvShape = {
  DATA_DIR: z.string().min(1).default('./.data'),
  HORIZON_STALL_SECONDS: z.coerce
    .number()
    .positive()
    .default(DEFAULT_HORIZON_STALL_MS / 1000),
  DATABASE_URL: z.url({ protocol: /^postgres(ql)?$/ }).optional(),
  KURRENTDB_CONNECTION_STRING: z.string().min(1).optional(),
  /** The secret of the data keys' master key (required in production; see `dataKeySecretOf`). */
  DATA_KEY_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
};

export type StorageEnv = z.infer<z.ZodObject<typeof storageEnvShape>>;

/** Storage configuration from parsed settings; PGlite's directory is made absolute. */
export const storageConfigOf = (env: StorageEnv): StorageConfig => ({
  databaseUrl: env.DATABASE_URL,
  dataDir: resolve(env.DATA_DIR),
  kurrentdbConnectionString: env.KURRENTDB_CONNECTION_STRING,
  horizonStallMs: env.HORIZON_STALL_SECONDS * 1000,
  dataKeySecret: env.DATA_KEY_SECRET,
});
