/**
 * The narrative writer port: turns computed facts into the reading text. Adapters: the offline
 * writer in this package (deterministic, no network) and an OpenAI adapter in services/api
 * that sends promptFor.*(facts) to a model. Text uses the product's light markup: lines
 * starting with '## ' are headings, a line wrapped in '**' is a bold sub-heading, paragraphs
 * are separated by a blank line.
 */
import type { CompatibilityFacts, LifePathFacts, NatalFacts, TarotFacts } from '../facts.ts';

export interface NarrativeWriter {
  /** 'offline', 'openai:<model>' ... recorded with the reading. */
  readonly id: string;
  natalChart(facts: NatalFacts): Promise<string>;
  tarotTraditional(facts: TarotFacts): Promise<string>;
  celticCross(facts: TarotFacts): Promise<string>;
  compatibility(facts: CompatibilityFacts): Promise<string>;
  lifePath(facts: LifePathFacts): Promise<string>;
}
