import { describe, expect, it } from 'vitest';
import {
  celticCrossFacts,
  compatibilityFacts,
  formatZodiacal,
  lifePathFacts,
  type NarrativeWriter,
  natalChartFacts,
  natalChartResult,
  offlineText,
  offlineWriter,
  POINT_KEYS,
  promptFor,
  questionTheme,
  seededRandom,
  tarotTraditionalFacts,
} from '../src/index.ts';

const einstein = {
  firstName: 'Albert',
  lastName: 'Einstein',
  birthDate: '1879-03-14',
  birthTime: '11:30',
  city: 'Ulm',
  country: 'Germany',
};
const mileva = {
  firstName: 'Mileva',
  lastName: 'Marić',
  birthDate: '1875-12-19',
  birthTime: '12:00',
  city: 'Titel',
  country: 'Serbia',
};

/** Signs of template leftovers or broken interpolation. */
const PLACEHOLDER = /\[[^\]]*\]|\{[^}]*\}|\bundefined\b|\bNaN\b|\bnull\b|TODO|lorem|placeholder/i;

function checkMarkup(text: string): void {
  expect(text).not.toMatch(PLACEHOLDER);
  const headings = text.split('\n').filter((l) => l.startsWith('## '));
  expect(headings.length).toBeGreaterThanOrEqual(3);
  expect(text.split('\n\n').length).toBeGreaterThanOrEqual(8);
  expect(text).toMatch(/^\*\*.+\*\*$/m);
}

