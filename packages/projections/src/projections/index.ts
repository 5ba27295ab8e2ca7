import { adminStatsProjection } from './adminStats.ts';
import { feedbackProjection } from './feedback.ts';
import { ledgerEntriesProjection } from './ledgerEntries.ts';
import { profilesProjection } from './profiles.ts';
import type { Projection } from './projection.ts';
import { usageLogsProjection } from './usageLogs.ts';

export type { Projection };
export {
  adminStatsProjection,
  feedbackProjection,
  ledgerEntriesProjection,
  profilesProjection,
  usageLogsProjection,
};

/** Every projection the app runs, in the order they apply a batch. */
export const allProjections: readonly Projection[] = [
  profilesProjection,
  ledgerEntriesProjection,
  adminStatsProjection,
  feedbackProjection,
  usageLogsProjection,
];
