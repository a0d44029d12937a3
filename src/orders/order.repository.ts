import { sql, type SelectExpression } from 'kysely';
import type { Database, FulfillmentStatus, OrderLineRow, OrderRow, PaymentStatus } from '../store/database.js';
import { chunks } from '../store/statement-texts.js';
import type { DbHandle, TextMatch } from '../store/store.js';
import type { Stamper } from '../writes/unit.js';
import { NO_CONTENT, type ContentRecord } from './order.content.js';
import { recordsOfAggregate, withRecords, type OrderRecords } from './order-life.records.js';
import { shownConfirmation } from './order.shown-form.js';
import { orderLifeRepository, type PaymentState } from './order-life.repository.js';
import { orderWordsRepository } from './order.words.js';
import {
  FIND_ORDER,
  IDS_PER_TOUCH,
  MARK_CONFIRMED,
  SHOWN_COLUMNS,
  findManySql,
  showOrderSql,
  SHOWN_WITH_RECORDS,
  touchSql,
  type ShownOrder,
  type ShownRow,
  type ShownRowWithAggregate,
  type StoredOrder,
} from './order.statements.js';

export type { CustomerAddress } from '../customers/index.js';

export type { ShownOrder, StoredOrder } from './order.statements.js';

export interface ConfirmedState {
  readonly customer_id: string;
  readonly confirmed_at: number;
  readonly confirmation: string;
  readonly confirmation_hash: string;
}

/**
 * How the feed reads an order's confirmation: `stored`, the stored form (not the shown text);
 * `shown`, the shown text, and the stored form only where no text was kept.
 */
export type OrderRead = 'stored' | 'shown';

// SHOWN_COLUMNS, with the stored confirmation read only where no shown text was kept: one long
// value fewer per confirmed order (and its bytes allocated) for the default form of the feed.
const SHOWN_TEXT_COLUMNS: ReadonlyArray<SelectExpression<Database, 'orders'>> = SHOWN_COLUMNS.map((c) =>
  c === 'confirmation' ? sql<string | null>`case when confirmation_shown is null then confirmation end`.as('confirmation') : c,
);
// SHOWN_COLUMNS without the shown text, for the reads that make each view afresh (keys with `bank`,
// camelCase, ISO dates): the same long value, never used there.
const STORED_COLUMNS: ReadonlyArray<SelectExpression<Database, 'orders'>> = SHOWN_COLUMNS.map((c) =>
  c === 'confirmation_shown' ? sql<null>`null`.as('confirmation_shown') : c,
);

/** A place in the feed's order: (modification stamp, OrderId). */
export interface OrderPosition {
  readonly modifiedAt: number;
  readonly orderId: number;
}

/** What the order feed reads: its filters (AND; an absent or empty list filters nothing) and the sync window. */
export interface OrderFilter {
  readonly orderIds?: readonly number[];
  readonly orderNumbers?: readonly string[];
  readonly customerIds?: readonly string[];
  readonly statuses?: ReadonlyArray<OrderRow['status']>;
  /** Orders holding a line of any of these SKUs. */
  readonly skus?: readonly string[];
  readonly currencies?: readonly string[];
  readonly paymentStatuses?: readonly PaymentStatus[];
  readonly fulfillmentStatuses?: readonly FulfillmentStatus[];
  /** Strict lower bound of the stamp (LastModifiedAfter). */
  readonly modifiedAfter?: number;
  /** Upper bound of the stamp: the watermark read before the rows. */
  readonly modifiedAtMost: number;
  /** Only orders strictly after this position (the keyset of the next chunk). */
  readonly after?: OrderPosition;
  /** Only orders at or before this position (the end of a page). */
  readonly through?: OrderPosition;
  /** Only orders this text-index condition holds for (db.textMatch). */
  readonly match?: TextMatch;
}

const some = <T>(list: readonly T[] | undefined): list is readonly T[] => list !== undefined && list.length > 0;

/**
 * A status column as the filter compares it: the column itself, whose index (status, stamp, id)
 * reads one status in sync order; or, where the text match lists the few matching keys, an
 * expression no index holds, so that the rows are read by those keys (TextMatch.byKeys).
 */
