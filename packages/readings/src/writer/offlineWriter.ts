/**
 * The offline NarrativeWriter: composes each reading from the computed facts with no network
 * and no randomness (the same facts always give the same text). Used when no language model
 * is configured (the API never falls back to it when a model fails), and in tests.
 */

import { compatibilityReport } from './offline/compatibilityText.ts';
import { lifePathReading } from './offline/lifePathText.ts';
import { natalReport } from './offline/natalText.ts';
import { celticCrossReading, tarotTraditionalReading } from './offline/tarotText.ts';
import { streamingWriter } from './port.ts';

export const offlineText = {
  natalChart: natalReport,
  tarotTraditional: tarotTraditionalReading,
  celticCross: celticCrossReading,
  compatibility: compatibilityReport,
  lifePath: lifePathReading,
} as const;

/**
 * A text streamed by its sections: each `## ` heading with what follows it (the text before the
 * first heading on its own). Joined, the sections are the text, character for character.
 */
async function* sectionsOf(write: () => string): AsyncGenerator<string> {
  yield* write().split(/(?=\n\n## )/);
}

export const offlineWriter = streamingWriter('offline', {
  natalChart: (facts) => sectionsOf(() => offlineText.natalChart(facts)),
  tarotTraditional: (facts) => sectionsOf(() => offlineText.tarotTraditional(facts)),
  celticCross: (facts) => sectionsOf(() => offlineText.celticCross(facts)),
  compatibility: (facts) => sectionsOf(() => offlineText.compatibility(facts)),
  lifePath: (facts) => sectionsOf(() => offlineText.lifePath(facts)),
});