describe('Offline writer', () => {
  it('natal report names the actual placements, aspects and houses', async () => {
    const facts = natalChartFacts(einstein);
    const text = await offlineWriter.natalChart(facts);
    checkMarkup(text);
    const c = facts.chart.chart;
    expect(text).toContain('Sun in Pisces');
    expect(text).toContain('Moon in Sagittarius');
    expect(text).toContain('Ascendant in Cancer');
    expect(text).toContain(formatZodiacal(c.sun.abs_pos)); // 23°30' Pisces
    for (const planet of [
      'Mercury',
      'Venus',
      'Mars',
      'Jupiter',
      'Saturn',
      'Uranus',
      'Neptune',
      'Pluto',
    ]) {
      expect(text).toContain(planet);
    }
    const main = new Set([...POINT_KEYS.slice(0, 12)]); // planets, Ascendant and MC
    const strongest = facts.chart.aspects.find((a) => main.has(a.p1) && main.has(a.p2))!;
    expect(text).toContain(`${strongest.p1_name} ${strongest.aspect} ${strongest.p2_name}`);
    expect(text).toContain('10th house');
    expect(text).toContain('Ulm');
  });

  it('explains an ambiguous birth time and the polar house fallback', () => {
    const ambiguous = offlineText.natalChart(
      natalChartFacts({
        ...einstein,
        birthDate: '2021-11-07',
        birthTime: '01:30',
        city: 'New York',
        country: 'US',
      }),
    );
    expect(ambiguous).toContain('first occurrence');
    const polar = offlineText.natalChart(
      natalChartFacts({ ...einstein, birthDate: '1985-01-10', city: 'Tromsø', country: 'Norway' }),
    );
    expect(polar).toContain('Porphyry');
    expect(polar).not.toMatch(PLACEHOLDER);
  });

  it('is deterministic for the same facts', async () => {
    const facts = natalChartFacts(einstein);
    expect(await offlineWriter.natalChart(facts)).toBe(await offlineWriter.natalChart(facts));
    const t = tarotTraditionalFacts({ firstName: 'Ana', question: 'Q?' }, seededRandom(5));
    expect(offlineText.tarotTraditional(t)).toBe(offlineText.tarotTraditional(t));
  });

  it('three-card reading reads each card in its position against the question', async () => {
    const facts = tarotTraditionalFacts(
      { firstName: 'Maya', question: 'Should I take the new job in Lisbon?' },
      seededRandom(11),
    );
    const text = await offlineWriter.tarotTraditional(facts);
    checkMarkup(text);
    expect(text).toContain('Maya');
    expect(text).toContain('Should I take the new job in Lisbon?');
    for (const c of facts.cards) {
      expect(text).toContain(c.card.name);
      expect(text).toContain(`${c.card.name} (${c.orientation})`);
    }
    // Each section names its position once and its card once ('The Past: Nine of Cups' then
    // 'Past: Nine of Cups (upright)' said both twice).
    for (const c of facts.cards) {
      expect(text).toContain(
        `## The ${c.position.name}\n\n**${c.card.name} (${c.orientation})**\n\n`,
      );
      expect(text).not.toContain(`${c.position.name}: ${c.card.name}`);
    }
    expect(text).toMatch(/## The Past\n[\s\S]*## The Present\n[\s\S]*## The Future\n/);
    expect(text).toContain('your work and studies'); // read through the question's theme
  });

  it('Celtic Cross reading covers all ten positions', async () => {
    const facts = celticCrossFacts(
      { firstName: 'Maya', question: 'Where is my relationship going?' },
      seededRandom(12),
    );
    const text = await offlineWriter.celticCross(facts);
    checkMarkup(text);
    for (const c of facts.cards) expect(text).toContain(`${c.position.name}: ${c.card.name}`);
  });

  it('life path reading gives each number, its working and meaning', async () => {
    const facts = lifePathFacts({
      firstName: 'Albert',
      lastName: 'Einstein',
      birthDate: '1879-03-14',
    });
    const text = await offlineWriter.lifePath(facts);
    checkMarkup(text);
    expect(text).toContain('## Life Path 6: The Caretaker');
    expect(text).toContain('## Destiny 9: The Humanitarian');
    expect(text).toContain('## Soul Urge 7: The Seeker');
    expect(text).toContain('3 + 5 + 7 = 15 → 6');
  });

  it('compatibility report gives the score, label and scoring aspects', async () => {
    const facts = compatibilityFacts(einstein, mileva);
    const text = await offlineWriter.compatibility(facts);
    checkMarkup(text);
    expect(text).toContain(`${facts.score.score} out of 44`);
    expect(text).toContain(facts.score.label);
    expect(text).toContain('Albert');
    expect(text).toContain('Mileva');
    for (const a of facts.score.aspects) expect(text).toContain(`${a.points} points`);
  });

  it('satisfies the port', () => {
    const writer: NarrativeWriter = offlineWriter;
    expect(writer.id).toBe('offline');
  });

  it('recognises the theme of a question', () => {
    expect(questionTheme('Does he love me?')).toBe('love');
    expect(questionTheme('Will I get the promotion at work?')).toBe('work');
    expect(questionTheme('What should I focus on?')).toBe('decision');
    expect(questionTheme('What does today hold?')).toBe('general');
  });
});

describe('Prompts for a language model', () => {
  it('natal prompt carries our computed positions', () => {
    const facts = natalChartFacts(einstein);
    const p = promptFor.natalChart(facts);
    expect(p.system).toMatch(/## /);
    expect(p.system).toMatch(/ONLY the facts/);
    for (const key of POINT_KEYS)
      expect(p.user).toContain(formatZodiacal(facts.chart.chart[key]!.abs_pos));
    expect(p.user).toContain('Placidus');
  });

  it('tarot, life path and compatibility prompts carry the cards, numbers and score', () => {
    const t = tarotTraditionalFacts(
      { firstName: 'Ana', question: 'Will I move?' },
      seededRandom(1),
    );
    const tp = promptFor.tarotTraditional(t);
    for (const c of t.cards) expect(tp.user).toContain(`${c.card.name}, ${c.orientation}`);
    expect(tp.user).toContain('Will I move?');
    const cc = celticCrossFacts({ firstName: 'Ana', question: 'Q' }, seededRandom(2));
    expect(
      promptFor
        .celticCross(cc)
        .user.split('\n')
        .filter((l) => /^\d+\. /.test(l)),
    ).toHaveLength(10);
    const lp = promptFor.lifePath(
      lifePathFacts({ firstName: 'Albert', lastName: 'Einstein', birthDate: '1879-03-14' }),
    );
    expect(lp.user).toContain('Life path: 6');
    expect(lp.user).toContain('Destiny: 9');
    const comp = compatibilityFacts(einstein, mileva);
    expect(promptFor.compatibility(comp).user).toContain(`Score: ${comp.score.score} of 44`);
  });
});

describe('Natal result', () => {
  it('has the contract shape plus the report text', () => {
    const facts = natalChartFacts(einstein);
    const result = natalChartResult(facts, offlineText.natalChart(facts));
    expect(result.chart.sun).toMatchObject({ name: 'Sun', retrograde: false });
    expect(result.chart.first_house!.abs_pos).toBeCloseTo(result.chart.ascendant!.abs_pos, 9);
    expect(result.fullReport).toContain('## ');
    expect(result.birthInfo).toMatchObject({ city: 'Ulm', country: 'Germany' });
    expect(result.birthInfo.place).toMatchObject({ country: 'DE', timezone: 'Europe/Berlin' });
    expect(JSON.parse(JSON.stringify(result))).toEqual(result);
  });
});

/** Every sentence of a text, headings and bold sub-headings left out. */
function sentencesOf(text: string): string[] {
  return text
    .split('\n')
    .filter((line) => line && !line.startsWith('## ') && !/^\*\*.*\*\*$/.test(line))
    .flatMap((line) => line.split(/(?<=[.!?])\s+(?=[A-Z“"])/))
    .map((sentence) => sentence.trim())
    .filter(Boolean);
}

function repeatedSentences(text: string): string[] {
  const seen = new Set<string>();
  const repeated = new Set<string>();
  for (const sentence of sentencesOf(text)) {
    if (seen.has(sentence)) repeated.add(sentence);
    seen.add(sentence);
  }
  return [...repeated];
}

describe('Words a person believes', () => {
  const random = seededRandom(2026);
  const places = [
    ['London', 'GB'],
    ['New York', 'US'],
    ['Ulm', 'Germany'],
    ['Tromsø', 'Norway'],
    ['Mumbai', 'India'],
    ['Sydney', 'Australia'],
    ['São Paulo', 'Brazil'],
    ['Tokyo', 'Japan'],
  ] as const;
  const pad = (n: number) => String(n).padStart(2, '0');
  const someone = (firstName: string) => {
    const [city, country] = places[random.int(places.length)]!;
    return {
      firstName,
      lastName: 'Doe',
      birthDate: `${1800 + random.int(225)}-${pad(1 + random.int(12))}-${pad(1 + random.int(28))}`,
      birthTime: `${pad(random.int(24))}:${pad(random.int(60))}`,
      city,
      country,
    };
  };
  const questions = [
    'Does he love me?',
    'Will I get the promotion at work?',
    'Should I buy the house?',
    'How can I heal?',
    'What should I focus on?',
    'What does today hold?',
  ];

  it('repeats no sentence within a reading (300 natal charts)', () => {
    for (let i = 0; i < 300; i++) {
      const person = someone('Alex');
      const text = offlineText.natalChart(natalChartFacts(person));
      expect(repeatedSentences(text), JSON.stringify(person)).toEqual([]);
    }
  });

  it('repeats no sentence within a reading (200 compatibilities)', () => {
    for (let i = 0; i < 200; i++) {
      const pair = [someone('Alex'), someone('Sam')] as const;
      const text = offlineText.compatibility(compatibilityFacts(...pair));
      expect(repeatedSentences(text), JSON.stringify(pair)).toEqual([]);
    }
  });

  it('repeats no sentence within a reading (300 tarot spreads, 200 life paths)', () => {
    for (let i = 0; i < 300; i++) {
      const question = { firstName: 'Alex', question: questions[i % questions.length]! };
      const three = offlineText.tarotTraditional(tarotTraditionalFacts(question, random));
      expect(repeatedSentences(three), three).toEqual([]);
      const cross = offlineText.celticCross(celticCrossFacts(question, random));
      expect(repeatedSentences(cross), cross).toEqual([]);
    }
    const firstNames = ['Ada', 'Bo', 'Chidi', 'Dana', 'Eun', 'Farid', 'Greta', 'Hiro', 'Ines'];
    const lastNames = ['Lovelace', 'Ng', 'Okafor', 'Petrov', 'Quist', 'Rossi', 'Sato', 'Tull'];
    for (let i = 0; i < 300; i++) {
      const input = {
        firstName: firstNames[random.int(firstNames.length)]!,
        lastName: lastNames[random.int(lastNames.length)]!,
        birthDate: someone('A').birthDate,
      };
      const text = offlineText.lifePath(lifePathFacts(input));
      expect(repeatedSentences(text), JSON.stringify(input)).toEqual([]);
    }
    // Three equal numbers (2, 2, 2) are each read once, the later two pointing back.
    const triple = lifePathFacts({ firstName: 'Ee', lastName: 'Ee', birthDate: '1989-05-06' });
    expect([triple.destiny.value, triple.soulUrge.value]).toEqual([2, 2]);
    expect(triple.lifePath.value).toBe(2);
    expect(repeatedSentences(offlineText.lifePath(triple))).toEqual([]);
  });

  it('writes a position as the web app’s table does, and counts in words that agree', () => {
    const facts = natalChartFacts(einstein);
    const text = offlineText.natalChart(facts);
    // Mercury at 3.1583…° Aries: cut to the minute, never rounded up, in the table and here.
    const mercury = facts.chart.chart.mercury.abs_pos;
    expect(text).toContain(`(${formatZodiacal(mercury)}, `);
    expect(formatZodiacal(6.58333)).toBe('6°34′ Aries');
    expect(formatZodiacal(29.9999)).toBe('29°59′ Aries');
    expect(text).toContain('March 14, 1879');
    for (let i = 0; i < 60; i++) {
      const report = offlineText.compatibility(compatibilityFacts(someone('A'), someone('B')));
      expect(report).not.toMatch(/\b1 (conjunctions|contacts|aspects|squares|trines)\b/);
      expect(report).not.toMatch(/\b(\d*[02-9]|\d+1\d) conjunction\b/);
    }
  });
});