const statusOf = (column: 'status' | 'payment_status' | 'fulfillment_status', f: OrderFilter) =>
  f.match?.byKeys ? sql<string>`${sql.ref(column)} || ''` : sql.ref(column);

/**
 * The feed's SELECT without its columns, in sync order. Stamp range and keyset are row-value
 * comparisons on (modified_at, order_id), read as a range of the orders_sync_order index.
 */
function feedQuery(db: DbHandle, f: OrderFilter) {
  const { after, through } = f;
  // One upper bound (a page's end lies at or below the watermark) and one lower bound, the tighter
  // of the two, so that the index range starts and ends right at them: a second upper bound the
  // planner keeps as a filter, and a page whose matches are sparse would be read on to the watermark.
  let q = through
    ? db.selectFrom('orders').where(sql<boolean>`(modified_at, order_id) <= (${through.modifiedAt}, ${through.orderId})`)
    : db.selectFrom('orders').where('modified_at', '<=', f.modifiedAtMost);
  if (after && (f.modifiedAfter === undefined || after.modifiedAt > f.modifiedAfter)) {
    q = q.where(sql<boolean>`(modified_at, order_id) > (${after.modifiedAt}, ${after.orderId})`);
  } else if (f.modifiedAfter !== undefined) {
    q = q.where('modified_at', '>', f.modifiedAfter);
  }
  if (some(f.orderIds)) q = q.where('order_id', 'in', f.orderIds);
  if (some(f.orderNumbers)) q = q.where('order_number', 'in', f.orderNumbers);
  if (some(f.customerIds)) q = q.where('customer_id', 'in', f.customerIds);
  if (some(f.statuses)) q = q.where(statusOf('status', f), 'in', f.statuses);
  if (some(f.currencies)) q = q.where('currency', 'in', f.currencies);
  const skus = f.skus;
  if (some(skus)) {
    q = q.where((eb) =>
      eb.exists(
        eb
          .selectFrom('order_lines')
          .select('order_lines.line_number')
          .whereRef('order_lines.order_id', '=', 'orders.order_id')
          .where('order_lines.sku', 'in', skus),
      ),
    );
  }
  if (some(f.paymentStatuses)) q = q.where(statusOf('payment_status', f), 'in', f.paymentStatuses);
  if (some(f.fulfillmentStatuses)) q = q.where(statusOf('fulfillment_status', f), 'in', f.fulfillmentStatuses);
  if (f.match) q = q.where(f.match.where);
  return q.orderBy('modified_at').orderBy('order_id');
}

const stored = (row: StoredOrder | OrderRow): StoredOrder => ({
  ...(row as StoredOrder),
  order_id: Number(row.order_id),
  modified_at: Number(row.modified_at),
});

/** The feed's rows, fresh from the driver: their numbers made plain numbers in place (PostgreSQL returns bigints as text). */
function shown(rows: ShownRow[]): ShownRow[] {
  for (const row of rows) {
    row.order_id = Number(row.order_id);
    row.modified_at = Number(row.modified_at);
  }
  return rows;
}

/** An order row with the records of its life, as every read that shows an order gives it. */
export type StoredOrderWithRecords = StoredOrder & { records: OrderRecords };

/** A new open order; its stamp is provisional (created_at) until the door stamps it in the same transaction. */
export interface NewOrder {
  readonly order_number: string;
  readonly note: string | null;
  readonly created_at: number;
  /** What it holds and costs (order.content.ts); absent: nothing, in EUR (NO_CONTENT). */
  readonly content?: ContentRecord;
}

const newRow = ({ content, ...r }: NewOrder) => ({
  ...r,
  ...(content ?? NO_CONTENT).columns,
  status: 'Open' as const,
  customer_id: null,
  modified_at: r.created_at,
});

/** A new order confirmed from the start (demo data): confirmed when created, paid by its confirmation's Payment if it has one. */
export type NewConfirmedOrder = NewOrder & ConfirmedState & Partial<PaymentState>;

const confirmedRow = ({ content, ...r }: NewConfirmedOrder) => ({
  ...r,
  ...(content ?? NO_CONTENT).columns,
  status: 'Confirmed' as const,
  modified_at: r.created_at,
  confirmation_shown: shownConfirmation(r.confirmation),
});

