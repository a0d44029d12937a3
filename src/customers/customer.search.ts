import { setImmediate } from 'node:timers/promises';
import type { Store } from '../store/store.js';
import { committedWatermark } from '../store/sync-clock.js';
import { queryWords } from '../store/text-words.js';
import { LIST_LENGTH } from '../wire/request-schema.js';
import { customerRepository, type CustomerFilter, type SyncRow } from './customer.repository.js';
import { toCustomer } from './customer.mapping.js';
import type { Customer, SearchCustomersRequest } from './customer.schemas.js';
import { decodeCursor, encodeCursor, pageWatermark, type Position } from '../wire/sync-cursor.js';
import { CUSTOMER_TEXT, customerWords } from './customer.words.js';

/** Most identifiers of one search (the request schema's maxItems). */
export const MAX_IDENTIFIERS = LIST_LENGTH;
/** Rows per keyset query while streaming: big enough to amortise a query, small enough to yield often. */
export const CHUNK = 1000;

export interface SearchResult {
  /** X-Sync-Watermark: pass it as the next LastModifiedAfter; no change after it can be missed. */
  readonly watermark: number;
  /** X-Sync-Cursor: set when rows remain after this page; pass it as the next Cursor. */
  readonly cursor?: string;
  /**
   * The matching customers in sync order. Big results are read in keyset chunks of rows as they
   * are sent; each row becomes its Customer (toCustomer) just before it is written, so that only a
   * few of them are alive at a time.
   */
  readonly customers: AsyncIterable<SyncRow[]> | Customer[];
}

/** The position a request's cursor continues after (the request schema checked it is ours). */
const cursorPosition = (req: SearchCustomersRequest): Position | undefined => (req.Cursor ? decodeCursor(req.Cursor) : undefined);

/**
 * Rows in (filter.after, filter.through], read CHUNK at a time with a keyset: constant memory. The
 * next chunk is already being read while the current one is sent, which hides PostgreSQL's round trip.
 *
 * A page's window holds at most `most` rows (Take), and its reads ask for no more: a read that finds
 * fewer rows than its limit goes on to the end of its index range, and PostgreSQL ends a range at
 * the row-value bound `through` only by its stamp, so the read of a page whose rows share one stamp
 * would otherwise look at every later row of that stamp.
 */
async function* keysetChunks(
  store: Store,
  filter: CustomerFilter,
  skip: number,
  most = Number.POSITIVE_INFINITY,
): AsyncGenerator<SyncRow[]> {
  let left = most;
  const read = (after: Position | undefined, offset: number): Promise<SyncRow[]> => {
    const limit = Math.min(CHUNK, left);
    left -= limit;
    const rows = customerRepository.search(store.reader, { ...filter, after }, limit, offset);
    rows.catch(() => undefined); // a client that goes away leaves the read ahead unawaited
    return rows;
  };
  let pending = read(filter.after, skip);
  for (;;) {
    const rows = await pending;
    const more = rows.length === CHUNK && left > 0;
    if (more) pending = read(positionOf(rows[rows.length - 1]!), 0);
    if (rows.length > 0) yield rows;
    if (!more) return;
    // SQLite answers synchronously: give other requests a turn between chunks, however fast the consumer.
    await setImmediate();
  }
}

const positionOf = (row: { modified_at: number; customer_id: string }): Position => ({
  modifiedAt: Number(row.modified_at),
  customerId: row.customer_id,
});

/**
 * The search by identifiers: one statement reads the watermark and the matching rows (at most 2 ×
 * MAX_IDENTIFIERS: each identifier matches one id and one external id); a cursor and a page are
 * applied to them in memory.
 */
