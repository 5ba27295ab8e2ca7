import { describe, expect, it } from 'vitest';
import {
  celticCrossFacts,
  compatibilityFacts,
  lifePathFacts,
  natalChartFacts,
  offlineText,
  offlineWriter,
  seededRandom,
  streamingWriter,
  tarotTraditionalFacts,
} from '../src/index.ts';

const person = {
  firstName: 'Ada',
  lastName: 'Lovelace',
  birthDate: '1990-12-10',
  birthTime: '13:00',
  city: 'London',
  country: 'GB',
};
const question = { firstName: 'Ada', question: 'What does the year hold for my work?' };

const collect = async (pieces: AsyncIterable<string>) => {
  const all: string[] = [];
  for await (const piece of pieces) all.push(piece);
  return all;
};

describe('the offline writer, streamed', () => {
  const cases = [
    ['natalChart', natalChartFacts(person)],
    ['tarotTraditional', tarotTraditionalFacts(question, seededRandom(7))],
    ['celticCross', celticCrossFacts(question, seededRandom(7))],
    ['compatibility', compatibilityFacts(person, { ...person, firstName: 'Charles' })],
    ['lifePath', lifePathFacts(person)],
  ] as const;

  it.each(cases)(
    '%s: one piece per section, which joined are its text exactly',
    async (kind, facts) => {
      const text = (offlineText[kind] as (f: typeof facts) => string)(facts);
      const pieces = await collect(
        (offlineWriter.stream[kind] as (f: typeof facts) => AsyncIterable<string>)(facts),
      );
      expect(pieces.join('')).toBe(text);
      expect(pieces.length).toBe(text.split('\n## ').length);
      // Every piece after the first opens a section with its heading.
      for (const piece of pieces.slice(1)) expect(piece).toMatch(/^\n\n## /);
      expect(await (offlineWriter[kind] as (f: typeof facts) => Promise<string>)(facts)).toBe(text);
    },
  );
});

describe('streamingWriter', () => {
  it('writes each whole text as its pieces joined, and passes a failure on', async () => {
    async function* pieces() {
      yield 'one ';
      yield 'two';
    }
    async function* broken() {
      yield 'half';
      throw new Error('the line broke');
    }
    const writer = streamingWriter('test', {
      natalChart: pieces,
      tarotTraditional: pieces,
      celticCross: pieces,
      compatibility: pieces,
      lifePath: broken,
    });
    const facts = natalChartFacts(person);
    expect(await writer.natalChart(facts)).toBe('one two');
    await expect(writer.lifePath(lifePathFacts(person))).rejects.toThrow('the line broke');
  });
});
