import assert from 'node:assert/strict';
import { test } from 'node:test';
import { assertBuilt, runCli } from '../helpers/cli.js';
import { describeEachBackend, json, type TestApp } from '../helpers/test-app.js';
import { confirm, confirmation, createOrder, unique } from './order-fixtures.js';

describeEachBackend('ordergate orders ship / return (CLI)', (t) => {
  const cli = (...args: string[]) => runCli(['orders', ...args], { DATABASE_URL: t().config.databaseUrl, LOG_LEVEL: 'silent' }, 60_000);
  const status = async (app: TestApp, orderId: number) =>
    (await app.store.db.selectFrom('orders').select('fulfillment_status').where('order_id', '=', orderId).executeTakeFirstOrThrow())
      .fulfillment_status;
  const shipments = async (app: TestApp, orderId: number) =>
    (await app.store.db.selectFrom('order_shipments').select('shipment_id').where('order_id', '=', orderId).execute()).length;

  test('ship and return record as the API does and print the record; mistakes exit 2 naming the field, nothing written', async () => {
    assertBuilt();
    const line = (Sku: string, Quantity: number) => ({ Sku, Name: Sku, Quantity, UnitPrice: 4, TaxRate: 7 });
    const id = await createOrder(t(), { Lines: [line('A', 2), line('B', 1)] });
    assert.equal((await confirm(t(), id, confirmation({ ExternalCustomerId: `cli-ship-${unique()}` }))).statusCode, 200);

    const first = await cli('ship', String(id), '--line', '1:1', '--carrier', 'DHL', '--tracking', '0034', '--date', '2026-01-02');
    assert.equal(first.code, 0, first.stderr);
    const shipment = JSON.parse(first.stdout) as Record<string, unknown>;
    assert.deepEqual(
      [shipment.OrderId, shipment.Lines, shipment.Carrier, shipment.TrackingNumber, shipment.ShippedAt],
      [id, [{ LineNumber: 1, Quantity: 1 }], 'DHL', '0034', '/Date(1767312000000-0000)/'],
    );
    assert.equal(await status(t(), id), 'PartiallyFulfilled');
    const rest = await cli('ship', String(id));
    assert.equal(rest.code, 0, rest.stderr);
    assert.deepEqual((JSON.parse(rest.stdout) as { Lines: unknown }).Lines, [
      { LineNumber: 1, Quantity: 1 },
      { LineNumber: 2, Quantity: 1 },
    ]);
    const feed = json<unknown[]>(await t().inject(`/orders/?OrderIds=${id}&FulfillmentStatuses=Fulfilled`));
    assert.equal(feed.length, 1, 'the API shows what the CLI recorded');

    const back = await cli('return', String(id), '--line', '2:1', '--line', '1:1', '--reason', 'Wrong size');
    assert.equal(back.code, 0, back.stderr);
    assert.deepEqual(JSON.parse(back.stdout).Lines, [
      { LineNumber: 1, Quantity: 1 },
      { LineNumber: 2, Quantity: 1 },
    ]);
    assert.equal(await status(t(), id), 'PartiallyReturned');

    for (const [args, message] of [
      [['return', String(id), '--line', '1:2'], /'Lines\[0\]\.Quantity' must be less than or equal to '1'/],
      [['ship', String(id), '--tracking-url', 'dhl.de'], /'TrackingUrl' must be an absolute http\(s\) URL/],
      [['ship', String(id), '--line', '1'], /--line: '1' is not LINE:QUANTITY/],
      [['ship', String(id), '--line', '1:0'], /'Lines\[0\]\.Quantity'/],
      [['return', String(id)], /--line LINE:QUANTITY is required/],
      [['ship', 'abc'], /'abc' is not an OrderId/],
    ] as const) {
      const r = await cli(...args);
      assert.equal(r.code, 2, `${args.join(' ')}: ${r.stderr}`);
      assert.match(r.stderr, message);
    }
    const nothing = await cli('ship', String(id));
    assert.equal(nothing.code, 1, nothing.stderr);
    assert.match(nothing.stderr, /shipped already/);
    const open = await createOrder(t(), { Lines: [line('C', 1)] });
    const notConfirmed = await cli('ship', String(open));
    assert.equal(notConfirmed.code, 1);
    assert.match(notConfirmed.stderr, /only a confirmed order/);
    assert.equal(await shipments(t(), id), 2);
    assert.equal(await shipments(t(), open), 0);
  });
});