async function byIdentifiers(
  store: Store,
  req: SearchCustomersRequest,
  identifiers: string[],
  after: Position | undefined,
  skip: number,
): Promise<SearchResult> {
  const found = await customerRepository.findByIdentifiers(store.reader, identifiers, req.LastModifiedAfter);
  const words = req.Query === undefined ? undefined : queryWords(req.Query);
  const matching = words ? found.rows.filter((r) => hasWords(r, words)) : found.rows;
  const rows = after ? rowsAfter(matching, after) : matching;
  const base = { committed: found.committed, modifiedAfter: req.LastModifiedAfter, after, skipped: skip > 0 };
  if (req.Take === undefined) return { watermark: pageWatermark(base), customers: rows.slice(skip).map(toCustomer) };
  const end = skip + req.Take;
  const last = req.Take > 0 ? rows[end - 1] : undefined;
  const cut = rows.length > end ? { last: last && positionOf(last), next: positionOf(rows[end]!) } : undefined;
  return {
    watermark: pageWatermark({ ...base, cut }),
    cursor: cut?.last && encodeCursor(cut.last),
    customers: rows.slice(skip, end).map(toCustomer),
  };
}

/**
 * Whether a customer holds a word starting with each query word: the text index's match, on the
 * few rows an identifier search found (their words are those the index holds for them).
 */
function hasWords(row: SyncRow, words: readonly string[]): boolean {
  const own = customerWords(row).split(' ');
  return words.every((w) => own.some((o) => o.startsWith(w)));
}

/**
 * The rows (in the store's sync order) after a cursor position: after the cursor's own row when it
 * is among them, so that ids compare in the store's collation; else by stamp, then id.
 */
function rowsAfter(rows: SyncRow[], after: Position): SyncRow[] {
  const at = rows.findIndex((r) => Number(r.modified_at) === after.modifiedAt && r.customer_id === after.customerId);
  if (at >= 0) return rows.slice(at + 1);
  return rows.filter(
    (r) => Number(r.modified_at) > after.modifiedAt || (Number(r.modified_at) === after.modifiedAt && r.customer_id > after.customerId),
  );
}

/**
 * SearchCustomers. The committed watermark is read first and only rows stamped at or below it are
 * returned (store/sync-clock.ts explains why no later commit can land below it). A page (Take) is
 * delimited before it is streamed, so that its headers can name its watermark and cursor.
 */
export async function searchCustomers(store: Store, req: SearchCustomersRequest): Promise<SearchResult> {
  const after = cursorPosition(req);
  const identifiers = req.Identifiers?.filter((s) => s !== '');
  const skip = req.Skip ?? 0;
  if (identifiers !== undefined && identifiers.length > 0) return byIdentifiers(store, req, identifiers, after, skip);

  const committed = await committedWatermark(store.reader);
  const words = req.Query === undefined ? undefined : queryWords(req.Query);
  const wanted = req.Take === undefined ? undefined : skip + req.Take + 1;
  const match = words && (await store.reader.textMatch(CUSTOMER_TEXT, words, wanted));
  const filter: CustomerFilter = { modifiedAfter: req.LastModifiedAfter, modifiedAtMost: committed, after, match };
  const base = { committed, modifiedAfter: req.LastModifiedAfter, after, skipped: skip > 0 };
  if (req.Take === undefined) return { watermark: pageWatermark(base), customers: keysetChunks(store, filter, skip) };

  // Delimit the page first: its last row and the row after it (index-only reads).
  if (req.Take === 0) {
    const [next] = await customerRepository.positionsAt(store.reader, filter, skip, 1);
    return { watermark: pageWatermark({ ...base, cut: next && { next } }), customers: [] };
  }
  const [last, next] = await customerRepository.positionsAt(store.reader, filter, skip + req.Take - 1, 2);
  const cut = last && next ? { last, next } : undefined;
  return {
    watermark: pageWatermark({ ...base, cut }),
    cursor: cut && encodeCursor(cut.last),
    // A short page has no last row: it runs to the end of the result.
    customers: keysetChunks(store, last ? { ...filter, through: last } : filter, skip, req.Take),
  };
}
