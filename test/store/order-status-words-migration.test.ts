import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Kysely } from 'kysely';
import * as m018 from '../../src/store/migrations/018-order-status-words.js';
import * as m019 from '../../src/store/migrations/019-text-index-deletes.js';
import { ORDER_TEXT, orderStates, paymentWord, statusWord } from '../../src/orders/order.words.js';
import { describeEachBackend, json } from '../helpers/test-app.js';
import { confirm, confirmation, createOrder, unique } from '../orders/order-fixtures.js';

describeEachBackend('migration 018: the orders’ statuses as words beside their words', (t) => {
  test('orders written before it hold their statuses’ words after it, are found as before, and no query word finds a status', async () => {
    const db = t().store.db as Kysely<unknown>;
    const tag = `m${unique()}`;
    const ids = async (query: string): Promise<number[]> =>
      (json(await t().inject(`/orders/?Query=${encodeURIComponent(query)}`)) as Array<{ OrderId: number }>).map((o) => o.OrderId).sort();
    const open = await createOrder(t(), { OrderNumber: `${tag}-1` });
    const confirmed = await createOrder(t(), { OrderNumber: `${tag}-2` });
    assert.equal((await confirm(t(), confirmed, confirmation({ ExternalCustomerId: tag }))).statusCode, 200);

    // The later migration's triggers read the column 018 adds: taken down and up around it.
    await m019.down(db);
    await m018.down(db);
    await m018.up(db);
    await m019.up(db);

    const rows = await t()
      .store.db.selectFrom('order_words')
      .innerJoin('orders', 'orders.order_id', 'order_words.order_id')
      .select(['orders.order_id', 'states', 'status', 'payment_status', 'fulfillment_status'])
      .where('orders.order_id', 'in', [open, confirmed])
      .orderBy('orders.order_id')
      .execute();
    assert.deepEqual(
      rows.map((r) => r.states),
      rows.map((r) => orderStates(r)),
    );
    assert.equal(rows[0]!.states, '~sopen ~punpaid ~funfulfilled');
    const paymentOfConfirmed = rows[1]!.payment_status;
    assert.deepEqual(await ids(tag), [open, confirmed].sort());
    const cancelled = await t().inject({ method: 'POST', url: `/orders/${open}/cancel` });
    assert.equal(cancelled.statusCode, 200, cancelled.body);
    assert.deepEqual(await ids(tag), [open, confirmed].sort(), 'the index keeps the words of an order whose status changed');
    for (const query of ['sop', 'sconfirmed', 'punpaid', 'funf']) {
      const match = await t().store.reader.textMatch(ORDER_TEXT, [query], 1);
      const keys = await t()
        .store.db.selectFrom('orders')
        .select('order_id')
        .where(match.where)
        .where('order_id', 'in', [open, confirmed])
        .execute();
      assert.deepEqual(keys, [], `no order of the tag is found by "${query}"`);
    }
    const held = await t().store.reader.textMatch(ORDER_TEXT, [tag], 'all', [['~sconfirmed', '~scancelled']]);
    assert.equal(held.byKeys, true);
    const found = await t().store.db.selectFrom('orders').select('order_id').where(held.where).orderBy('order_id').execute();
    assert.deepEqual(
      found.map((r) => Number(r.order_id)),
      [open, confirmed].sort((a, b) => a - b),
    );
    const other = paymentOfConfirmed === 'Refunded' ? 'Unpaid' : 'Refunded';
    const none = await t().store.reader.textMatch(ORDER_TEXT, [tag], 'all', [[statusWord('Confirmed')], [paymentWord(other)]]);
    assert.equal(none.none, true);
  });
});
