export { liveCheckpointOf, untilProjected } from './checkpoints.ts';
export {
  CREDIT_COLUMNS,
  creditNumber,
  databaseFor,
  databaseOver,
  READ_SCHEMA,
  type ReadDb,
  readModels,
} from './database.ts';
export { sleep } from './failedProjections.ts';
export * from './finance/balanceAt.ts';
export * from './finance/calendar.ts';
export * from './finance/closedMonths.ts';
export * from './finance/creditLog.ts';
export * from './finance/journal.ts';
export * from './finance/ledgerExport.ts';
export * from './finance/monthlyReport.ts';
export * from './finance/monthMoney.ts';
export * from './finance/payoutReport.ts';
export { watchHorizon } from './horizonWatch.ts';
export * from './leaders.ts';
export { migrateReadModels, READ_MODEL_MIGRATIONS } from './migrations/index.ts';
export {
  CHECKPOINTS_CHANNEL,
  PolledProgress,
  PositionWaiters,
  type ProjectionProgress,
} from './progress.ts';
export type { BatchFence } from './projectionBatches.ts';
export * from './projections/index.ts';
export { Projector, type ProjectorOptions } from './projector.ts';
export type { ProjectionStatus, ProjectorLogger } from './projectorStatus.ts';
export { type RebuildReport, rebuildReadModels } from './rebuild.ts';
export type * from './schema.ts';
export {
  moneyInvariantLine,
  type VerifyOptions,
  type VerifyReport,
  verifyLedger,
} from './verify.ts';
