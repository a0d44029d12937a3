import { sql, type Kysely } from 'kysely';
import { demoCustomer } from '../../src/customers/customer.seed.js';
import { customerWords } from '../../src/customers/customer.words.js';
import { sha256 } from '../../src/digest.js';
import { confirmationJson } from '../../src/orders/order.mapping.js';
import { demoConfirmation, seedOrderNumber } from '../../src/orders/order.seed.js';
import { shownConfirmation } from '../../src/orders/order.shown-form.js';
import { orderStates, orderWords } from '../../src/orders/order.words.js';
import type { Database } from '../../src/store/database.js';
import { openStore } from '../../src/store/open-store.js';
import { cli, createDatabase, type BenchDatabase } from './database.js';
import type { Backend } from './settings.js';

/**
 * The text search's data set: `rows` demo customers and as many orders, the first CONFIRMED_SHARE of
 * them confirmed by customers 1… (what `seed` writes), inserted straight into the tables with their
 * words, in large transactions. `seed` goes through the write door (events, stamps per unit) and
 * takes many minutes for 10^6 of each on this machine; the rows here are the same, without events.
 */
export interface TextSearchData {
  readonly db: BenchDatabase;
  readonly rows: number;
  readonly confirmed: number;
  readonly seconds: number;
}

const CONFIRMED_SHARE = 0.6;
/** Rows per statement (SQLite binds at most 32,766 values: 17 columns × 1,000 fit). */
const ROWS_PER_INSERT = 1000;
/** Rows per transaction. */
const ROWS_PER_TRANSACTION = 20_000;

async function insertRange(db: Kysely<Database>, first: number, last: number, confirmedThrough: number, stamp: number): Promise<void> {
  await db.transaction().execute(async (trx) => {
    for (let i = first; i <= last; i += ROWS_PER_INSERT) {
      const end = Math.min(last, i + ROWS_PER_INSERT - 1);
      const customers = [];
      const orders = [];
      for (let n = i; n <= end; n++) {
        customers.push(demoCustomer(n, stamp));
        const base = {
          order_id: n,
          order_number: seedOrderNumber(n),
          note: null,
          created_at: stamp,
          modified_at: stamp,
          cancelled_at: null,
          // No content: what migration 013 gives an order created without lines.
          currency: 'EUR',
          prices_include_tax: 0,
          shipping_name: null,
          shipping_amount: null,
          shipping_tax_rate: null,
          total_net: '0.00',
          total_tax: '0.00',
          total_gross: '0.00',
          total_discount: '0.00',
          content_shown: null,
        };
        if (n <= confirmedThrough) {
          const confirmation = confirmationJson(demoConfirmation(n));
          orders.push({
            ...base,
            status: 'Confirmed' as const,
            customer_id: customers[customers.length - 1]!.customer_id,
            confirmed_at: stamp,
            confirmation,
            confirmation_hash: sha256(confirmation),
            confirmation_shown: shownConfirmation(confirmation),
          });
        } else {
          orders.push({
            ...base,
            status: 'Open' as const,
            customer_id: null,
            confirmed_at: null,
            confirmation: null,
            confirmation_hash: null,
          });
        }
      }
      await trx.insertInto('customers').values(customers).execute();
      await trx
        .insertInto('customer_words')
        .values(customers.map((c) => ({ customer_id: c.customer_id, words: customerWords(c) })))
        .execute();
      await trx.insertInto('orders').values(orders).execute();
      await trx
        .insertInto('order_words')
        .values(
          orders.map((o) => {
            const source = { ...o, payment_status: 'Unpaid' as const, fulfillment_status: 'Unfulfilled' as const };
            return { order_id: o.order_id, words: orderWords(source), states: orderStates(source) };
          }),
        )
        .execute();
    }
  });
}

/** A fresh database of its own, migrated and filled (timed from the migration to the last commit). */
export async function createTextSearchData(backend: Backend, rows: number): Promise<TextSearchData> {
  const db = await createDatabase(backend, 'text');
  try {
    const started = performance.now();
    await cli(db, ['migrate']);
    const store = openStore(db.url, { poolSize: 1 });
    try {
      const confirmed = Math.round(rows * CONFIRMED_SHARE);
      const stamp = Date.now();
      for (let first = 1; first <= rows; first += ROWS_PER_TRANSACTION) {
        await insertRange(store.db, first, Math.min(rows, first + ROWS_PER_TRANSACTION - 1), confirmed, stamp);
      }
      // Every row at or below the watermark, as after a commit; the order ids go on after the seeded ones.
      await sql`update sync_clock set last_stamp = ${stamp} where id = 1`.execute(store.db);
      if (backend === 'postgres') {
        await sql`select setval(pg_get_serial_sequence('orders', 'order_id'), ${rows})`.execute(store.db);
        // As autovacuum leaves a table of inserts in service: statistics, and the visibility map that
        // lets a read of many index entries skip the table's pages.
        await sql`vacuum (analyze)`.execute(store.db);
      }
      return { db, rows, confirmed, seconds: (performance.now() - started) / 1000 };
    } finally {
      await store.close();
    }
  } catch (err) {
    await db.drop();
    throw err;
  }
}
