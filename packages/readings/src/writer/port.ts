/**
 * The narrative writer port: turns computed facts into the reading text. Adapters: the offline
 * writer in this package (deterministic, no network) and an OpenAI adapter in services/api
 * that sends promptFor.*(facts) to a model. Text uses the product's light markup: lines
 * starting with '## ' are headings, a line wrapped in '**' is a bold sub-heading, paragraphs
 * are separated by a blank line.
 */
import type { CompatibilityFacts, LifePathFacts, NatalFacts, TarotFacts } from '../facts.ts';

/** `signal` stops a writer that waits on a service (a shutdown that cannot wait any longer). */
export interface WriteOptions {
  signal?: AbortSignal | undefined;
}

/** The five texts a writer writes, each from its reading's facts. */
export interface WriterTexts<Text> {
  natalChart(facts: NatalFacts, options?: WriteOptions): Text;
  tarotTraditional(facts: TarotFacts, options?: WriteOptions): Text;
  celticCross(facts: TarotFacts, options?: WriteOptions): Text;
  compatibility(facts: CompatibilityFacts, options?: WriteOptions): Text;
  lifePath(facts: LifePathFacts, options?: WriteOptions): Text;
}

export const writerTexts = [
  'natalChart',
  'tarotTraditional',
  'celticCross',
  'compatibility',
  'lifePath',
] as const satisfies readonly (keyof WriterTexts<unknown>)[];

export interface NarrativeWriter extends WriterTexts<Promise<string>> {
  /** 'offline', 'openai:<model>' ... recorded with the reading. */
  readonly id: string;
  /**
   * Each text piece by piece, as it is written (a model's tokens, the offline writer's
   * sections); the pieces joined are the text.
   */
  readonly stream: WriterTexts<AsyncIterable<string>>;
}

async function joined(pieces: AsyncIterable<string>): Promise<string> {
  let text = '';
  for await (const piece of pieces) text += piece;
  return text;
}

/** A writer from its streams: each whole text is its pieces joined. */
export function streamingWriter(
  id: string,
  stream: WriterTexts<AsyncIterable<string>>,
): NarrativeWriter {
  return {
    id,
    stream,
    natalChart: (facts, options) => joined(stream.natalChart(facts, options)),
    tarotTraditional: (facts, options) => joined(stream.tarotTraditional(facts, options)),
    celticCross: (facts, options) => joined(stream.celticCross(facts, options)),
    compatibility: (facts, options) => joined(stream.compatibility(facts, options)),
    lifePath: (facts, options) => joined(stream.lifePath(facts, options)),
  };
}
