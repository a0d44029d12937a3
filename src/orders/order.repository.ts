import { sql } from 'kysely';
import type { OrderRow } from '../store/database.js';
import type { Executor, StoreSql } from '../store/store.js';
import type { Stamper } from '../writes/unit.js';
import { FIND_ORDER, IDS_PER_TOUCH, MARK_CONFIRMED, touchSql } from './order.statements.js';

export type { CustomerAddress } from '../customers/customer.columns.js';

/** An order row as the service reads it (the generated id is a plain number once stored). */
export type StoredOrder = Omit<OrderRow, 'order_id'> & { order_id: number };

export interface ConfirmedState {
  readonly customer_id: string;
  readonly confirmed_at: number;
  readonly confirmation: string;
  readonly confirmation_hash: string;
}

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
  /** Strict lower bound of the stamp (LastModifiedAfter). */
  readonly modifiedAfter?: number;
  /** Upper bound of the stamp: the watermark read before the rows. */
  readonly modifiedAtMost: number;
  /** Only orders strictly after this position (the keyset of the next chunk). */
  readonly after?: OrderPosition;
  /** Only orders at or before this position (the end of a page). */
  readonly through?: OrderPosition;
}

const some = <T>(list: readonly T[] | undefined): list is readonly T[] => list !== undefined && list.length > 0;

/**
 * The feed's SELECT without its columns, in sync order. Stamp range and keyset are row-value
 * comparisons on (modified_at, order_id), read as a range of the orders_sync_order index.
 */
function feedQuery(db: Executor, f: OrderFilter) {
  let q = db.selectFrom('orders').where('modified_at', '<=', f.modifiedAtMost);
  const { after, through } = f;
  // One lower bound, the tighter of the two, so that the index range starts right at it.
  if (after && (f.modifiedAfter === undefined || after.modifiedAt > f.modifiedAfter)) {
    q = q.where(sql<boolean>`(modified_at, order_id) > (${after.modifiedAt}, ${after.orderId})`);
  } else if (f.modifiedAfter !== undefined) {
    q = q.where('modified_at', '>', f.modifiedAfter);
  }
  if (through) q = q.where(sql<boolean>`(modified_at, order_id) <= (${through.modifiedAt}, ${through.orderId})`);
  if (some(f.orderIds)) q = q.where('order_id', 'in', f.orderIds);
  if (some(f.orderNumbers)) q = q.where('order_number', 'in', f.orderNumbers);
  if (some(f.customerIds)) q = q.where('customer_id', 'in', f.customerIds);
  if (some(f.statuses)) q = q.where('status', 'in', f.statuses);
  return q.orderBy('modified_at').orderBy('order_id');
}

const stored = (row: StoredOrder | OrderRow): StoredOrder => ({ ...(row as StoredOrder), order_id: Number(row.order_id), modified_at: Number(row.modified_at) });

/** A new open order; its stamp is provisional (created_at) until the door stamps it in the same transaction. */
export interface NewOrder {
  readonly order_number: string;
  readonly note: string | null;
  readonly created_at: number;
}

const newRow = (r: NewOrder) => ({ ...r, status: 'Open' as const, customer_id: null, modified_at: r.created_at });

/** Moves the modification stamp of orders (ids as the door carries them: text): once per transaction. */
const touch: Stamper = async (storeSql, db, orderIds, stamp) => {
  for (let i = 0; i < orderIds.length; i += IDS_PER_TOUCH) {
    const ids = orderIds.slice(i, i + IDS_PER_TOUCH).map(Number);
    await storeSql.run(db, touchSql(ids.length), [stamp, ...ids]);
  }
};

// The confirmation's statements and the stamp are written once (order.statements.ts); the rest is built by Kysely.

