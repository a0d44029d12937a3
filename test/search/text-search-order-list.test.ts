import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { seedCustomers } from '../../src/customers/customer.seed.js';
import { seedOrders } from '../../src/orders/order.seed.js';
import { orderRepository } from '../../src/orders/order.repository.js';
import { fulfillmentWord, ORDER_TEXT, paymentWord, statusWord } from '../../src/orders/order.words.js';
import { searchOrders } from '../../src/orders/order.search.js';
import type { SearchOrdersRequest } from '../../src/orders/order.schemas.js';
import { committedWatermark } from '../../src/store/sync-clock.js';
import { describeEachBackend, json, type TestApp } from '../helpers/test-app.js';

const ORDERS = 1200;
const CONFIRMED = 700;
/** Rows read in order before a page is looked for by the matches' keys: far fewer than the open orders. */
const SMALL_BUDGET = 20;

interface Page {
  readonly ids: number[];
  readonly cursor?: string;
  readonly watermark: number;
}

async function page(app: TestApp, req: SearchOrdersRequest, checkedInOrder?: number): Promise<Page> {
  const feed = await searchOrders(app.store, req, checkedInOrder);
  const ids: number[] = [];
  for await (const chunk of feed.orders()) ids.push(...chunk.map((o) => o.order_id));
  return { ids, watermark: feed.watermark, ...(feed.cursor ? { cursor: feed.cursor } : {}) };
}

