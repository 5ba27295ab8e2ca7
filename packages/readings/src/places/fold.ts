/**
 * Folding for name matching: compatibility decomposition, accents dropped, lower case, a few
 * letters that do not decompose spelled out (ß → ss, æ → ae, ø → o, ł → l ...), '&' read as
 * 'and', apostrophes dropped, every other run of non-letters/digits made one space.
 * 'Zürich' → 'zurich', 'São Paulo' → 'sao paulo', "Xi'an" → 'xian', 'Aix-en-Provence' →
 * 'aix en provence'.
 */
const SPECIAL: Readonly<Record<string, string>> = {
  ß: 'ss',
  ẞ: 'ss',
  æ: 'ae',
  Æ: 'ae',
  œ: 'oe',
  Œ: 'oe',
  ø: 'o',
  Ø: 'o',
  đ: 'd',
  Đ: 'd',
  ð: 'd',
  Ð: 'd',
  ł: 'l',
  Ł: 'l',
  ı: 'i',
  þ: 'th',
  Þ: 'th',
  ħ: 'h',
  Ħ: 'h',
};

const SPECIAL_PATTERN = /[ßẞæÆœŒøØđĐðÐłŁıþÞħĦ]/g;
const MARKS = /\p{M}+/gu;
const APOSTROPHES = /['’‘`ʻʼ]/g;
const SEPARATORS = /[^\p{L}\p{N}]+/gu;

const PLAIN = /^[a-z0-9]+(?: [a-z0-9]+)*$/;
const PLAIN_ANY_CASE = /^[A-Za-z0-9 ]*$/;

export function fold(text: string): string {
  // Fast path for plain ASCII names (most of the GeoNames list).
  if (PLAIN_ANY_CASE.test(text)) {
    const lower = text.toLowerCase();
    if (PLAIN.test(lower)) return lower;
  }
  return text
    .normalize('NFKD')
    .replace(MARKS, '')
    .replace(SPECIAL_PATTERN, (c) => SPECIAL[c] ?? c)
    .toLowerCase()
    .replace(/&/g, ' and ')
    .replace(APOSTROPHES, '')
    .replace(SEPARATORS, ' ')
    .trim();
}

/** Extra spellings of a folded name: 'st x' ↔ 'saint x', 'x city' → 'x'. */
export function variants(folded: string): string[] {
  const out: string[] = [];
  if (folded.startsWith('st ')) out.push(`saint ${folded.slice(3)}`);
  else if (folded.startsWith('saint ')) out.push(`st ${folded.slice(6)}`);
  else if (folded.startsWith('ste ')) out.push(`sainte ${folded.slice(4)}`);
  else if (folded.startsWith('sainte ')) out.push(`ste ${folded.slice(7)}`);
  if (folded.endsWith(' city') && folded.length > 5) out.push(folded.slice(0, -5));
  return out;
}
