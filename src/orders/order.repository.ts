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
