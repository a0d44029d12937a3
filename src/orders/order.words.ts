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

/** What an order's words come from: its number, its customer and its stored confirmation (text or null). */
export interface OrderWordSource {
  readonly order_id: number;
  readonly order_number: string;
  readonly customer_id: string | null;
  readonly confirmation: string | null;
}

/** What a text search finds an order by (docs/orders.md): OrderNumber, CustomerId, the confirmed customer name, e-mail and ExternalCustomerId. */
export function orderWords(o: OrderWordSource): string {
  const c = o.confirmation === null ? undefined : parseStoredConfirmation(o.confirmation);
  return indexedWords([o.order_number, o.customer_id, c?.CustomerFirstName, c?.CustomerLastName, c?.CustomerEMail, c?.ExternalCustomerId]);
}

/** Unchanged words are not written again: on SQLite each write replaces the row's FTS5 entry. */
const WRITE_ONE =
  'insert into order_words (order_id, words) values (?, ?)' +
  ' on conflict (order_id) do update set words = excluded.words where order_words.words <> excluded.words';

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

  /** The words of these orders as they are stored now (after a write that did not return its row). */
  async refresh(db: DbHandle, orderIds: readonly number[]): Promise<void> {
    for (const ids of chunks(orderIds, ROWS_PER_STATEMENT)) {
      const rows = await db
        .selectFrom('orders')
        .select(['order_id', 'order_number', 'customer_id', 'confirmation'])
        .where('order_id', 'in', ids)
        .execute();
      await orderWordsRepository.write(
        db,
        rows.map((r) => ({ ...r, order_id: Number(r.order_id) })),
      );
    }
  },
};
