import assert from 'node:assert/strict';
import { test } from 'node:test';
import { sql, type Kysely } from 'kysely';
import * as m013 from '../../src/store/migrations/013-order-content.js';
import { bearer, describeEachBackend, json } from '../helpers/test-app.js';

describeEachBackend('migration 013: order content', (t) => {
  test('orders stored before get EUR, no lines and zero totals; GetOrder shows them so', async () => {
    const db = t().store.db as Kysely<unknown>;
    await m013.down(db);
    await sql`insert into orders (order_number, status, created_at, modified_at) values
      ('M13-open', 'Open', 1000, 1000), ('M13-cancelled', 'Cancelled', 1000, 1000)`.execute(db);
    await m013.up(db);
    const rows = await t()
      .store.db.selectFrom('orders')
      .select(['order_id', 'currency', 'prices_include_tax', 'shipping_amount', 'total_net', 'total_tax', 'total_gross', 'total_discount'])
      .where('order_number', 'like', 'M13-%')
      .orderBy('order_number')
      .execute();
    assert.equal(rows.length, 2);
    for (const { order_id, ...row } of rows) {
      assert.deepEqual(
        { ...row, prices_include_tax: Number(row.prices_include_tax) },
        {
          currency: 'EUR',
          prices_include_tax: 0,
          shipping_amount: null,
          total_net: '0.00',
          total_tax: '0.00',
          total_gross: '0.00',
          total_discount: '0.00',
        },
      );
      const order = json(await t().inject({ url: `/orders/${order_id}`, headers: bearer(t().keys.all) }));
      assert.deepEqual(
        [order.Currency, order.PricesIncludeTax, order.Lines, order.Shipping, order.Totals],
        ['EUR', false, [], null, { Net: 0, Tax: 0, Gross: 0, Discount: 0, TaxBreakdown: [] }],
      );
    }
    const lines = await t().store.db.selectFrom('order_lines').select('order_id').execute();
    assert.deepEqual(lines, []);
  });
});