/** Inserts rows whose order numbers do not exist yet (the others are left as they are); returns the new ids. */
async function insertMissing(db: DbHandle, orders: readonly NewOrder[], toRow: typeof newRow | typeof confirmedRow): Promise<number[]> {
  const rows = orders.map((o) => toRow(o as NewConfirmedOrder));
  const res = await db
    .insertInto('orders')
    .values(rows)
    .onConflict((oc) => oc.column('order_number').doNothing())
    .returning(['order_id', 'order_number', 'status', 'payment_status', 'fulfillment_status'])
    .execute();
  const contentOf = new Map(orders.map((o) => [o.order_number, o.content]));
  await insertLines(
    db,
    res.flatMap((r) => linesOf(Number(r.order_id), contentOf.get(r.order_number))),
  );
  const byNumber = new Map(rows.map((r) => [r.order_number, r]));
  await orderWordsRepository.write(
    db,
    res.map((r) => {
      const row = byNumber.get(r.order_number)!;
      return {
        order_id: Number(r.order_id),
        order_number: r.order_number,
        customer_id: row.customer_id,
        confirmation: 'confirmation' in row ? row.confirmation : null,
        status: r.status,
        payment_status: r.payment_status,
        fulfillment_status: r.fulfillment_status,
      };
    }),
  );
  return res.map((r) => Number(r.order_id));
}

const linesOf = (orderId: number, content: ContentRecord | undefined): OrderLineRow[] =>
  content === undefined ? [] : content.lines.map((l) => ({ order_id: orderId, ...l }));

// Lines per INSERT: 11 values each, well below either backend's limit of bound parameters.
const LINES_PER_INSERT = 500;

async function insertLines(db: DbHandle, lines: readonly OrderLineRow[]): Promise<void> {
  for (let i = 0; i < lines.length; i += LINES_PER_INSERT) {
    await db
      .insertInto('order_lines')
      .values(lines.slice(i, i + LINES_PER_INSERT))
      .execute();
  }
}

/** Moves the modification stamp of orders (ids as the door carries them: text): once per transaction. */
const stampOrders: Stamper = async (db, orderIds, stamp) => {
  for (const ids of chunks(orderIds.map(Number), IDS_PER_TOUCH)) await db.run(touchSql(ids.length), [stamp, ...ids]);
};

// The confirmation's statements and the stamp are written once (order.statements.ts); the rest is built by Kysely.

