import { KurrentDbEventStore } from './kurrentdb/kurrentdb-event-store.ts';
import type { EventStore } from './port.ts';
import {
  type ConnectOptions,
  connectPostgres,
  type PostgresConnection,
} from './postgres/connection.ts';
import { PostgresEventStore } from './postgres/postgres-event-store.ts';

export interface StorageConfig {
  /** PostgreSQL for events and read models; without it, PGlite under `dataDir`. */
  databaseUrl?: string | undefined;
  /** PGlite's directory; null keeps everything in memory (tests). */
  dataDir: string | null;
  /** Moves the event log to KurrentDB; read models stay in PostgreSQL / PGlite. */
  kurrentdbConnectionString?: string | undefined;
  /** A PGlite dump to start an in-memory database from (tests). */
  pgliteTemplate?: Blob | undefined;
}

export interface Storage {
  connection: PostgresConnection;
  store: EventStore;
  close(): Promise<void>;
}

/** The database and the event log the configuration names. */
export async function openStorage(config: StorageConfig): Promise<Storage> {
  const options: ConnectOptions = config.databaseUrl
    ? { databaseUrl: config.databaseUrl }
    : { dataDir: config.dataDir, template: config.pgliteTemplate };
  const connection = await connectPostgres(options);
  try {
    const store = config.kurrentdbConnectionString
      ? KurrentDbEventStore.connect(config.kurrentdbConnectionString)
      : await PostgresEventStore.open(connection.sql, { kind: connection.kind });
    return {
      connection,
      store,
      async close() {
        await store.close();
        await connection.close();
      },
    };
  } catch (error) {
    await connection.close();
    throw error;
  }
}
