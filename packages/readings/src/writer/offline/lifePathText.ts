/** Offline life path reading: the three numbers, how they were found and what they mean. */
import type { LifePathFacts } from '../../facts.ts';
import { NUMBER_MEANINGS, numberMeaning } from '../../numerology/meanings.ts';
import { letterValue } from '../../numerology/numerology.ts';
import { formatLongDate, paragraphs } from '../format.ts';

function working(
  part: { letters: string; sum: number; reduced: number },
  vowelsOnly: boolean,
): string {
  const letters = [...part.letters].filter((l) => !vowelsOnly || 'AEIOU'.includes(l));
  if (letters.length === 0) return `${part.letters}: no vowels (0)`;
  const sum = letters.map((l) => letterValue(l)).join(' + ');
  return `${letters.join('')} = ${sum} = ${part.sum}${part.sum !== part.reduced ? ` → ${part.reduced}` : ''}`;
}

type NumberKind = 'Life Path' | 'Destiny' | 'Soul Urge';

/**
 * One number: how it was found and what it means. A number already read under an earlier kind
 * (`earlier`) is not described twice: the section points back to it.
 */
function numberSection(kind: NumberKind, n: number, how: string, earlier?: NumberKind): string {
  const m = numberMeaning(n);
  if (!m) {
    return paragraphs(
      `## ${kind} ${n}`,
      `${how} Your name has no vowels A, E, I, O or U in the Latin alphabet, so this number stays at zero: what you long for is expressed through the other numbers rather than on its own.`,
    );
  }
  const body = kind === 'Life Path' ? m.lifePath : kind === 'Destiny' ? m.destiny : m.soulUrge;
  if (earlier) {
    return paragraphs(
      `## ${kind} ${n}: ${m.title}`,
      how,
      `Your ${kind.toLowerCase()} is ${n} again, the number of your ${earlier.toLowerCase()}, so what was said of ${n} there holds here too. ${body} For your ${kind.toLowerCase()} too, mind the shadow side named under your ${earlier.toLowerCase()}: it weighs double in a number you carry twice.`,
    );
  }
  return paragraphs(
    `## ${kind} ${n}: ${m.title}`,
    how,
    `**${m.keywords.join(' · ')}**`,
    `${m.essence} ${body}`,
    `Watch for the shadow side: ${m.shadow.charAt(0).toLowerCase()}${m.shadow.slice(1)}`,
  );
}

function together(facts: LifePathFacts): string {
  const lp = facts.lifePath.value;
  const de = facts.destiny.value;
  const su = facts.soulUrge.value;
  const masters = [lp, de, su].filter((n) => n === 11 || n === 22 || n === 33);
  const sentences: string[] = [];
  if (lp === de && de === su) {
    sentences.push(
      `All three numbers are ${lp}: what you long for, what you are built for and the road you walk are one and the same, which gives you unusual focus and few excuses.`,
    );
  } else if (lp === de) {
    sentences.push(
      `Your life path and destiny are both ${lp}: your talents fit your road closely, so effort in that direction pays off quickly.`,
    );
  } else if (lp === su) {
    sentences.push(
      `Your life path and soul urge are both ${lp}: the road you are on is the one your heart wants, which makes it easier to keep going when it is hard.`,
    );
  } else if (de === su) {
    sentences.push(
      `Your destiny and soul urge are both ${de}: what you are good at and what you long for agree, and the ${lp} life path is where you put them to the test.`,
    );
  } else {
    const l = NUMBER_MEANINGS[lp]!;
    const d = NUMBER_MEANINGS[de]!;
    const s = numberMeaning(su);
    sentences.push(
      `Your ${lp} life path asks for ${l.keywords[0]} and ${l.keywords[1]}, your ${de} destiny brings ${d.keywords[0]} and ${d.keywords[1]}${s ? `, and your ${su} soul urge wants ${s.keywords[0]}` : ''}. When the three pull apart, let the soul urge tell you why, the destiny how, and the life path where.`,
    );
  }
  if (masters.length) {
    sentences.push(
      `${masters.length === 1 ? `The master number ${masters[0]}` : `The master numbers ${masters.join(' and ')}`} raise${masters.length === 1 ? 's' : ''} both the potential and the pressure: these are demanding numbers that often take until mid-life to grow into.`,
    );
  }
  return sentences.join(' ');
}

export function lifePathReading(facts: LifePathFacts): string {
  const lp = facts.lifePath;
  const name = [facts.firstName, facts.lastName].filter(Boolean).join(' ');
  const lpHow = `Born on ${formatLongDate(facts.birthDate)}: the month reduces to ${lp.month}, the day to ${lp.day} and the year to ${lp.year}; ${lp.month} + ${lp.day} + ${lp.year} = ${lp.total}${lp.total !== lp.value ? ` → ${lp.value}` : ''}.`;
  const deHow = `From the letters of ${name}: ${facts.destiny.parts.map((p) => working(p, false)).join('; ')}. All the letters together: ${facts.destiny.parts.map((p) => p.reduced).join(' + ')} = ${facts.destiny.total}${facts.destiny.total !== facts.destiny.value ? ` → ${facts.destiny.value}` : ''}.`;
  const suHow = `From the vowels of your name: ${facts.soulUrge.parts.map((p) => working(p, true)).join('; ')}. All the vowels together: ${facts.soulUrge.parts.map((p) => p.reduced).join(' + ')} = ${facts.soulUrge.total}${facts.soulUrge.total !== facts.soulUrge.value ? ` → ${facts.soulUrge.value}` : ''}.`;
  return [
    `## Your Numbers, ${facts.firstName || 'Friend'}`,
    `Pythagorean numerology turns your birth date and the letters of your name into three numbers: the life path (${lp.value}), the road you walk; the destiny (${facts.destiny.value}), the talents you bring to it; and the soul urge (${facts.soulUrge.value}), what you want deep down. Each is reduced to a single digit unless it lands on a master number, 11, 22 or 33, which are kept.`,
    numberSection('Life Path', lp.value, lpHow),
    numberSection(
      'Destiny',
      facts.destiny.value,
      deHow,
      facts.destiny.value === lp.value ? 'Life Path' : undefined,
    ),
    numberSection(
      'Soul Urge',
      facts.soulUrge.value,
      suHow,
      facts.soulUrge.value === lp.value
        ? 'Life Path'
        : facts.soulUrge.value === facts.destiny.value
          ? 'Destiny'
          : undefined,
    ),
    '## How Your Numbers Work Together',
    paragraphs(
      together(facts),
      'Numbers describe tendencies, not limits. Use them as a vocabulary for what you already sense about yourself.',
    ),
  ].join('\n\n');
}