/** All SQL about orders. */
export const orderRepository = {
  touch: stampOrders,

  /** Inserts an open order; `withWords` false for a placeholder number whose words setOrderNumber writes. */
  async insert(db: DbHandle, row: NewOrder, withWords = true): Promise<number> {
    const res = await db
      .insertInto('orders')
      .values(newRow(row))
      .returning(['order_id', 'status', 'payment_status', 'fulfillment_status'])
      .executeTakeFirstOrThrow();
    const orderId = Number(res.order_id);
    await insertLines(db, linesOf(orderId, row.content));
    if (!withWords) return orderId;
    await orderWordsRepository.write(db, [
      { ...res, order_id: orderId, order_number: row.order_number, customer_id: null, confirmation: null },
    ]);
    return orderId;
  },

  /** Inserts open orders whose numbers do not exist yet (the others are left as they are); returns the new ids. */
  insertNew: (db: DbHandle, rows: readonly NewOrder[]): Promise<number[]> => insertMissing(db, rows, newRow),

  /** As insertNew, for orders confirmed from the start (seeded demo data). */
  insertNewConfirmed: (db: DbHandle, rows: readonly NewConfirmedOrder[]): Promise<number[]> => insertMissing(db, rows, confirmedRow),

  /**
   * Replaces the note and the content of an open order (UpdateOrder): 'updated', or what stood in
   * the way. The status is checked by the UPDATE itself, so a confirmation in between cannot be missed.
   */
  async replaceContent(
    db: DbHandle,
    orderId: number,
    note: string | null,
    content: ContentRecord,
  ): Promise<'updated' | 'not-found' | 'not-open'> {
    const res = await db
      .updateTable('orders')
      .set({ note, ...content.columns })
      .where('order_id', '=', orderId)
      .where('status', '=', 'Open')
      .executeTakeFirst();
    if (Number(res.numUpdatedRows) === 0) {
      const found = await db.selectFrom('orders').select('order_id').where('order_id', '=', orderId).executeTakeFirst();
      return found ? 'not-open' : 'not-found';
    }
    await db.deleteFrom('order_lines').where('order_id', '=', orderId).execute();
    await insertLines(db, linesOf(orderId, content));
    return 'updated';
  },

  async setOrderNumber(db: DbHandle, orderId: number, orderNumber: string): Promise<void> {
    await db.updateTable('orders').set({ order_number: orderNumber }).where('order_id', '=', orderId).execute();
    await orderWordsRepository.refresh(db, [orderId]);
  },

  async orderNumberTaken(db: DbHandle, orderNumber: string): Promise<boolean> {
    return (await db.selectFrom('orders').select('order_id').where('order_number', '=', orderNumber).executeTakeFirst()) !== undefined;
  },

  async find(db: DbHandle, orderId: number): Promise<StoredOrder | undefined> {
    const row = (await db.run<OrderRow>(FIND_ORDER, [orderId])).rows[0];
    return row ? stored(row) : undefined;
  },

  /** The order as it is shown (GetOrder): only the shown columns, and its records. */
  async findShown(db: DbHandle, orderId: number): Promise<ShownOrder | undefined> {
    // Rows as arrays made objects by one constructor: the driver's objects by name cost more (GetOrder's every call).
    const row = (await db.runRows<ShownRowWithAggregate>(showOrderSql(db), [orderId], SHOWN_WITH_RECORDS))[0];
    if (row === undefined) return undefined;
    const order = shown([row])[0] as ShownRowWithAggregate;
    // The aggregate's column becomes the records, in place: the row keeps its shape.
    (order as unknown as ShownOrder).records = recordsOfAggregate(order.order_id, order.records);
    return order as unknown as ShownOrder;
  },

  /** A customer's orders that hold personal data: a confirmation or a note (an erasure's work). */
  async personalDataOfCustomer(
    db: DbHandle,
    customerId: string,
  ): Promise<Array<{ order_id: number; confirmation: string | null; note: string | null }>> {
    const rows = await db
      .selectFrom('orders')
      .select(['order_id', 'confirmation', 'note'])
      .where('customer_id', '=', customerId)
      .where((eb) => eb.or([eb('confirmation', 'is not', null), eb('note', 'is not', null)]))
      .orderBy('order_id')
      .execute();
    return rows.map((r) => ({ ...r, order_id: Number(r.order_id) }));
  },

  /** Replaces an order's confirmation (and its hash) and removes its note: an erasure. */
  async replaceConfirmation(db: DbHandle, orderId: number, confirmation: string | null, hash: string | null): Promise<void> {
    const shown = confirmation === null ? null : shownConfirmation(confirmation);
    await db
      .updateTable('orders')
      .set({ confirmation, confirmation_hash: hash, confirmation_shown: shown, note: null })
      .where('order_id', '=', orderId)
      .execute();
    await orderWordsRepository.refresh(db, [orderId]);
  },

  /** The orders of these ids that exist, with their records (events read them after the change). */
  async findMany(db: DbHandle, orderIds: readonly number[]): Promise<StoredOrderWithRecords[]> {
    const out: StoredOrder[] = [];
    for (const ids of chunks(orderIds, IDS_PER_TOUCH)) out.push(...(await db.run<OrderRow>(findManySql(ids.length), ids)).rows.map(stored));
    return withRecords(db, out);
  },

  /** Up to `limit` orders of the feed in sync order (modified_at, order_id), skipping `offset`; with their records. */
  async search(db: DbHandle, f: OrderFilter, limit: number, offset = 0, read: OrderRead = 'stored'): Promise<ShownOrder[]> {
    const columns = read === 'stored' ? STORED_COLUMNS : SHOWN_TEXT_COLUMNS;
    let q = feedQuery(db, f).select(columns).limit(limit);
    if (offset > 0) q = q.offset(offset);
    return withRecords(db, shown(await db.rows<ShownRow>(q.compile(), SHOWN_COLUMNS)));
  },

  /** How many orders the feed's filter matches (an export's progress). */
  async count(db: DbHandle, f: OrderFilter): Promise<number> {
    const row = await feedQuery(db, f)
      .clearOrderBy()
      .select((eb) => eb.fn.countAll<number | string | bigint>().as('n'))
      .executeTakeFirstOrThrow();
    return Number(row.n);
  },

  /** Ids of the confirmed orders the filter matches: whose bank data an unmasked export reveals. */
  async confirmedIds(db: DbHandle, f: OrderFilter): Promise<number[]> {
    const rows = await feedQuery(db, f).where('confirmation', 'is not', null).select('order_id').execute();
    return rows.map((r) => Number(r.order_id));
  },

  /** Which of these order numbers exist already (an import checks its rows against the store). */
  async takenOrderNumbers(db: DbHandle, orderNumbers: readonly string[]): Promise<Set<string>> {
    if (orderNumbers.length === 0) return new Set();
    const rows = await db.selectFrom('orders').select('order_number').where('order_number', 'in', orderNumbers).execute();
    return new Set(rows.map((r) => r.order_number));
  },

  /** Positions of the orders at `offset` and after it (index-only when no filter but the window). */
  async positionsAt(db: DbHandle, f: OrderFilter, offset: number, count: number): Promise<OrderPosition[]> {
    const rows = await feedQuery(db, f).select(['modified_at', 'order_id']).limit(count).offset(offset).execute();
    return rows.map((r) => ({ modifiedAt: Number(r.modified_at), orderId: Number(r.order_id) }));
  },

  /**
   * positionsAt, reading no more than the first `budget` rows of the filter's range in sync order,
   * each checked for the text match: the positions, or 'over budget' when they are not all among
   * those rows and the range holds more. A text match checked on each row (TextMatch.byKeys false)
   * whose matches the other filters mostly exclude would otherwise read the whole range.
   */
  async positionsWithin(
    db: DbHandle,
    f: OrderFilter,
    offset: number,
    count: number,
    budget: number,
  ): Promise<OrderPosition[] | 'over budget'> {
    const unmatched: OrderFilter = { ...f, match: undefined };
    // The range's first rows, then the match checked on them: the check names the row `orders`.
    const first = feedQuery(db, unmatched).select(['modified_at', 'order_id']).limit(budget);
    let q = db.selectFrom(first.as('orders')).select(['orders.modified_at', 'orders.order_id']);
    if (f.match) q = q.where(f.match.where);
    const rows = await q.orderBy('orders.modified_at').orderBy('orders.order_id').limit(count).offset(offset).execute();
    if (rows.length < count && (await orderRepository.positionsAt(db, unmatched, budget - 1, 1)).length > 0) return 'over budget';
    return rows.map((r) => ({ modifiedAt: Number(r.modified_at), orderId: Number(r.order_id) }));
  },

  /**
   * Open → Confirmed, returning the order as written; undefined when the order is unknown or not
   * open. `paymentsOf`: the payment columns the confirmation starts the order with (its Payment),
   * written before the order's words and states, so that they are written once.
   */
  async markConfirmed(
    db: DbHandle,
    orderId: number,
    state: ConfirmedState,
    paymentsOf?: (order: StoredOrder) => PaymentState | undefined,
  ): Promise<StoredOrder | undefined> {
    const params = [
      state.customer_id,
      state.confirmed_at,
      state.confirmation,
      state.confirmation_hash,
      shownConfirmation(state.confirmation),
      orderId,
    ];
    const row = (await db.run<OrderRow>(MARK_CONFIRMED, params)).rows[0];
    if (!row) return undefined;
    const order = stored(row);
    const payments = paymentsOf?.(order);
    if (payments !== undefined) {
      await orderLifeRepository.setPaymentColumns(db, orderId, payments);
      Object.assign(order, payments);
    }
    await orderWordsRepository.writeOne(db, order);
    return order;
  },

  /** Open or Confirmed → Cancelled; false when there was nothing to change. */
  async markCancelled(db: DbHandle, orderId: number, at: number): Promise<boolean> {
    const res = await db
      .updateTable('orders')
      .set({ status: 'Cancelled', cancelled_at: at })
      .where('order_id', '=', orderId)
      .where('status', '<>', 'Cancelled')
      .executeTakeFirst();
    if (Number(res.numUpdatedRows) !== 1) return false;
    await orderWordsRepository.setStates(db, orderId);
    return true;
  },
};
