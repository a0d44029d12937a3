/**
 * The words a text search matches (docs/customers.md, "Text search"), folded
 * once here, in JavaScript, so that both backends index and match the very same words: the store
 * keeps each row's folded words and matches query words as prefixes of them (SQLite FTS5,
 * PostgreSQL full text search), and needs no extension such as `unaccent`.
 *
 * Folding: compatibility decomposition (NFKD) with its combining marks dropped (ü → u, é → e,
 * ﬁ → fi), lower case, and the few Latin letters that do not decompose spelled as their base
 * letters (ß → ss, æ → ae, ø → o, …). A word is a run of letters and digits; everything else
 * (spaces, hyphens, dots, @) separates words, so `anna.mueller@example.com` holds the words
 * anna, mueller, example and com.
 */

const SPELLED: Readonly<Record<string, string>> = {
  ß: 'ss',
  æ: 'ae',
  œ: 'oe',
  ø: 'o',
  ł: 'l',
  đ: 'd',
  ð: 'd',
  þ: 'th',
  ı: 'i',
  ħ: 'h',
  ŧ: 't',
  ŀ: 'l',
  ĸ: 'k',
};
const SPELLED_LETTERS = new RegExp(`[${Object.keys(SPELLED).join('')}]`, 'gu');
const MARKS = /\p{M}+/gu;
const SEPARATORS = /[^\p{L}\p{N}]+/u;

/** Most words one search may hold: a 100-character query has at most 50. */
export const MAX_QUERY_WORDS = 50;

/** A text folded: accents and case gone, the letters that do not decompose spelled out. */
export function foldText(text: string): string {
  return text
    .normalize('NFKD')
    .replace(MARKS, '')
    .toLowerCase()
    .replace(SPELLED_LETTERS, (c) => SPELLED[c]!);
}

/** The distinct folded words of some values (absent values hold none), in order of first appearance. */
export function foldedWords(values: Iterable<string | null | undefined>): string[] {
  const words = new Set<string>();
  for (const v of values) {
    if (!v) continue;
    for (const w of foldText(v).split(SEPARATORS)) if (w !== '') words.add(w);
  }
  return [...words];
}

/** What a row's index entry holds: its folded words, separated by single spaces. */
export const indexedWords = (values: Iterable<string | null | undefined>): string => foldedWords(values).join(' ');

/**
 * A query's words, each to be matched as the start of some word of a row: folded as the rows' are,
 * a word that starts another one of the query dropped (it adds no condition).
 */
export function queryWords(query: string): string[] {
  const words = foldedWords([query]);
  return words.filter((w) => !words.some((o) => o !== w && o.startsWith(w)));
}
