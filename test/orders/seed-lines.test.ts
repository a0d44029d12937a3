import assert from 'node:assert/strict';
import { test } from 'node:test';
import { seedOrders } from '../../src/orders/index.js';
import { seededContent } from '../../src/orders/order.seed.js';
import { describeEachBackend, json } from '../helpers/test-app.js';
import { openTestWrites } from '../helpers/test-store.js';

// The benchmarks' orders of five lines (bench/scenarios/order-content.ts) come from seedOrders' `lines`.
describeEachBackend('seeded orders with a fixed number of lines', (t) => {
  test('seededContent(k, n) holds n lines of the catalogue; without n, 1–5 by k', () => {
    for (let k = 1; k <= 20; k++) {
      assert.equal(seededContent(k, 5).Lines.length, 5);
      assert.deepEqual(seededContent(k, 5).Lines.slice(0, seededContent(k).Lines.length), seededContent(k).Lines);
    }
    assert.deepEqual([...new Set(Array.from({ length: 20 }, (_, k) => seededContent(k + 1).Lines.length))].sort(), [1, 2, 3, 4, 5]);
  });

  test('seedOrders with lines: 5 stores five lines with every order, through the write door', async () => {
    const writes = openTestWrites(t().store);
    try {
      assert.equal(await seedOrders(writes, 12, undefined, { lines: 5 }), 12);
    } finally {
      await writes.close();
    }
    const perOrder = await t()
      .store.db.selectFrom('order_lines')
      .select((eb) => ['order_id', eb.fn.countAll().as('n')])
      .groupBy('order_id')
      .execute();
    assert.equal(perOrder.length, 12);
    assert.ok(perOrder.every((r) => Number(r.n) === 5));
    const order = json(await t().inject(`/orders/${Number(perOrder[0]!.order_id)}`));
    assert.equal(order.Lines.length, 5);
    assert.ok(order.Totals.Gross > order.Totals.Net);
  });
});
