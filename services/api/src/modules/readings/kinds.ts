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
  /** The contract's `result` with this text; with `''`, the facts alone (the text still to come). */
  result(text: string): Record<string, unknown>;
  /** The text, piece by piece as the writer writes it. */
  write(writer: NarrativeWriter, signal?: AbortSignal): AsyncIterable<string>;
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
      result: (text) => plain(natalChartResult(facts, text)),
      write: (writer, signal) => writer.stream.natalChart(facts, { signal }),
    };
  },
  'tarot-traditional': (form) => {
    const facts = tarotTraditionalFacts(form);
    return {
      firstName: facts.firstName,
      question: facts.question,
      result: (text) => plain(tarotTraditionalResult(facts, text)),
      write: (writer, signal) => writer.stream.tarotTraditional(facts, { signal }),
    };
  },
  'tarot-celtic-cross': (form) => {
    const facts = celticCrossFacts(form);
    return {
      firstName: facts.firstName,
      question: facts.question,
      result: (text) => plain(celticCrossResult(facts, text)),
      write: (writer, signal) => writer.stream.celticCross(facts, { signal }),
    };
  },
  compatibility: (form) => {
    const facts = compatibilityFacts(form.person1, form.person2);
    return {
      firstName: form.person1.firstName,
      question: null,
      result: (text) => plain(compatibilityResult(facts, text)),
      write: (writer, signal) => writer.stream.compatibility(facts, { signal }),
    };
  },
  'life-path': (form) => {
    const facts = lifePathFacts(form);
    return {
      firstName: form.firstName,
      question: null,
      result: (text) => plain(lifePathResult(facts, text)),
      write: (writer, signal) => writer.stream.lifePath(facts, { signal }),
    };
  },
};

/** Computes a reading's facts from its validated form; throws ReadingInputError for bad input. */
export const prepareReading = <K extends ReadingKind>(kind: K, form: Forms[K]): Generation =>
  prepare[kind](form);
