/**
 * The readings' simple markup (docs/readings.md): '#', '##' or '###' lines are headings, a line
 * wrapped in ** is a bold sub-heading, '- ' lines are list items, blank lines end paragraphs,
 * and **…** inside a line is bold. Parsed to plain data, so rendering never injects HTML.
 */
export interface Span {
  text: string;
  bold: boolean;
}

export type MarkupBlock =
  | { kind: 'heading'; depth: number; text: string }
  | { kind: 'subheading'; text: string }
  | { kind: 'paragraph'; spans: Span[] }
  | { kind: 'list'; items: Span[][] };

export function parseSpans(line: string): Span[] {
  const spans: Span[] = [];
  const pattern = /\*\*(.+?)\*\*/g;
  let last = 0;
  for (const match of line.matchAll(pattern)) {
    if (match.index > last) spans.push({ text: line.slice(last, match.index), bold: false });
    spans.push({ text: match[1]!, bold: true });
    last = match.index + match[0].length;
  }
  if (last < line.length) spans.push({ text: line.slice(last), bold: false });
  return spans;
}

const ENTITIES: Record<string, string> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: ' ',
  '#39': "'",
};

/** Older natal reports were HTML: keep their headings, bold and paragraphs as markup text. */
export function htmlToMarkup(html: string): string {
  return html
    .replace(/<h([1-6])[^>]*>([\s\S]*?)<\/h\1>/gi, (_m, level: string, inner: string) => {
      return `\n\n${'#'.repeat(Math.min(3, Number(level)))} ${inner.trim()}\n\n`;
    })
    .replace(/<\/?(strong|b)\b[^>]*>/gi, '**')
    .replace(/<li\b[^>]*>/gi, '\n- ')
    .replace(/<br\s*\/?>/gi, '\n')
    .replace(/<\/(p|div|li|ul|ol)>/gi, '\n\n')
    .replace(/<[^>]*>/g, '')
    .replace(/&(#39|[a-z]+);/gi, (entity, name: string) => ENTITIES[name.toLowerCase()] ?? entity);
}

const looksLikeHtml = (text: string) => /<\/?(p|h[1-6]|br|strong|b|ul|ol|li|div)\b/i.test(text);

export function parseMarkup(source: string): MarkupBlock[] {
  const text = looksLikeHtml(source) ? htmlToMarkup(source) : source;
  const blocks: MarkupBlock[] = [];
  let paragraph: string[] = [];
  let list: Span[][] = [];

  const flush = () => {
    if (paragraph.length)
      blocks.push({ kind: 'paragraph', spans: parseSpans(paragraph.join(' ')) });
    if (list.length) blocks.push({ kind: 'list', items: list });
    paragraph = [];
    list = [];
  };

  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    const heading = /^(#{1,6})\s+(.+?)\s*#*$/.exec(line);
    const bold = /^\*\*([^*]+)\*\*:?$/.exec(line);
    const item = /^[-*•]\s+(.+)$/.exec(line);
    if (!line) {
      flush();
    } else if (heading) {
      flush();
      blocks.push({ kind: 'heading', depth: heading[1]!.length, text: heading[2]! });
    } else if (bold) {
      flush();
      blocks.push({ kind: 'subheading', text: bold[1]!.trim() });
    } else if (item) {
      if (paragraph.length) flush();
      list.push(parseSpans(item[1]!));
    } else {
      if (list.length) flush();
      paragraph.push(line);
    }
  }
  flush();
  return blocks;
}

/**
 * Heading levels for a report under an h2: the shallowest '#' depth used becomes `base`, the next
 * one base + 1, and bold sub-headings sit one level below the deepest; never past h6.
 */
export function headingLevels(blocks: MarkupBlock[], base = 3) {
  const depths = [
    ...new Set(blocks.flatMap((b) => (b.kind === 'heading' ? [b.depth] : []))),
  ].sort();
  const level = (block: MarkupBlock): number =>
    Math.min(
      6,
      base +
        (block.kind === 'heading'
          ? depths.indexOf(block.depth)
          : block.kind === 'subheading'
            ? depths.length
            : 0),
    );
  return level;
}
