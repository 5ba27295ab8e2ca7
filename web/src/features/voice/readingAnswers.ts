import { parseMarkup, type Span } from '../readings/result/readingMarkup';

/**
 * The offline guide's answers: the passages of the person's own reading that fit their question
 * best. No model and no network: the reading is split into passages (its paragraphs and list
 * items, long ones in groups of sentences), each passage and the question are reduced to
 * meaningful word stems, and passages are ranked by the stems they share with the question,
 * rarer stems counting more.
 */

export interface Passage {
  /** The passage as plain text (the reading's marks removed). */
  text: string;
  /** The heading it sits under, if any ('The Present: The Tower'). */
  section: string | null;
  /** Its place in the reading, to give answers in reading order. */
  index: number;
}

export interface ReadingAnswer {
  /** The best one or two passages, in reading order; empty when nothing fits. */
  passages: Passage[];
  /** What the guide says: the passages, or a kind sentence when nothing fits. */
  text: string;
  matched: boolean;
}

/** Said when no passage shares a meaningful word with the question. */
export const NO_MATCH_ANSWER =
  "I couldn't find that in your reading. Try asking about something it mentions: a card, a planet, a number, or a theme such as love, work or the future.";

/** Said to an empty question. */
export const EMPTY_QUESTION_ANSWER = 'Ask me anything about your reading, in your own words.';

/** Passages longer than this are split into groups of sentences. */
const LONG_PASSAGE = 480;
const MAX_PASSAGES = 2;

/** Words that carry no meaning of their own in a question about a reading. */
const STOP_WORDS = new Set(
  `a about above after again against all also am an and any are aren as at be because been before
  being below between both but by can cannot could did didn do does doesn doing don down during each
  else even ever every few for from further get gets getting give go going got had has have having he
  her here hers herself him himself his how however i if in into is isn it its itself just know let
  like lot may me might mine more most much must my myself need no nor not now of off on once only or
  other ought our ours ourselves out over own please quite rather really said same say says see shall
  she should so some such tell than that the their theirs them themselves then there these they thing
  things think this those though through thus to too under until up upon us very want was wasn way
  we well were what whatever when where whether which while who whom whose why will with within
  without would yes yet you your yours yourself yourselves
  mean means meaning meant explain explains anything something everything nothing`
    .split(/\s+/)
    .filter(Boolean),
);

/** Suffixes stripped by `stem`, longest first. */
const SUFFIXES = [
  'ational',
  'ations',
  'ation',
  'ments',
  'ment',
  'nesses',
  'ness',
  'ingly',
  'ings',
  'ing',
  'edly',
  'ies',
  'ied',
  'ed',
  'es',
  'ly',
  's',
];

/**
 * A simple stem: common English endings removed, so 'loving', 'loved' and 'love' meet, and so do
 * 'careers' and 'career'. Good enough to match words, not meant to be a dictionary form.
 */
