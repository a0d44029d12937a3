import type { FulfillmentStatus, OrderRow, PaymentStatus } from '../store/database.js';
import { chunks } from '../store/statement-texts.js';
import type { DbHandle, TextIndex } from '../store/store.js';
import { indexedWords } from '../store/text-words.js';
import { parseStoredConfirmation } from './order.stored-form.js';

/**
 * The orders' text index (migration 011): each order's folded words, written with every write of
 * what they come from, in the same transaction, so that a search never finds an order by a value
 * it no longer holds (an erasure included); beside them its statuses' words (migration 018).
 */
export const ORDER_TEXT: TextIndex = { table: 'order_words', key: 'order_id', rows: 'orders', held: true };

/**
 * What an order's words come from: its number, its customer and its stored confirmation (text or
 * null); and its statuses, for the words kept beside them.
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
 * (`order_words.states`, migration 018), so that a common word with a filter none of its matches
 * passes is answered from the index instead of the filter's range (orders/order.search.ts). A `~`
 * starts each, which no query word does. The SQL of ORDER_STATES writes the same words.
 */
export const statusWord = (s: OrderRow['status']): string => `~s${s.toLowerCase()}`;
export const paymentWord = (s: PaymentStatus): string => `~p${s.toLowerCase()}`;
export const fulfillmentWord = (s: FulfillmentStatus): string => `~f${s.toLowerCase()}`;

/** What a text search finds an order by (docs/orders.md): OrderNumber, CustomerId, the confirmed customer name, e-mail and ExternalCustomerId. */
export function orderWords(o: OrderWordSource): string {
  const c = o.confirmation === null ? undefined : parseStoredConfirmation(o.confirmation);
  return indexedWords([o.order_number, o.customer_id, c?.CustomerFirstName, c?.CustomerLastName, c?.CustomerEMail, c?.ExternalCustomerId]);
}

/** The words of the order's statuses, as `order_words.states` holds them. */
export const orderStates = (o: Pick<OrderWordSource, 'status' | 'payment_status' | 'fulfillment_status'>): string =>
  `${statusWord(o.status)} ${paymentWord(o.payment_status)} ${fulfillmentWord(o.fulfillment_status)}`;

/**
 * Unchanged words are not written again. On SQLite a change of the words replaces the row's FTS5
 * entry (its trigger); a change of the states alone does not (the FTS5 index holds the words only).
 */
const WRITE_ONE =
  'insert into order_words (order_id, words, states) values (?, ?, ?)' +
  ' on conflict (order_id) do update set words = excluded.words, states = excluded.states' +
  ' where order_words.words <> excluded.words or order_words.states <> excluded.states';

/** The states of an order as they are stored now: orderStates in SQL, after a write of a status. */
const SET_STATES =
  "update order_words set states = (select '~s' || lower(status) || ' ~p' || lower(payment_status) || ' ~f' || lower(fulfillment_status)" +
  ' from orders where orders.order_id = ?) where order_id = ?';

const ROWS_PER_STATEMENT = 500;

export const orderWordsRepository = {
  /** The words of one order as written (the confirmation's hot path: a statement written once). */
  async writeOne(db: DbHandle, order: OrderWordSource): Promise<void> {
    await db.run(WRITE_ONE, [order.order_id, orderWords(order), orderStates(order)]);
  },

  /** The states of an order whose status, payment status or fulfilment status a write changed. */
  async setStates(db: DbHandle, orderId: number): Promise<void> {
    await db.run(SET_STATES, [orderId, orderId]);
  },

  /** The words of many orders as written. */
  async write(db: DbHandle, orders: readonly OrderWordSource[]): Promise<void> {
    for (const slice of chunks(orders, ROWS_PER_STATEMENT)) {
      await db
        .insertInto('order_words')
        .values(slice.map((o) => ({ order_id: o.order_id, words: orderWords(o), states: orderStates(o) })))
        .onConflict((oc) =>
          oc
            .column('order_id')
            .doUpdateSet((eb) => ({ words: eb.ref('excluded.words'), states: eb.ref('excluded.states') }))
            .where((eb) =>
              eb.or([eb('order_words.words', '<>', eb.ref('excluded.words')), eb('order_words.states', '<>', eb.ref('excluded.states'))]),
            ),
        )
        .execute();
    }
  },

  /** The words of these orders as they are stored now (after a write that did not return its row). */
  async refresh(db: DbHandle, orderIds: readonly number[]): Promise<void> {
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