/** All SQL about orders. */
export const orderRepository = {
  touch,

  async insert(db: Executor, row: NewOrder): Promise<number> {
    const res = await db
      .insertInto('orders')
      .values(newRow(row))
      .returning('order_id')
      .executeTakeFirstOrThrow();
    return Number(res.order_id);
  },

  /** Inserts open orders whose numbers do not exist yet (the others are left as they are); returns the new ids. */
  async insertNew(db: Executor, rows: readonly NewOrder[]): Promise<number[]> {
    const res = await db
      .insertInto('orders')
      .values(rows.map(newRow))
      .onConflict((oc) => oc.column('order_number').doNothing())
      .returning('order_id')
      .execute();
    return res.map((r) => Number(r.order_id));
  },

  async setOrderNumber(db: Executor, orderId: number, orderNumber: string): Promise<void> {
    await db.updateTable('orders').set({ order_number: orderNumber }).where('order_id', '=', orderId).execute();
  },

  async orderNumberTaken(db: Executor, orderNumber: string): Promise<boolean> {
    return (await db.selectFrom('orders').select('order_id').where('order_number', '=', orderNumber).executeTakeFirst()) !== undefined;
  },

  async find(storeSql: StoreSql, db: Executor, orderId: number): Promise<StoredOrder | undefined> {
    const row = (await storeSql.run<OrderRow>(db, FIND_ORDER, [orderId])).rows[0];
    return row ? stored(row) : undefined;
  },

  /** Up to `limit` orders of the feed in sync order (modified_at, order_id), skipping `offset`. */
  async search(db: Executor, f: OrderFilter, limit: number, offset = 0): Promise<StoredOrder[]> {
    let q = feedQuery(db, f).selectAll().limit(limit);
    if (offset > 0) q = q.offset(offset);
    return (await q.execute()).map(stored);
  },

  /** How many orders the feed's filter matches (an export's progress). */
  async count(db: Executor, f: OrderFilter): Promise<number> {
    const row = await feedQuery(db, f).clearOrderBy().select((eb) => eb.fn.countAll<number | string | bigint>().as('n')).executeTakeFirstOrThrow();
    return Number(row.n);
  },

  /** Ids of the confirmed orders the filter matches: whose bank data an unmasked export reveals. */
  async confirmedIds(db: Executor, f: OrderFilter): Promise<number[]> {
    const rows = await feedQuery(db, f).where('confirmation', 'is not', null).select('order_id').execute();
    return rows.map((r) => Number(r.order_id));
  },

  /** Which of these order numbers exist already (an import checks its rows against the store). */
  async takenOrderNumbers(db: Executor, orderNumbers: readonly string[]): Promise<Set<string>> {
    if (orderNumbers.length === 0) return new Set();
    const rows = await db.selectFrom('orders').select('order_number').where('order_number', 'in', orderNumbers).execute();
    return new Set(rows.map((r) => r.order_number));
  },

  /** Positions of the orders at `offset` and after it (index-only when no filter but the window). */
  async positionsAt(db: Executor, f: OrderFilter, offset: number, count: number): Promise<OrderPosition[]> {
    const rows = await feedQuery(db, f).select(['modified_at', 'order_id']).limit(count).offset(offset).execute();
    return rows.map((r) => ({ modifiedAt: Number(r.modified_at), orderId: Number(r.order_id) }));
  },

  /** Open → Confirmed, returning the order number; undefined when the order is unknown or not open. */
  async markConfirmed(storeSql: StoreSql, db: Executor, orderId: number, state: ConfirmedState): Promise<string | undefined> {
    const params = [state.customer_id, state.confirmed_at, state.confirmation, state.confirmation_hash, orderId];
    return (await storeSql.run<{ order_number: string }>(db, MARK_CONFIRMED, params)).rows[0]?.order_number;
  },

  /** Open or Confirmed → Cancelled; false when there was nothing to change. */
  async markCancelled(db: Executor, orderId: number, at: number): Promise<boolean> {
    const res = await db
      .updateTable('orders')
      .set({ status: 'Cancelled', cancelled_at: at })
      .where('order_id', '=', orderId)
      .where('status', '<>', 'Cancelled')
      .executeTakeFirst();
    return Number(res.numUpdatedRows) === 1;
  },
};
