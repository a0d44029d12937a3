import { setImmediate } from 'node:timers/promises';
import { pageWatermark, type Position } from '../wire/sync-cursor.js';
import type { HeldWords, Store } from '../store/store.js';
import { queryWords } from '../store/text-words.js';
import { committedWatermark } from '../store/sync-clock.js';
import { decodeOrderCursor, encodeOrderCursor } from './order.cursor.js';
import { orderRepository, type OrderFilter, type OrderPosition, type OrderRead, type ShownOrder } from './order.repository.js';
import type { SearchOrdersRequest } from './order.schemas.js';
import { fulfillmentWord, ORDER_TEXT, paymentWord, statusWord } from './order.words.js';

/**
 * Orders per keyset query while streaming: big enough to amortise a query, small enough to yield
 * often — and small enough to die young. A chunk and the text made of it live while it is written;
 * orders with five lines carry about 3 KB of kept text each, and chunks of 1,000 of them outlived
 * two scavenges and were promoted: the feed's RSS grew by up to 57 MB over 200,000 such orders, and
 * by 0–4 MB with chunks of 250 (docs/performance.md).
 */
export const CHUNK = 250;

export interface OrderFeed {
  /** X-Sync-Watermark: pass it as the next LastModifiedAfter; no change after it can be missed. */
  readonly watermark: number;
  /** X-Sync-Cursor: set when orders remain after this page (Take); pass it as the next Cursor. */
  readonly cursor?: string;
  /**
   * The matching orders in sync order, read in keyset chunks of CHUNK as they are sent; with
   * `'shown'`, the stored confirmation only of orders whose shown text was not kept (the text is
   * all that the default form of the feed sends: order.shown-form.ts).
   */
  orders(read?: OrderRead): AsyncIterable<ShownOrder[]>;
}

/**
 * Rows in the filter's window, CHUNK at a time with a keyset: constant memory. Where the store reads
 * ahead (PostgreSQL), the next chunk is already being read while the current one is sent, which
 * hides the round trip. Chunks are yielded whole, so that a caller can record each chunk it reveals
 * (the audit log) at once.
 *
 * A page's window holds at most `most` rows (Take), and its reads ask for no more: a read that finds
 * fewer rows than its limit goes on through the window's whole index range, and SQLite bounds that
 * range by the stamp only (the order id is the rowid, which a row-value bound does not reach), so
 * the read of a page whose rows share one stamp would otherwise look at every later row.
 */
async function* keysetChunks(
  store: Store,
  filter: OrderFilter,
  skip: number,
  form: OrderRead = 'stored',
  most = Number.POSITIVE_INFINITY,
): AsyncGenerator<ShownOrder[]> {
  let left = most;
  const read = (after: OrderPosition | undefined, offset: number): Promise<ShownOrder[]> => {
    const limit = Math.min(CHUNK, left);
    left -= limit;
    const rows = orderRepository.search(store.reader, { ...filter, after }, limit, offset, form);
    rows.catch(() => undefined); // a client that goes away leaves the read ahead unawaited
    return rows;
  };
  let pending = read(filter.after, skip);
  for (;;) {
    const rows = await pending;
    const more = rows.length === CHUNK && left > 0;
    const next = (): Promise<ShownOrder[]> => read(positionOf(rows[rows.length - 1]!), 0);
    if (more && store.readAhead) pending = next();
    if (rows.length > 0) yield rows;
    if (!more) return;
    if (!store.readAhead) pending = next();
    // SQLite answers synchronously: give other requests a turn between chunks, however fast the consumer.
    await setImmediate();
  }
}

const positionOf = (o: ShownOrder): OrderPosition => ({ modifiedAt: o.modified_at, orderId: o.order_id });
/** pageWatermark reads only the stamps of positions; the id part is the order's, as text. */
const asSyncPosition = (p: OrderPosition): Position => ({ modifiedAt: p.modifiedAt, customerId: String(p.orderId) });

async function* nothing(): AsyncGenerator<ShownOrder[]> {}

/**
 * Rows of a text search's filter read in sync order, each checked for the words, before its page
 * is given up on in that order: about 5 ms of SQLite's time and 25 ms of PostgreSQL's. That many
 * for each PAGED_PER_BUDGET rows the page needs (Skip + Take + 1): a deep page of a word held by one
 * row in 50 is still read in order (reading past the skipped matches costs O(Skip) either way).
 */
export const ROWS_CHECKED_IN_ORDER = 10_000;
const PAGED_PER_BUDGET = 200;

/** The filter's statuses as the words the orders' index keeps them as (order.words.ts): one of each list. */
function heldWords(f: OrderFilter): HeldWords {
  const held: string[][] = [];
  if (f.statuses?.length) held.push(f.statuses.map(statusWord));
  if (f.paymentStatuses?.length) held.push(f.paymentStatuses.map(paymentWord));
  if (f.fulfillmentStatuses?.length) held.push(f.fulfillmentStatuses.map(fulfillmentWord));
  return held;
}

/**
 * The positions at `offset` and after it (`count`), and the filter that found them. A text match
 * checked on each row in order (TextMatch.byKeys false) is chosen for a word matching many rows, on
 * the guess that the matches are spread over the range; where the other filters exclude most of
 * them (a common name and a status none of its orders has), the range would be read to its end. So
 * the range is read in order only up to `checkedInOrder` rows (ROWS_CHECKED_IN_ORDER); beyond that
 * the index is asked for the orders that hold the words and one of each status filter's statuses
 * (kept as words beside them): few, and the rows are read by those keys, sorted into sync order;
 * many, and the range is read again in order, each row looked up among every match's keys. All
 * these conditions hold for the same rows, so the page, its cursor and the pages after it are the same.
 */
