import { sql } from 'kysely';
import type { CustomerRow, OrderRow } from '../store/database.js';
import { runSql } from '../store/precompiled-sql.js';
import type { Executor } from '../store/store.js';
import { addressColumns, updateCustomerSql, upsertCustomerSql } from './order.statements.js';

/** An order row as the service reads it (the generated id is a plain number once stored). */
export type StoredOrder = Omit<OrderRow, 'order_id'> & { order_id: number };

/** Columns of a customer that a confirmation writes (name and address). */
export type CustomerAddress = Partial<Pick<CustomerRow,
  'salutation' | 'first_name' | 'last_name' | 'postal_code' | 'city' | 'country' | 'street' | 'street_number' |
  'company' | 'company2' | 'addition_to_address'>>;

export interface ConfirmedState {
  readonly customer_id: string;
  readonly confirmed_at: number;
  readonly confirmation: string;
  readonly confirmation_hash: string;
}

// The confirmation's statements are written once (see store/precompiled-sql.ts); the rest is built by Kysely.
const FIND_ORDER = 'select * from orders where order_id = ?';
const MARK_CONFIRMED =
  "update orders set status = 'Confirmed', customer_id = ?, confirmed_at = ?, confirmation = ?, confirmation_hash = ?" +
  " where order_id = ? and status = 'Open' returning order_number";

/** All SQL about orders, and the customer writes of a confirmation. */
export const orderRepository = {
  async insert(db: Executor, row: { order_number: string; note: string | null; created_at: number }): Promise<number> {
    const res = await db
      .insertInto('orders')
      .values({ ...row, status: 'Open', customer_id: null })
      .returning('order_id')
      .executeTakeFirstOrThrow();
    return Number(res.order_id);
  },

  async setOrderNumber(db: Executor, orderId: number, orderNumber: string): Promise<void> {
    await db.updateTable('orders').set({ order_number: orderNumber }).where('order_id', '=', orderId).execute();
  },

  async orderNumberTaken(db: Executor, orderNumber: string): Promise<boolean> {
    return (await db.selectFrom('orders').select('order_id').where('order_number', '=', orderNumber).executeTakeFirst()) !== undefined;
  },

  async find(db: Executor, orderId: number): Promise<StoredOrder | undefined> {
    const row = (await runSql<OrderRow>(db, FIND_ORDER, [orderId])).rows[0];
    return row ? { ...row, order_id: Number(row.order_id) } : undefined;
  },

  /** Open → Confirmed, returning the order number; undefined when the order is unknown or not open. */
  async markConfirmed(db: Executor, orderId: number, state: ConfirmedState): Promise<string | undefined> {
    const params = [state.customer_id, state.confirmed_at, state.confirmation, state.confirmation_hash, orderId];
    return (await runSql<{ order_number: string }>(db, MARK_CONFIRMED, params)).rows[0]?.order_number;
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

  /** Writes the address of an existing customer; false when there is no such customer. */
  async updateCustomer(db: Executor, customerId: string, address: CustomerAddress): Promise<boolean> {
    const { columns, values } = addressColumns(address);
    const res = await runSql(db, updateCustomerSql(columns), [...values, customerId]);
    return Number(res.numAffectedRows) === 1;
  },

  /**
   * Inserts a customer, or — when one already has this ExternalId — writes its address instead.
   * Returns the id of the customer written. One statement, so concurrent confirmations naming the
   * same new ExternalId cannot both insert (the unique index decides, without an error).
   */
  async upsertCustomerByExternalId(db: Executor, newId: string, externalId: string | null, address: CustomerAddress, now: number): Promise<string> {
    const { columns, values } = addressColumns(address);
    // The modification stamp is set when the transaction takes its stamp (sync-clock.ts).
    const res = await runSql<{ customer_id: string }>(db, upsertCustomerSql(columns), [newId, externalId, ...values, now, now]);
    const row = res.rows[0];
    if (!row) throw new Error('the customer upsert returned no row');
    return row.customer_id;
  },
};

/** The file of a SQLite store's main database; empty for an in-memory one. */
export async function sqliteMainFile(db: Executor): Promise<string> {
  const { rows } = await sql<{ name: string; file: string }>`pragma database_list`.execute(db);
  return rows.find((r) => r.name === 'main')?.file ?? '';
}
