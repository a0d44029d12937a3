import type { OrderRow } from '../store/database.js';
import type { Executor, StoreSql } from '../store/store.js';

export type { CustomerAddress } from '../customers/customer.columns.js';

/** An order row as the service reads it (the generated id is a plain number once stored). */
export type StoredOrder = Omit<OrderRow, 'order_id'> & { order_id: number };

export interface ConfirmedState {
  readonly customer_id: string;
  readonly confirmed_at: number;
  readonly confirmation: string;
  readonly confirmation_hash: string;
}

// The confirmation's statements are written once (StoreSql.run); the rest is built by Kysely.
const FIND_ORDER = 'select * from orders where order_id = ?';
const MARK_CONFIRMED =
  "update orders set status = 'Confirmed', customer_id = ?, confirmed_at = ?, confirmation = ?, confirmation_hash = ?" +
  " where order_id = ? and status = 'Open' returning order_number";

/** All SQL about orders. */
export const orderRepository = {
  async insert(db: Executor, row: { order_number: string; note: string | null; created_at: number }): Promise<number> {
    const res = await db
      .insertInto('orders')
      .values({ ...row, status: 'Open', customer_id: null })
      .returning('order_id')
      .executeTakeFirstOrThrow();
    return Number(res.order_id);
  },

  /** Inserts open orders whose numbers do not exist yet (the others are left as they are); returns how many were new. */
  async insertNew(db: Executor, rows: ReadonlyArray<{ order_number: string; note: string | null; created_at: number }>): Promise<number> {
    const res = await db
      .insertInto('orders')
      .values(rows.map((r) => ({ ...r, status: 'Open' as const, customer_id: null })))
      .onConflict((oc) => oc.column('order_number').doNothing())
      .executeTakeFirst();
    return Number(res.numInsertedOrUpdatedRows ?? 0);
  },

  async setOrderNumber(db: Executor, orderId: number, orderNumber: string): Promise<void> {
    await db.updateTable('orders').set({ order_number: orderNumber }).where('order_id', '=', orderId).execute();
  },

  async orderNumberTaken(db: Executor, orderNumber: string): Promise<boolean> {
    return (await db.selectFrom('orders').select('order_id').where('order_number', '=', orderNumber).executeTakeFirst()) !== undefined;
  },

  async find(sql: StoreSql, db: Executor, orderId: number): Promise<StoredOrder | undefined> {
    const row = (await sql.run<OrderRow>(db, FIND_ORDER, [orderId])).rows[0];
    return row ? { ...row, order_id: Number(row.order_id) } : undefined;
  },

  /** Open → Confirmed, returning the order number; undefined when the order is unknown or not open. */
  async markConfirmed(sql: StoreSql, db: Executor, orderId: number, state: ConfirmedState): Promise<string | undefined> {
    const params = [state.customer_id, state.confirmed_at, state.confirmation, state.confirmation_hash, orderId];
    return (await sql.run<{ order_number: string }>(db, MARK_CONFIRMED, params)).rows[0]?.order_number;
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