async function delimit(
  store: Store,
  filter: OrderFilter,
  words: readonly string[] | undefined,
  offset: number,
  count: number,
  checkedInOrder: number,
): Promise<[OrderPosition[], OrderFilter]> {
  if (filter.match?.none) return [[], filter];
  if (words && filter.match && !filter.match.byKeys) {
    const budget = checkedInOrder * Math.max(1, Math.ceil((offset + count) / PAGED_PER_BUDGET));
    const found = await orderRepository.positionsWithin(store.reader, filter, offset, count, budget);
    if (found !== 'over budget') return [found, filter];
    filter = { ...filter, match: await store.reader.textMatch(ORDER_TEXT, words, 'all', heldWords(filter)) };
    if (filter.match?.none) return [[], filter];
  }
  return [await orderRepository.positionsAt(store.reader, filter, offset, count), filter];
}

/**
 * SearchOrders, with the customer feed's promise (customers/customer.search.ts): the committed
 * watermark is read first and only orders stamped at or below it are returned, so no later commit
 * can land below it (store/sync-clock.ts). A page (Take) is delimited before it is streamed, so
 * that its header can name its watermark.
 */
export async function searchOrders(store: Store, req: SearchOrdersRequest, checkedInOrder = ROWS_CHECKED_IN_ORDER): Promise<OrderFeed> {
  const committed = await committedWatermark(store.reader);
  const after = req.Cursor ? decodeOrderCursor(req.Cursor) : undefined;
  const filter: OrderFilter = {
    orderIds: req.OrderIds,
    orderNumbers: req.OrderNumbers,
    customerIds: req.CustomerIds,
    statuses: req.Statuses,
    skus: req.Skus,
    currencies: req.Currencies,
    paymentStatuses: req.PaymentStatuses,
    fulfillmentStatuses: req.FulfillmentStatuses,
    modifiedAfter: req.LastModifiedAfter,
    modifiedAtMost: committed,
    after,
  };
  const words = req.Query === undefined ? undefined : queryWords(req.Query);
  const skip = req.Skip ?? 0;
  const wanted = req.Take === undefined ? undefined : skip + req.Take + 1;
  const matched: OrderFilter = words ? { ...filter, match: await store.reader.textMatch(ORDER_TEXT, words, wanted) } : filter;
  const base = { committed, modifiedAfter: req.LastModifiedAfter, skipped: skip > 0, ...(after ? { after: asSyncPosition(after) } : {}) };
  if (req.Take === undefined) return { watermark: pageWatermark(base), orders: (form) => keysetChunks(store, matched, skip, form) };

  if (req.Take === 0) {
    const [[next]] = await delimit(store, matched, words, skip, 1, checkedInOrder);
    return { watermark: pageWatermark({ ...base, cut: next && { next: asSyncPosition(next) } }), orders: nothing };
  }
  // Delimit the page first: the positions of its orders and of the one after it (index reads).
  const [positions, paged] = await delimit(store, matched, words, skip, req.Take + 1, checkedInOrder);
  const [last, next] = [positions[req.Take - 1], positions[req.Take]];
  const cut = last && next ? { last: asSyncPosition(last), next: asSyncPosition(next) } : undefined;
  // A short page ends at its last order found (an empty one reads nothing): the read after it would
  // find no more, and where the rows are checked for the words it would check the rest of the range.
  const end = positions[Math.min(positions.length, req.Take) - 1];
  if (!end) return { watermark: pageWatermark({ ...base, cut }), orders: nothing };
  return {
    watermark: pageWatermark({ ...base, cut }),
    ...(last && next ? { cursor: encodeOrderCursor(last) } : {}),
    orders: (form) => keysetChunks(store, { ...paged, through: end }, skip, form, req.Take),
  };
}

/** The whole feed for an export, with what the export needs to know before the first order leaves. */
export interface OrderExportFeed extends OrderFeed {
  /** Orders in the window when the export began (an order changed meanwhile leaves it: never more). */
  readonly total: number;
  /** Ids of the confirmed orders in the window: whose bank data the export can reveal. */
  confirmedIds(): Promise<number[]>;
}

/**
 * The feed of `orders export`: searchOrders' window and promise, fixed once, so that the count for
 * the progress bar and the ids for the audit log describe the same window the rows are read from.
 */
export async function exportOrderFeed(
  store: Store,
  req: Pick<SearchOrdersRequest, 'Statuses' | 'LastModifiedAfter'>,
): Promise<OrderExportFeed> {
  const committed = await committedWatermark(store.reader);
  const filter: OrderFilter = { statuses: req.Statuses, modifiedAfter: req.LastModifiedAfter, modifiedAtMost: committed };
  return {
    watermark: pageWatermark({ committed, modifiedAfter: req.LastModifiedAfter, skipped: false }),
    orders: (form) => keysetChunks(store, filter, 0, form),
    total: await orderRepository.count(store.reader, filter),
    confirmedIds: () => orderRepository.confirmedIds(store.reader, filter),
  };
}

/** Every order of a customer, in sync order (a customer's data export). */
export async function ordersOfCustomer(store: Store, customerId: string): Promise<ShownOrder[]> {
  const orders: ShownOrder[] = [];
  for await (const chunk of (await searchOrders(store, { CustomerIds: [customerId] })).orders()) orders.push(...chunk);
  return orders;
}