export function stem(word: string): string {
  let w = word.toLowerCase().replace(/['’]s$/, '');
  if (w.length <= 3) return w;
  for (const suffix of SUFFIXES) {
    if (w.endsWith(suffix) && w.length - suffix.length >= 3) {
      if (suffix === 's' && /(ss|us|is)$/.test(w)) break;
      w = w.slice(0, -suffix.length);
      if (suffix === 'ies' || suffix === 'ied') w += 'y';
      break;
    }
  }
  // 'running' → 'runn' → 'run'; 'love' and 'lov(ing)' meet without their final e.
  if (/([^aeioulsz])\1$/.test(w)) w = w.slice(0, -1);
  if (w.length > 3 && w.endsWith('e')) w = w.slice(0, -1);
  return w;
}

/** The meaningful word stems of a text, in order (repeats kept). */
export function meaningfulStems(text: string): string[] {
  const words = text.toLowerCase().match(/[\p{L}\p{N}]+(?:['’][\p{L}]+)?/gu) ?? [];
  return words
    .map((word) => word.replace(/['’](s|t|re|ve|ll|d|m)$/, ''))
    .filter((word) => (word.length > 1 || /\d/.test(word)) && !STOP_WORDS.has(word))
    .map(stem);
}

const spansText = (spans: Span[]) =>
  spans
    .map((span) => span.text)
    .join('')
    .replace(/\s+/g, ' ')
    .trim();

/** Splits a long paragraph into groups of whole sentences of about `LONG_PASSAGE` characters. */
function sentenceGroups(text: string): string[] {
  if (text.length <= LONG_PASSAGE) return [text];
  const sentences = text.match(/[^.!?]+(?:[.!?]+["'”’)]*|$)/g)?.map((s) => s.trim()) ?? [text];
  const groups: string[] = [];
  let current = '';
  for (const sentence of sentences.filter(Boolean)) {
    if (current && current.length + sentence.length + 1 > LONG_PASSAGE) {
      groups.push(current);
      current = sentence;
    } else {
      current = current ? `${current} ${sentence}` : sentence;
    }
  }
  if (current) groups.push(current);
  return groups;
}

/** The reading as passages: paragraphs and list items under their headings. */
export function readingPassages(context: string): Passage[] {
  const passages: Passage[] = [];
  let section: string | null = null;
  const add = (text: string) => {
    for (const part of sentenceGroups(text)) {
      if (part) passages.push({ text: part, section, index: passages.length });
    }
  };
  let heading: string | null = null;
  for (const block of parseMarkup(context)) {
    const title = 'text' in block ? block.text.replace(/\*\*/g, '').trim() : '';
    if (block.kind === 'heading') {
      section = title;
      heading = block.depth >= 2 ? title : null;
    } else if (block.kind === 'subheading') {
      // A bold line right under a section heading names what the section is about
      // ('## The Past' then '**The Hermit (upright)**'): the section keeps both.
      section = heading ? `${heading}: ${title}` : title;
      heading = null;
    } else if (block.kind === 'paragraph') {
      add(spansText(block.spans));
      heading = null;
    } else {
      for (const item of block.items) add(spansText(item));
      heading = null;
    }
  }
  return passages;
}

interface Scored {
  passage: Passage;
  score: number;
}

/** Ranks passages by the question's stems they hold; a stem found in fewer passages weighs more. */
function score(passages: Passage[], question: string[]): Scored[] {
  const wanted = [...new Set(question)];
  const stemsOf = passages.map((p) => ({
    body: new Set(meaningfulStems(p.text)),
    heading: new Set(p.section ? meaningfulStems(p.section) : []),
  }));
  const count = passages.length;
  const weight = new Map(
    wanted.map((term) => {
      const df = stemsOf.filter((s) => s.body.has(term) || s.heading.has(term)).length;
      return [term, Math.log((count + 1) / (df + 0.5))];
    }),
  );
  return passages.map((passage, i) => {
    const { body, heading } = stemsOf[i]!;
    let total = 0;
    for (const term of wanted) {
      const w = weight.get(term) ?? 0;
      if (body.has(term)) total += w;
      // A question naming a section ('my future card') leans to that section's passages.
      if (heading.has(term)) total += w * 1.25;
    }
    return { passage, score: total };
  });
}

/** The best one or two passages of the reading for the question, or a kind fallback. */
export function answerFromReading(context: string, question: string): ReadingAnswer {
  const stems = meaningfulStems(question);
  if (!question.trim()) return { passages: [], text: EMPTY_QUESTION_ANSWER, matched: false };
  const passages = readingPassages(context);
  if (stems.length === 0 || passages.length === 0) {
    return { passages: [], text: NO_MATCH_ANSWER, matched: false };
  }
  const ranked = score(passages, stems)
    .filter((s) => s.score > 0)
    .sort((a, b) => b.score - a.score || a.passage.text.length - b.passage.text.length);
  const best = ranked[0];
  if (!best) return { passages: [], text: NO_MATCH_ANSWER, matched: false };
  // A second passage only when it fits nearly as well as the first.
  const chosen = ranked
    .slice(0, MAX_PASSAGES)
    .filter((s) => s === best || s.score >= best.score * 0.6)
    .map((s) => s.passage)
    .sort((a, b) => a.index - b.index);
  return { passages: chosen, text: chosen.map((p) => p.text).join('\n\n'), matched: true };
}
