import {
  type ReadingForm,
  type ReadingKind,
  type ReadingKindRecord,
  readingKindRecords,
} from '@astra/contracts';
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
import type { z } from 'zod';

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

/**
 * A reading kind the server sells: its record (`@astra/contracts`) and its engine, which computes
 * the facts from the record's validated form (throws ReadingInputError for bad input).
 */
export interface ReadingKindEngine<Record extends ReadingKindRecord = ReadingKindRecord> {
  record: Record;
  // A method, so that an engine of one kind is an engine of any (its form is its schema's output).
  prepare(form: z.output<Record['schema']>): Generation;
}

/** Pairs a record with its engine, the form typed by the record's schema. */
export const readingEngine = <Record extends ReadingKindRecord>(
  record: Record,
  prepare: (form: z.output<Record['schema']>) => Generation,
): ReadingKindEngine<Record> => ({ record, prepare });

const plain = (value: object) => value as unknown as Record<string, unknown>;

const engines: { [K in ReadingKind]: (form: ReadingForm<K>) => Generation } = {
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

/**
 * The shipped kinds in app-id order, each its record with its engine (the cast: TypeScript
 * cannot pair a slug's record with its engine across the union; `engines`' type already did).
 */
export const shippedReadingKinds: readonly ReadingKindEngine[] = readingKindRecords.map((record) =>
  readingEngine(record, engines[record.slug] as (form: unknown) => Generation),
);
