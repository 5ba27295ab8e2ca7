import type { ReadingKind } from '@astra/contracts';
import {
  celticCrossFacts,
  celticCrossResult,
  compatibilityFacts,
  compatibilityResult,
  lifePathFacts,
  lifePathResult,
  type NarrativeWriter,
  natalChartFacts,
  natalChartResult,
  tarotTraditionalFacts,
  tarotTraditionalResult,
} from '@astra/readings';

/**
 * What each reading does with its validated form: compute the facts (pure, before any credit is
 * spent), have the writer write about them, and assemble the contract's `result`.
 */
export interface Generation {
  firstName: string | null;
  question: string | null;
  write(writer: NarrativeWriter): Promise<Record<string, unknown>>;
}

type Forms = {
  'natal-chart': Parameters<typeof natalChartFacts>[0];
  'tarot-traditional': { firstName: string; question: string };
  'tarot-celtic-cross': { firstName: string; question: string };
  compatibility: {
    person1: Parameters<typeof natalChartFacts>[0];
    person2: Parameters<typeof natalChartFacts>[0];
  };
  'life-path': Parameters<typeof lifePathFacts>[0];
};

const plain = (value: object) => value as unknown as Record<string, unknown>;

const prepare: { [K in ReadingKind]: (form: Forms[K]) => Generation } = {
  'natal-chart': (form) => {
    const facts = natalChartFacts(form);
    return {
      firstName: form.firstName,
      question: null,
      write: async (writer) => plain(natalChartResult(facts, await writer.natalChart(facts))),
    };
  },
  'tarot-traditional': (form) => {
    const facts = tarotTraditionalFacts(form);
    return {
      firstName: facts.firstName,
      question: facts.question,
      write: async (writer) =>
        plain(tarotTraditionalResult(facts, await writer.tarotTraditional(facts))),
    };
  },
  'tarot-celtic-cross': (form) => {
    const facts = celticCrossFacts(form);
    return {
      firstName: facts.firstName,
      question: facts.question,
      write: async (writer) => plain(celticCrossResult(facts, await writer.celticCross(facts))),
    };
  },
  compatibility: (form) => {
    const facts = compatibilityFacts(form.person1, form.person2);
    return {
      firstName: form.person1.firstName,
      question: null,
      write: async (writer) => plain(compatibilityResult(facts, await writer.compatibility(facts))),
    };
  },
  'life-path': (form) => {
    const facts = lifePathFacts(form);
    return {
      firstName: form.firstName,
      question: null,
      write: async (writer) => plain(lifePathResult(facts, await writer.lifePath(facts))),
    };
  },
};

/** Computes a reading's facts from its validated form; throws ReadingInputError for bad input. */
export const prepareReading = <K extends ReadingKind>(kind: K, form: Forms[K]): Generation =>
  prepare[kind](form);
