import { describe, expect, it } from 'vitest';
import {
  answerFromReading,
  EMPTY_QUESTION_ANSWER,
  meaningfulStems,
  NO_MATCH_ANSWER,
  readingPassages,
  stem,
} from './readingAnswers';

const tarot = `# Your Tarot Reading

**The Past: The Hermit**

The Hermit in your past speaks of a season spent alone, studying and thinking before you chose a direction.

**The Present: The Lovers**

The Lovers in the present put a relationship at the centre of your question: a choice made with the heart, and a partner who matters.

**The Future: Ten of Pentacles**

The Ten of Pentacles points to lasting security: savings, a home, and money that supports a family.

## Advice

- Keep your savings steady while the project grows.
- Talk openly with your partner before you decide.`;

describe('stem', () => {
  it('lets the forms of a word meet', () => {
    expect(stem('loving')).toBe(stem('love'));
    expect(stem('loved')).toBe(stem('love'));
    expect(stem('careers')).toBe(stem('career'));
    expect(stem('stories')).toBe(stem('story'));
    expect(stem('running')).toBe(stem('run'));
    expect(stem('relationships')).toBe(stem('relationship'));
  });

  it('keeps words that only look like plurals', () => {
    expect(stem('venus')).toBe('venus');
    expect(stem('analysis')).toBe('analysis');
    expect(stem('glass')).toBe('glass');
  });
});

describe('meaningfulStems', () => {
  it('drops the words every question has', () => {
    expect(meaningfulStems('What does my future card mean for me?')).toEqual(['futur', 'card']);
  });

  it('keeps numbers, which name life path numbers', () => {
    expect(meaningfulStems('Why is my number 7?')).toEqual(['number', '7']);
  });
});

describe('readingPassages', () => {
  it('names a section by its heading and the bold line right under it, as the offline tarot writes it', () => {
    const passages = readingPassages(
      '## The Past\n\n**The Hermit (upright)**\n\nA season alone.\n\n## Putting It Together\n\nA story.\n\n**Advice**\n\nKeep going.',
    );
    expect(passages.map((p) => p.section)).toEqual([
      'The Past: The Hermit (upright)',
      'Putting It Together',
      'Advice',
    ]);
  });

  it('splits the reading into paragraphs and list items under their headings', () => {
    const passages = readingPassages(tarot);
    expect(passages.map((p) => p.section)).toEqual([
      'The Past: The Hermit',
      'The Present: The Lovers',
      'The Future: Ten of Pentacles',
      'Advice',
      'Advice',
    ]);
    expect(passages[0]!.text).toMatch(/^The Hermit in your past/);
    expect(passages[3]!.text).toBe('Keep your savings steady while the project grows.');
  });

  it('removes the marks of the reading', () => {
    const [passage] = readingPassages('A **bold** claim, plainly said.');
    expect(passage!.text).toBe('A bold claim, plainly said.');
  });

  it('cuts long paragraphs into groups of whole sentences', () => {
    const sentence = 'The stars turn slowly over the quiet hills tonight. ';
    const passages = readingPassages(sentence.repeat(30));
    expect(passages.length).toBeGreaterThan(2);
    for (const passage of passages) {
      expect(passage.text.length).toBeLessThanOrEqual(520);
      expect(passage.text).toMatch(/\.$/);
    }
  });

  it('reads older HTML reports too', () => {
    const passages = readingPassages(
      '<h2>Your Sun</h2><p>Your Sun in Sagittarius loves travel.</p>',
    );
    expect(passages).toEqual([
      { text: 'Your Sun in Sagittarius loves travel.', section: 'Your Sun', index: 0 },
    ]);
  });
});

describe('answerFromReading', () => {
  it('answers with the passage that shares the most meaningful words', () => {
    const answer = answerFromReading(tarot, 'What about my money and savings?');
    expect(answer.matched).toBe(true);
    expect(answer.passages[0]!.text).toMatch(/Ten of Pentacles points to lasting security/);
  });

  it('matches word forms, not only exact words', () => {
    const answer = answerFromReading(tarot, 'Is my relationship loving?');
    expect(answer.passages.map((p) => p.section)).toContain('The Present: The Lovers');
  });

  it('leans on the section a question names', () => {
    const answer = answerFromReading(tarot, 'Tell me about the Hermit');
    expect(answer.passages[0]!.section).toBe('The Past: The Hermit');
  });

  it('gives at most two passages, in reading order', () => {
    const answer = answerFromReading(tarot, 'my partner and our relationship, should I decide?');
    expect(answer.passages.length).toBeLessThanOrEqual(2);
    const indexes = answer.passages.map((p) => p.index);
    expect(indexes).toEqual([...indexes].sort((a, b) => a - b));
    expect(answer.text).toBe(answer.passages.map((p) => p.text).join('\n\n'));
  });

  it('says so kindly when nothing in the reading fits', () => {
    const answer = answerFromReading(tarot, 'What is the capital of Peru?');
    expect(answer).toEqual({ passages: [], text: NO_MATCH_ANSWER, matched: false });
  });

  it('asks for a question when there is none', () => {
    expect(answerFromReading(tarot, '   ').text).toBe(EMPTY_QUESTION_ANSWER);
    expect(answerFromReading(tarot, 'what is it?').text).toBe(NO_MATCH_ANSWER);
  });

  it('has nothing to say about an empty reading but the fallback', () => {
    expect(answerFromReading('', 'my future').matched).toBe(false);
  });
});
