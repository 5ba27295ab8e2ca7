/**
 * The offline NarrativeWriter: composes each reading from the computed facts with no network
 * and no randomness (the same facts always give the same text). Used when no language model
 * is configured, in tests, and as the fallback when the model fails.
 */

import { compatibilityReport } from './offline/compatibilityText.ts';
import { lifePathReading } from './offline/lifePathText.ts';
import { natalReport } from './offline/natalText.ts';
import { celticCrossReading, tarotTraditionalReading } from './offline/tarotText.ts';
import type { NarrativeWriter } from './port.ts';

export const offlineText = {
  natalChart: natalReport,
  tarotTraditional: tarotTraditionalReading,
  celticCross: celticCrossReading,
  compatibility: compatibilityReport,
  lifePath: lifePathReading,
} as const;

export const offlineWriter: NarrativeWriter = {
  id: 'offline',
  natalChart: async (facts) => offlineText.natalChart(facts),
  tarotTraditional: async (facts) => offlineText.tarotTraditional(facts),
  celticCross: async (facts) => offlineText.celticCross(facts),
  compatibility: async (facts) => offlineText.compatibility(facts),
  lifePath: async (facts) => offlineText.lifePath(facts),
};
