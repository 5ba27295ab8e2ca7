export { databaseFor, READ_SCHEMA, type ReadDb, readModels } from './database.ts';
export { migrateReadModels } from './migrations/index.ts';
export { PolledProgress, PositionWaiters, type ProjectionProgress } from './progress.ts';
export * from './projections/index.ts';
export { Projector, type ProjectorOptions } from './projector.ts';
export { type RebuildReport, rebuildReadModels } from './rebuild.ts';
export type * from './schema.ts';
export { type VerifyReport, verifyLedger } from './verify.ts';
