/** Small text helpers shared by the writer and the prompts. */

export { formatLongDate, plural } from '@astra/contracts';

export function listJoin(items: readonly string[]): string {
  if (items.length <= 1) return items.join('');
  if (items.length === 2) return `${items[0]} and ${items[1]}`;
  return `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`;
}

export function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

export function numberWord(n: number): string {
  return (
    ['no', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten'][n] ??
    String(n)
  );
}

/** Paragraphs joined by blank lines, empty ones dropped. */
export function paragraphs(...blocks: ReadonlyArray<string | false | null | undefined>): string {
  return blocks.filter((b): b is string => typeof b === 'string' && b.length > 0).join('\n\n');
}

export function orbText(orb: number): string {
  return `${orb.toFixed(1)}°`;
}

/** 'an Aries', 'a Leo' (by first letter; good enough for sign and card names). */
export function withArticle(word: string): string {
  return `${/^[aeiou]/i.test(word) ? 'an' : 'a'} ${word}`;
}

/** The user's words in quotes, followed by a full stop unless they end in punctuation. */
export function quoted(text: string): string {
  const t = text.trim();
  return /[.!?…]$/.test(t) ? `“${t}”` : `“${t}”.`;
}
