export {
  CommandHandler,
  type CommandHandlerOptions,
  ConcurrencyError,
  type Evolver,
  type Handled,
  type StateSnapshots,
} from './commandHandler.ts';
export * from './port.ts';
export {
  type ConnectOptions,
  connectPostgres,
  type PostgresConnection,
  replicaPool,
} from './postgres/connection.ts';
export {
  DEFAULT_HORIZON_STALL_MS,
  describeHolder,
  type HorizonHold,
  type HorizonHolder,
  horizonHold,
  horizonHolder,
  LogHorizonStalledError,
} from './postgres/horizon.ts';
export {
  LISTENER_APPLICATION,
  type Listen,
  type NotificationHandler,
  Notifications,
} from './postgres/notifications.ts';
export {
  PostgresEventStore,
  type PostgresEventStoreOptions,
} from './postgres/postgres-event-store.ts';
export type { SqlClient } from './postgres/sql-client.ts';
export { EVENTS_CHANNEL } from './postgres/statements.ts';
export {
  EncryptingEventStore,
  MissingDataSubjectError,
  type PersonalDataPolicy,
  type Sealed,
  sealedOf,
} from './privacy/encryptingStore.ts';
export {
  KEY_CACHE_MS,
  Keyring,
  LogPredatesEncryptionError,
  WrongDataKeySecretError,
} from './privacy/keyring.ts';
export { PostgresSnapshotStore, type Snapshot, type SnapshotStore } from './snapshots.ts';
export {
  openStorage,
  type Storage,
  type StorageConfig,
  type StorageEnv,
  storageConfigOf,
  storageEnvShape,
} from './storage.ts';
export { Wakeup } from './wakeup.ts';
