import assert from 'node:assert/strict';
import { test } from 'node:test';
import { assertBuilt, runCli } from '../helpers/cli.js';
import { describeEachBackend, json, type TestApp } from '../helpers/test-app.js';
import { confirm, confirmation, createOrder, unique } from './order-fixtures.js';

describeEachBackend('ordergate orders pay / refund (CLI)', (t) => {
  const cli = (...args: string[]) => runCli(['orders', ...args], { DATABASE_URL: t().config.databaseUrl, LOG_LEVEL: 'silent' }, 60_000);
  const payments = (app: TestApp, orderId: number) =>
    app.store.db
      .selectFrom('orders')
      .select(['paid', 'refunded', 'payment_status'])
      .where('order_id', '=', orderId)
      .executeTakeFirstOrThrow();

  test('pay and refund record as the API does and print the record; mistakes exit 2 naming the field, nothing written', async () => {
    assertBuilt();
    const id = await createOrder(t());
    assert.equal(
      (await confirm(t(), id, confirmation({ ExternalCustomerId: `cli-${unique()}`, Payment: { Amount: 10, Name: 'P' } }))).statusCode,
      200,
    );

    const paid = await cli('pay', String(id), '--amount', '2.5', '--type', 'PayPal', '--reference', 'PP-9', '--date', '2026-01-02');
    assert.equal(paid.code, 0, paid.stderr);
    const payment = JSON.parse(paid.stdout) as Record<string, unknown>;
    assert.deepEqual(
      [payment.OrderId, payment.Amount, payment.Type, payment.ReferenceNumber, payment.Date],
      [id, 2.5, 'PayPal', 'PP-9', '/Date(1767312000000-0000)/'],
    );
    const refunded = await cli('refund', String(id), '--amount', '12.5', '--reason', 'Returned');
    assert.equal(refunded.code, 0, refunded.stderr);
    assert.equal((JSON.parse(refunded.stdout) as Record<string, unknown>).Reason, 'Returned');
    assert.deepEqual(await payments(t(), id), { paid: '12.50', refunded: '12.50', payment_status: 'Refunded' });
    const feed = json<unknown[]>(await t().inject(`/orders/?OrderIds=${id}&PaymentStatuses=Refunded`));
    assert.equal(feed.length, 1, 'the API shows what the CLI recorded');

    for (const [args, message] of [
      [['refund', String(id), '--amount', '0.01'], /'Amount' must be less than or equal to '0\.00'/],
      [['pay', String(id), '--amount', '1.005'], /'Amount' must not have more than 2 decimals/],
      [['pay', String(id), '--amount', 'ten'], /--amount: 'ten' is not a decimal number/],
      [['pay', String(id)], /--amount is required/],
      [['pay', String(id), '--amount', '1', '--type', 'Cash'], /'Type'/],
      [['pay', 'abc', '--amount', '1'], /'abc' is not an OrderId/],
    ] as const) {
      const r = await cli(...args);
      assert.equal(r.code, 2, `${args.join(' ')}: ${r.stderr}`);
      assert.match(r.stderr, message);
    }
    const unknown = await cli('pay', '987654321', '--amount', '1');
    assert.equal(unknown.code, 1);
    assert.match(unknown.stderr, /Order 987654321 does not exist/);
    const open = await createOrder(t());
    const notConfirmed = await cli('refund', String(open), '--amount', '1');
    assert.equal(notConfirmed.code, 1);
    assert.match(notConfirmed.stderr, /only a confirmed order/);
    assert.deepEqual(await payments(t(), id), { paid: '12.50', refunded: '12.50', payment_status: 'Refunded' });
  });
});