// A word every confirmed order holds (its customer's e-mail, kunde.N@example.org) and no open one,
// with a status filter that most or all of its matches lack: read in sync order, the page would
// check every order of that status. Read past a small budget, it must be the same page.
describeEachBackend(
  'SearchOrders: a common word and a status few of its matches have',
  (t) => {
    let cancelled: number[];
    before(async () => {
      await seedCustomers(t().app.writes, 50);
      assert.equal(await seedOrders(t().app.writes, ORDERS, undefined, { confirmed: CONFIRMED, customers: 50 }), ORDERS);
      const found = json(await t().inject('/orders/?Query=kunde&Statuses=Confirmed&Take=3')) as Array<{ OrderId: number }>;
      cancelled = found.map((o) => o.OrderId);
      assert.equal(cancelled.length, 3);
      for (const id of cancelled) assert.equal((await t().inject({ method: 'POST', url: `/orders/${id}/cancel` })).statusCode, 200);
    });

    test('the word matches too many orders to list their keys for a page, and the budget runs out', async () => {
      const match = await t().store.reader.textMatch(ORDER_TEXT, ['kunde'], 51);
      assert.equal(match.byKeys, false);
      const committed = await committedWatermark(t().store.reader);
      const filter = { statuses: ['Open' as const], modifiedAtMost: committed, match };
      assert.equal(await orderRepository.positionsWithin(t().store.reader, filter, 0, 51, SMALL_BUDGET), 'over budget');
      assert.deepEqual(await orderRepository.positionsWithin(t().store.reader, filter, 0, 51, ORDERS), []);
    });

    test('a status none of the matches has: an empty page, over HTTP and past the budget', async () => {
      const res = await t().inject('/orders/?Query=kunde&Statuses=Open&Take=50');
      assert.equal(res.statusCode, 200, res.body);
      assert.deepEqual(json(res), []);
      assert.equal(res.headers['x-sync-cursor'], undefined);
      const req = { Query: 'kunde', Statuses: ['Open' as const], Take: 50 };
      const small = await page(t(), req, SMALL_BUDGET);
      assert.deepEqual(small.ids, []);
      assert.equal(small.cursor, undefined);
      assert.deepEqual(small, await page(t(), req));
    });

    test('a status few of the matches have: the same pages, cursors and Skip past the budget as in order', async () => {
      const statuses = ['Open' as const, 'Cancelled' as const];
      const first = await page(t(), { Query: 'kunde', Statuses: statuses, Take: 2 }, SMALL_BUDGET);
      assert.deepEqual(first.ids, cancelled.slice(0, 2));
      assert.ok(first.cursor);
      assert.deepEqual(first, await page(t(), { Query: 'kunde', Statuses: statuses, Take: 2 }));
      const second = await page(t(), { Query: 'kunde', Statuses: statuses, Take: 2, Cursor: first.cursor }, SMALL_BUDGET);
      assert.deepEqual(second.ids, cancelled.slice(2));
      assert.equal(second.cursor, undefined);
      assert.deepEqual(second, await page(t(), { Query: 'kunde', Statuses: statuses, Take: 2, Cursor: first.cursor }));
      const skipped = await page(t(), { Query: 'kunde', Statuses: statuses, Take: 5, Skip: 1 }, SMALL_BUDGET);
      assert.deepEqual(skipped.ids, cancelled.slice(1));
      assert.deepEqual(skipped, await page(t(), { Query: 'kunde', Statuses: statuses, Take: 5, Skip: 1 }));
      const none = await page(t(), { Query: 'kunde', Statuses: statuses, Take: 0 }, SMALL_BUDGET);
      assert.deepEqual(none, await page(t(), { Query: 'kunde', Statuses: statuses, Take: 0 }));
      const http = json(await t().inject('/orders/?Query=kunde&Statuses=Open,Cancelled&Take=50')) as Array<{ OrderId: number }>;
      assert.deepEqual(
        http.map((o) => o.OrderId),
        cancelled,
      );
    });

    test("a payment and a shipment change the order's statuses' words: found past the budget by the new ones", async () => {
      const found = json(await t().inject('/orders/?Query=kunde&Statuses=Confirmed&Take=2')) as Array<{ OrderId: number }>;
      const [paid, shipped] = found.map((o) => o.OrderId) as [number, number];
      const payment = { Amount: 1, Type: 'PayPal', Name: 'N', ReferenceNumber: 'P-1', Date: '2026-01-02T03:04:05Z' };
      const res = await t().inject({ method: 'POST', url: `/orders/${paid}/payments`, payload: payment });
      assert.equal(res.statusCode, 201, res.body);
      const sent = await t().inject({ method: 'POST', url: `/orders/${shipped}/shipments`, payload: {} });
      assert.equal(sent.statusCode, 201, sent.body);
      const rows = await t()
        .store.db.selectFrom('orders')
        .innerJoin('order_words', 'order_words.order_id', 'orders.order_id')
        .select(['orders.order_id', 'status', 'payment_status', 'fulfillment_status', 'states'])
        .where('orders.order_id', 'in', [paid, shipped, ...cancelled])
        .execute();
      for (const r of rows) {
        assert.equal(r.states, `${statusWord(r.status)} ${paymentWord(r.payment_status)} ${fulfillmentWord(r.fulfillment_status)}`);
      }
      const paidRow = rows.find((r) => Number(r.order_id) === paid)!;
      const shippedRow = rows.find((r) => Number(r.order_id) === shipped)!;
      assert.notEqual(paidRow.payment_status, 'Unpaid');
      assert.notEqual(shippedRow.fulfillment_status, 'Unfulfilled');
      const byPayment = { Query: 'kunde', PaymentStatuses: [paidRow.payment_status], Take: 50 };
      const small = await page(t(), byPayment, SMALL_BUDGET);
      assert.ok(small.ids.includes(paid));
      assert.deepEqual(small, await page(t(), byPayment));
      const byFulfilment = {
        Query: 'kunde',
        FulfillmentStatuses: [shippedRow.fulfillment_status],
        Statuses: ['Confirmed' as const],
        Take: 50,
      };
      const shippedPage = await page(t(), byFulfilment, SMALL_BUDGET);
      assert.deepEqual(shippedPage.ids, [shipped]);
      assert.deepEqual(shippedPage, await page(t(), byFulfilment));
    });

    test('a status most of the matches have: the same page past the budget as in order', async () => {
      const req = { Query: 'kunde', Statuses: ['Confirmed' as const], Take: 20, Skip: 3 };
      const small = await page(t(), req, SMALL_BUDGET);
      assert.equal(small.ids.length, 20);
      assert.deepEqual(small, await page(t(), req));
    });
  },
  {},
  { pgbouncer: true },
);
