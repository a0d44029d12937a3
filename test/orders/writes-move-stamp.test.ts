import assert from 'node:assert/strict';
import { test } from 'node:test';
import { seedOrders } from '../../src/orders/order.seed.js';
import { orderRepository } from '../../src/orders/order.repository.js';
import type { Store } from '../../src/store/store.js';
import { committedWatermark } from '../../src/store/sync-clock.js';
import { describeEachBackend } from '../helpers/test-app.js';
import { confirm, confirmation, createOrder } from './order-fixtures.js';

const stampOf = async (store: Store, orderId: number): Promise<number> => {
  const order = await orderRepository.find(store.reader, orderId);
  assert.ok(order, `order ${orderId} exists`);
  return Number(order.modified_at);
};

/** Every write that changes an order takes a stamp from the sync clock: above the watermark before it. */
describeEachBackend('every write to an order moves its modification stamp', (t) => {
  const watermark = () => committedWatermark(t().store.reader);

  test('create stamps the new order above the previous watermark, and the watermark covers it', async () => {
    const before = await watermark();
    const id = await createOrder(t());
    const stamp = await stampOf(t().store, id);
    assert.ok(stamp > before, `${stamp} > ${before}`);
    assert.ok(stamp <= (await watermark()));
  });

  test('confirm moves the stamp; the same confirmation again changes nothing and keeps it', async () => {
    const id = await createOrder(t());
    const created = await stampOf(t().store, id);
    assert.equal((await confirm(t(), id, confirmation({ OrderNumber: `S-${id}` }))).statusCode, 200);
    const confirmed = await stampOf(t().store, id);
    assert.ok(confirmed > created, `${confirmed} > ${created}`);
    assert.equal((await confirm(t(), id, confirmation({ OrderNumber: `S-${id}` }))).statusCode, 200);
    assert.equal(await stampOf(t().store, id), confirmed);
  });

  test('cancel moves the stamp (open and confirmed orders); cancelling again keeps it', async () => {
    const open = await createOrder(t());
    const confirmedId = await createOrder(t());
    assert.equal((await confirm(t(), confirmedId, confirmation())).statusCode, 200);
    for (const id of [open, confirmedId]) {
      const before = await stampOf(t().store, id);
      assert.equal((await t().inject({ method: 'POST', url: `/orders/${id}/cancel` })).statusCode, 200);
      const cancelled = await stampOf(t().store, id);
      assert.ok(cancelled > before, `${cancelled} > ${before}`);
      assert.equal((await t().inject({ method: 'POST', url: `/orders/${id}/cancel` })).statusCode, 200);
      assert.equal(await stampOf(t().store, id), cancelled);
    }
  });

  test('seeded orders are stamped above the watermark before the seed', async () => {
    const before = await watermark();
    assert.equal(await seedOrders(t().app.writes, 3), 3);
    const rows = await t().store.reader.selectFrom('orders').select('modified_at').where('order_number', 'like', 'SEED-%').execute();
    assert.equal(rows.length, 3);
    for (const r of rows) assert.ok(Number(r.modified_at) > before && Number(r.modified_at) <= (await watermark()));
  });
});
