import type { Selectable } from 'kysely';
import type { OrderRow } from '../store/database.js';
import type { HandleSql } from '../store/store.js';
import { recordsOfOrderSql, type AggregatedRecords, type OrderRecords } from './order-life.records.js';
import { placeholders, textsByShape } from '../store/statement-texts.js';

/**
 * Order statements written once by hand (run with db.run: `?` placeholders) for the hot
 * paths: the confirmation's statements, the lookups by id and the stamp of every order write. The
 * stamp's text depends on how many ids it binds, so it is kept per count.
 */

/**
 * Every column of the table. Statements name them instead of `*`: a prepared statement's result
 * may not change shape, and a migration adding a column while it is prepared would make it fail.
 */
export const ORDER_COLUMNS: ReadonlyArray<keyof OrderRow> = [
  'order_id',
  'order_number',
  'status',
  'note',
  'customer_id',
  'created_at',
  'confirmed_at',
  'cancelled_at',
  'modified_at',
  'confirmation',
  'confirmation_hash',
  'confirmation_shown',
  'currency',
  'prices_include_tax',
  'shipping_name',
  'shipping_amount',
  'shipping_tax_rate',
  'total_net',
  'total_tax',
  'total_gross',
  'total_discount',
  'content_shown',
  'payment_status',
  'fulfillment_status',
  'paid',
  'refunded',
];

export const FIND_ORDER = `select ${ORDER_COLUMNS.join(', ')} from orders where order_id = ?`;

/**
 * The columns an order is shown with (GetOrder, the feed, the export): not the confirmation's hash
 * nor the totals' exact forms. Reads that show orders read only these: every column less, on every
 * order of a feed, is a value fewer for the driver to make.
 */
export const SHOWN_COLUMNS = [
  'order_id',
  'order_number',
  'status',
  'note',
  'customer_id',
  'created_at',
  'confirmed_at',
  'cancelled_at',
  'modified_at',
  'confirmation',
  'confirmation_shown',
  'currency',
  'prices_include_tax',
  'content_shown',
  'payment_status',
  'fulfillment_status',
  'paid',
  'refunded',
] as const;

/** An order row as the service reads it (the generated id is a plain number once stored). */
export type StoredOrder = Omit<Selectable<OrderRow>, 'order_id'> & { order_id: number };

/** An order's row as it is shown (SHOWN_COLUMNS). */
export type ShownRow = Pick<StoredOrder, (typeof SHOWN_COLUMNS)[number]>;

/** An order as it is shown: its row and the records of its life after the confirmation (order-life.records.ts). */
export type ShownOrder = ShownRow & { records: OrderRecords };

/** An order's row as showOrderSql reads it: its records still as their aggregate. */
export type ShownRowWithAggregate = ShownRow & { records: AggregatedRecords };

/** showOrderSql's columns, in its order: the shown columns, then the records' aggregate. */
export const SHOWN_WITH_RECORDS = [...SHOWN_COLUMNS, 'records'] as const;

/** GetOrder's read: the shown columns of one order. */
// Written once per backend (the records' aggregate differs), kept by the backend's aggregate.
const showOrderTexts = new WeakMap<HandleSql['jsonArraysAgg'], string>();

/**
 * The order as it is shown (SHOWN_COLUMNS) with its records aggregated (`records`, order-life.records.ts),
 * in one statement: one round trip and one statement for GetOrder instead of two. An open order has
 * no records (they need a confirmed order, and an order is never open again), so its are not read.
 */
export function showOrderSql(db: Pick<HandleSql, 'jsonArraysAgg'>): string {
  let text = showOrderTexts.get(db.jsonArraysAgg);
  if (text === undefined) {
    text =
      `select ${SHOWN_COLUMNS.join(', ')},` +
      ` case when o.status <> 'Open' then ${recordsOfOrderSql(db.jsonArraysAgg, 'o.order_id')} end as records` +
      ' from orders o where o.order_id = ?';
    showOrderTexts.set(db.jsonArraysAgg, text);
  }
  return text;
}

/** Open → Confirmed, returning the order as written (none: unknown or not open). */
export const MARK_CONFIRMED =
  "update orders set status = 'Confirmed', customer_id = ?, confirmed_at = ?, confirmation = ?, confirmation_hash = ?, confirmation_shown = ?" +
  ` where order_id = ? and status = 'Open' returning ${ORDER_COLUMNS.join(', ')}`;

/** Most ids one stamp statement binds (the repository cuts longer lists). */
export const IDS_PER_TOUCH = 500;

/** Every column of the orders with n ids (1 ≤ n ≤ IDS_PER_TOUCH): the outbox reads changed orders. */
export const findManySql = textsByShape(
  (n: number) => `select ${ORDER_COLUMNS.join(', ')} from orders where order_id in (${placeholders(n)})`,
  IDS_PER_TOUCH,
);

/** `update orders set modified_at = ? where order_id in (?, …)` for n ids (1 ≤ n ≤ IDS_PER_TOUCH). */
export const touchSql = textsByShape(
  (n: number) => `update orders set modified_at = ? where order_id in (${placeholders(n)})`,
  IDS_PER_TOUCH,
);
