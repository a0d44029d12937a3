import { sql, type RawBuilder } from 'kysely';
import type { TextMatch, TextWanted } from './store.js';

/**
 * What both backends' text search (StoreSql.textMatch) decides alike: whether the rows a read needs
 * are found faster from the matches, read by the index, or from the rows in the search's order,
 * each checked for the words.
 *
 * By the index, each match costs a lookup of its row and a place in a sort, and all of them come
 * before the first row of the page. In order, a read of `wanted` rows looks at about
 * `wanted × rows / matches` of them, a check each. The two cost alike at about
 * `matches² = rows × wanted`, so the index is asked for up to that many matches: fewer, and
 * those matches' keys are the condition; as many, and the rows are read in order.
 */

/** Fewest matches worth reading in order (a small table reads its matches whole). */
const MIN_KEYS = 500;
/** Most keys a condition lists: a read of everything, or of a deep page, takes no more from the index. */
export const MAX_KEYS = 5000;
/**
 * Most keys a condition lists when every match is asked for (`wanted` 'all'): a page whose rows,
 * read in order, ran past their budget without filling it (orders/order.search.ts). Reading these
 * keys' rows and sorting them costs far less than reading the rest of a range of 10^6 rows in order.
 */
export const ALL_KEYS = 100_000;

/**
 * Matches at which reading in order is cheaper: `rows` in the table, `wanted` rows the read needs
 * (Skip + Take + 1 for a page; undefined for every match; 'all' where reading in order was found
 * dear already, so the keys are wanted up to ALL_KEYS).
 */
export function keysLimit(rows: number, wanted: TextWanted): number {
  if (wanted === 'all') return ALL_KEYS;
  if (wanted === undefined) return MAX_KEYS;
  return Math.min(MAX_KEYS, Math.max(MIN_KEYS, Math.ceil(Math.sqrt(rows * wanted))));
}

/** A condition no row meets: the index found no match. */
export const NO_ROW: TextMatch = { where: sql<boolean>`1 = 0`, byKeys: true, none: true };

/** The condition of the few matches found by the index: their keys. */
export const byKeys = (where: RawBuilder<boolean>): TextMatch => ({ where, byKeys: true });

/** The condition checked on each row read in the search's order: the many matches. */
export const byCheck = (where: RawBuilder<boolean>): TextMatch => ({ where, byKeys: false });

/**
 * The check of one words row for the words (the column `w.words`): a word starting with each, being
 * ` w` in ` ` + the words (`like`: a word holds no `%` or `_`; the words are lower case already).
 */
export const startsWithEach = (words: readonly string[]): RawBuilder<boolean> =>
  sql<boolean>`${sql.join(
    words.map((w) => sql`(' ' || w.words) like ${`% ${w}%`}`),
    sql` and `,
  )}`;
