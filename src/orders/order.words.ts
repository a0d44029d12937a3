import type { FulfillmentStatus, OrderRow, PaymentStatus } from '../store/database.js';
import { chunks } from '../store/statement-texts.js';
import type { DbHandle, TextIndex } from '../store/store.js';
import { indexedWords } from '../store/text-words.js';
import { parseStoredConfirmation } from './order.stored-form.js';

/**
 * The orders' text index (migration 011): each order's folded words, written with every write of
 * what they come from, in the same transaction, so that a search never finds an order by a value
 * it no longer holds (an erasure included).
 */
export const ORDER_TEXT: TextIndex = { table: 'order_words', key: 'order_id', rows: 'orders' };

/**
 * What an order's words come from: its number, its customer and its stored confirmation (text or
 * null), and its statuses.
 */
export interface OrderWordSource {
  readonly order_id: number;
  readonly order_number: string;
  readonly customer_id: string | null;
  readonly confirmation: string | null;
  readonly status: OrderRow['status'];
  readonly payment_status: PaymentStatus;
  readonly fulfillment_status: FulfillmentStatus;
}

/**
 * The words an order's status, payment status and fulfilment status are kept as beside its words
 * (migration 018), so that the index can intersect a common word with a filter none of its matches
 * passes instead of the filter's range being read (orders/order.search.ts). A `~` starts each: a
 * query word is letters and digits only, so no search's word starts one of them, and the SQLite
 * index takes `~` as a letter (its tokenizer's `tokenchars`).
 */
export const statusWord = (s: OrderRow['status']): string => `~s${s.toLowerCase()}`;
export const paymentWord = (s: PaymentStatus): string => `~p${s.toLowerCase()}`;
export const fulfillmentWord = (s: FulfillmentStatus): string => `~f${s.toLowerCase()}`;

/** What a text search finds an order by (docs/orders.md): OrderNumber, CustomerId, the confirmed customer name, e-mail and ExternalCustomerId; then its statuses' words. */
export function orderWords(o: OrderWordSource): string {
  const c = o.confirmation === null ? undefined : parseStoredConfirmation(o.confirmation);
  const words = indexedWords([
    o.order_number,
    o.customer_id,
    c?.CustomerFirstName,
    c?.CustomerLastName,
    c?.CustomerEMail,
    c?.ExternalCustomerId,
  ]);
  const states = `${statusWord(o.status)} ${paymentWord(o.payment_status)} ${fulfillmentWord(o.fulfillment_status)}`;
  return words === '' ? states : `${words} ${states}`;
}

/** Unchanged words are not written again: on SQLite each write replaces the row's FTS5 entry. */
const WRITE_ONE =
  'insert into order_words (order_id, words) values (?, ?)' +
  ' on conflict (order_id) do update set words = excluded.words where order_words.words <> excluded.words';

/** What one order's words come from (refresh of one order: a statement written once). */
const SOURCE_OF_ONE =
  'select order_id, order_number, customer_id, confirmation, status, payment_status, fulfillment_status from orders where order_id = ?';

const ROWS_PER_STATEMENT = 500;

export const orderWordsRepository = {
  /** The words of one order as written (the confirmation's hot path: a statement written once). */
  async writeOne(db: DbHandle, order: OrderWordSource): Promise<void> {
    await db.run(WRITE_ONE, [order.order_id, orderWords(order)]);
  },

  /** The words of many orders as written. */
  async write(db: DbHandle, orders: readonly OrderWordSource[]): Promise<void> {
    for (const slice of chunks(orders, ROWS_PER_STATEMENT)) {
      await db
        .insertInto('order_words')
        .values(slice.map((o) => ({ order_id: o.order_id, words: orderWords(o) })))
        .onConflict((oc) =>
          oc
            .column('order_id')
            .doUpdateSet((eb) => ({ words: eb.ref('excluded.words') }))
            .where((eb) => eb('order_words.words', '<>', eb.ref('excluded.words'))),
        )
        .execute();
    }
  },

  /**
   * The words of these orders as they are stored now (after a write that did not return its row:
   * one of its words or statuses changed).
   */
  async refresh(db: DbHandle, orderIds: readonly number[]): Promise<void> {
    if (orderIds.length === 1) {
      // One order's status changed (a payment, a shipment, a cancellation): the statements written once.
      const row = (await db.run<OrderWordSource>(SOURCE_OF_ONE, orderIds)).rows[0];
      if (row) await orderWordsRepository.writeOne(db, { ...row, order_id: Number(row.order_id) });
      return;
    }
    for (const ids of chunks(orderIds, ROWS_PER_STATEMENT)) {
      const rows = await db
        .selectFrom('orders')
        .select(['order_id', 'order_number', 'customer_id', 'confirmation', 'status', 'payment_status', 'fulfillment_status'])
        .where('order_id', 'in', ids)
        .execute();
      await orderWordsRepository.write(
        db,
        rows.map((r) => ({ ...r, order_id: Number(r.order_id) })),
      );
    }
  },
};
