import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createKey } from '../../src/auth/index.js';
import { bearer, describeEachBackend, json, type TestApp } from '../helpers/test-app.js';
import { confirm, confirmation, createOrder, fieldErrors, unique } from './order-fixtures.js';

const pay = (t: TestApp, orderId: number | string, body: Record<string, unknown>, headers: Record<string, string> = {}) =>
  t.inject({ method: 'POST', url: `/orders/${orderId}/payments`, payload: body, headers });
const refund = (t: TestApp, orderId: number | string, body: Record<string, unknown>, headers: Record<string, string> = {}) =>
  t.inject({ method: 'POST', url: `/orders/${orderId}/refunds`, payload: body, headers });

/** A confirmed order; `payment` is the confirmation's Payment (none by default). */
async function confirmedOrder(t: TestApp, payment?: Record<string, unknown>): Promise<number> {
  const id = await createOrder(t);
  const res = await confirm(t, id, confirmation({ ExternalCustomerId: `pay-${unique()}`, Payment: payment }));
  assert.equal(res.statusCode, 200, res.body);
  return id;
}

/** The order as the feed shows it, with the columns the feed filters by. */
async function feedOrder(t: TestApp, orderId: number, query = '') {
  const res = await t.inject(`/orders/?OrderIds=${orderId}${query}`);
  assert.equal(res.statusCode, 200, res.body);
  return json<Array<{ OrderId: number; LastModified: string }>>(res)[0];
}

const orderRow = (t: TestApp, orderId: number) =>
  t.store.db.selectFrom('orders').select(['paid', 'refunded', 'payment_status']).where('order_id', '=', orderId).executeTakeFirstOrThrow();

const records = async (t: TestApp, orderId: number) => ({
  payments: await t.store.db.selectFrom('order_payments').selectAll().where('order_id', '=', orderId).execute(),
  refunds: await t.store.db.selectFrom('order_refunds').selectAll().where('order_id', '=', orderId).execute(),
});

describeEachBackend(
  'payments and refunds of a confirmed order',
  (t) => {
    test('a payment answers 201 with the record, adds to Paid, moves the order and emits order.payment_created', async () => {
      const id = await confirmedOrder(t());
      assert.deepEqual(await orderRow(t(), id), { paid: '0.00', refunded: '0.00', payment_status: 'Unpaid' });
      const before = (await feedOrder(t(), id))!.LastModified;
      const res = await pay(t(), id, { Amount: 12.3, Type: 'PayPal', Name: 'Rest', ReferenceNumber: 'PP-1', Date: '2026-01-02T03:04:05Z' });
      assert.equal(res.statusCode, 201, res.body);
      const body = json(res);
      assert.equal(typeof body.PaymentId, 'number');
      assert.deepEqual(
        { ...body, PaymentId: 0 },
        {
          PaymentId: 0,
          OrderId: id,
          Amount: 12.3,
          Type: 'PayPal',
          Name: 'Rest',
          ReferenceNumber: 'PP-1',
          Date: '/Date(1767323045000-0000)/',
        },
      );
      assert.deepEqual(await orderRow(t(), id), { paid: '12.30', refunded: '0.00', payment_status: 'Paid' });
      assert.notEqual((await feedOrder(t(), id))!.LastModified, before);
      const events = json<Array<{ Type: string; Data: { OrderId: number } }>>(await t().inject('/events/?Types=order.payment_created'));
      assert.ok(events.some((e) => e.Data.OrderId === id));
    });

    test('the confirmation’s Payment is the first payment; refunds never exceed what was paid', async () => {
      const id = await confirmedOrder(t(), { Amount: 19.99, Name: 'Anzahlung', Type: 'PayPal' });
      assert.deepEqual(await orderRow(t(), id), { paid: '19.99', refunded: '0.00', payment_status: 'Paid' });
      assert.equal((await pay(t(), id, { Amount: 0.01 })).statusCode, 201);
      const part = await refund(t(), id, { Amount: 5, Reason: 'Damaged', ReferenceNumber: 'RF-1' });
      assert.equal(part.statusCode, 201, part.body);
      assert.deepEqual(
        { ...json<Record<string, unknown>>(part), RefundId: 0, Date: null },
        {
          RefundId: 0,
          OrderId: id,
          Amount: 5,
          Reason: 'Damaged',
          ReferenceNumber: 'RF-1',
          Date: null,
        },
      );
      assert.deepEqual(await orderRow(t(), id), { paid: '20.00', refunded: '5.00', payment_status: 'PartiallyRefunded' });
      const tooMuch = await refund(t(), id, { Amount: 15.01 });
      assert.equal(tooMuch.statusCode, 400, tooMuch.body);
      assert.deepEqual(fieldErrors(json(tooMuch)), { Amount: 'LessThanOrEqual' });
      assert.match(json(tooMuch).ResponseStatus.Message, /15\.00/);
      assert.equal((await records(t(), id)).refunds.length, 1, 'nothing written');
      assert.equal((await refund(t(), id, { Amount: 15 })).statusCode, 201);
      assert.deepEqual(await orderRow(t(), id), { paid: '20.00', refunded: '20.00', payment_status: 'Refunded' });
    });

    test('the feed filters by PaymentStatuses', async () => {
      const unpaid = await confirmedOrder(t());
      const paid = await confirmedOrder(t(), { Amount: 10, Name: 'P' });
      const ids = `${unpaid},${paid}`;
      const statusOf = async (q: string) =>
        json<Array<{ OrderId: number }>>(await t().inject(`/orders/?OrderIds=${ids}&PaymentStatuses=${q}`)).map((o) => o.OrderId);
      assert.deepEqual(await statusOf('Unpaid'), [unpaid]);
      assert.deepEqual(await statusOf('Paid'), [paid]);
      assert.deepEqual(
        (await statusOf('Paid,Unpaid')).sort((a, b) => a - b),
        [unpaid, paid].sort((a, b) => a - b),
      );
      assert.equal((await refund(t(), paid, { Amount: 10 })).statusCode, 201);
      assert.deepEqual(await statusOf('Refunded'), [paid]);
      const bad = await t().inject(`/orders/?PaymentStatuses=Nope`);
      assert.equal(bad.statusCode, 400, bad.body);
    });

    test('an order that is not confirmed → 409 OrderNotConfirmed; an unknown one → 404; nothing written', async () => {
      const open = await createOrder(t());
      for (const send of [pay, refund]) {
        const res = await send(t(), open, { Amount: 1 });
        assert.equal(res.statusCode, 409, res.body);
        assert.equal(json(res).ResponseStatus.ErrorCode, 'OrderNotConfirmed');
        assert.equal((await send(t(), 987654321, { Amount: 1 })).statusCode, 404);
      }
      const cancelled = await confirmedOrder(t());
      assert.equal((await t().inject({ method: 'POST', url: `/orders/${cancelled}/cancel` })).statusCode, 200);
      assert.equal(json(await pay(t(), cancelled, { Amount: 1 })).ResponseStatus.ErrorCode, 'OrderNotConfirmed');
      assert.deepEqual(await records(t(), open), { payments: [], refunds: [] });
      assert.deepEqual(await records(t(), cancelled), { payments: [], refunds: [] });
    });

    test('bad input → 400 naming the field, before the order is looked up; nothing written', async () => {
      const id = await confirmedOrder(t());
      const cases: Array<[Record<string, unknown>, Record<string, string>]> = [
        [{}, { Amount: 'NotNull' }],
        [{ Amount: 0 }, { Amount: 'GreaterThan' }],
        [{ Amount: -1 }, { Amount: 'GreaterThan' }],
        [{ Amount: 1.23456 }, { Amount: 'ScalePrecision' }],
        [{ Amount: 1e12 }, { Amount: 'LessThan' }],
        [{ Amount: 1, Type: 'Cash' }, { Type: 'Enum' }],
        [{ Amount: 1, Name: 'x'.repeat(256) }, { Name: 'Length' }],
      ];
      for (const [body, errors] of cases) {
        const res = await pay(t(), id, body);
        assert.equal(res.statusCode, 400, `${JSON.stringify(body)}: ${res.body}`);
        assert.deepEqual(fieldErrors(json(res)), errors, JSON.stringify(body));
        assert.equal((await pay(t(), 987654321, body)).statusCode, 400, 'validation before the existence check');
      }
      const notANumber = await refund(t(), id, { Amount: 'ten' });
      assert.equal(notANumber.statusCode, 400, notANumber.body);
      // Valid for some currency, not for the order's EUR: known once the order is read.
      const cents = await pay(t(), id, { Amount: 1.234 });
      assert.equal(cents.statusCode, 400, cents.body);
      assert.deepEqual(fieldErrors(json(cents)), { Amount: 'ScalePrecision' });
      assert.deepEqual(await records(t(), id), { payments: [], refunds: [] });
      assert.deepEqual(await orderRow(t(), id), { paid: '0.00', refunded: '0.00', payment_status: 'Unpaid' });
    });

    test('permission fulfilment or admin: a key with only all → 403', async () => {
      const id = await confirmedOrder(t());
      const fulfilment = (await createKey(t().app.writes, `warehouse-${unique()}`, 'fulfilment')).key;
      assert.equal((await pay(t(), id, { Amount: 1 }, bearer(fulfilment))).statusCode, 201);
      assert.equal((await refund(t(), id, { Amount: 1 }, bearer(t().keys.adminOnly))).statusCode, 201);
      const denied = await pay(t(), id, { Amount: 1 }, bearer(t().keys.all));
      assert.equal(denied.statusCode, 403, denied.body);
      assert.equal(
        (await t().inject({ url: `/orders/${id}`, headers: bearer(fulfilment) })).statusCode,
        403,
        'fulfilment alone reads nothing',
      );
    });

    test('an Idempotency-Key replays the first record, 422 with another body, 409 while the first runs', async () => {
      const id = await confirmedOrder(t(), { Amount: 30, Name: 'P' });
      const key = { 'idempotency-key': `pay-${unique()}` };
      const first = await pay(t(), id, { Amount: 2.5 }, key);
      assert.equal(first.statusCode, 201, first.body);
      const again = await pay(t(), id, { Amount: 2.5 }, key);
      assert.equal(again.statusCode, 201);
      assert.equal(again.headers['idempotent-replayed'], 'true');
      assert.equal(again.body, first.body);
      const other = await pay(t(), id, { Amount: 3 }, key);
      assert.equal(other.statusCode, 422, other.body);
      assert.equal(json(other).ResponseStatus.ErrorCode, 'IdempotencyKeyReused');
      const asRefund = await refund(t(), id, { Amount: 2.5 }, key);
      assert.equal(asRefund.statusCode, 422, 'another operation with the same key');
      assert.equal((await records(t(), id)).payments.length, 1);
      assert.deepEqual(await orderRow(t(), id), { paid: '32.50', refunded: '0.00', payment_status: 'Paid' });

      const refundKey = { 'idempotency-key': `refund-${unique()}` };
      const r1 = await refund(t(), id, { Amount: 32.5 }, refundKey);
      assert.equal(r1.statusCode, 201, r1.body);
      const r2 = await refund(t(), id, { Amount: 32.5 }, refundKey);
      assert.equal(r2.statusCode, 201, 'a replay, not a refund beyond what was paid');
      assert.equal(r2.body, r1.body);

      // A failed request frees its key: the retry runs again.
      const failKey = { 'idempotency-key': `fail-${unique()}` };
      assert.equal((await refund(t(), id, { Amount: 1 }, failKey)).statusCode, 400);
      assert.equal((await pay(t(), id, { Amount: 1 }, failKey)).statusCode, 201);

      const running = `running-${unique()}`;
      await t()
        .store.db.insertInto('idempotency_keys')
        .values({
          api_key_id: t().keys.admin.slice(0, 12),
          idempotency_key: running,
          operation: 'CreateOrderPayment',
          request_hash: 'in flight',
          state: 'running',
          response_status: null,
          response_body: null,
          created_at: Date.now(),
        })
        .execute();
      const busy = await pay(t(), id, { Amount: 1 }, { 'idempotency-key': running });
      assert.equal(busy.statusCode, 409, busy.body);
      assert.equal(json(busy).ResponseStatus.ErrorCode, 'IdempotencyKeyInUse');
    });

    test('an erasure keeps the records and nulls their personal fields; a replay then answers the erased record', async () => {
      const ext = `erase-${unique()}`;
      const id = await createOrder(t());
      const confirmed = await confirm(t(), id, confirmation({ ExternalCustomerId: ext }));
      const customerId = json(confirmed).CustomerId as string;
      const key = { 'idempotency-key': `erase-${unique()}` };
      assert.equal((await pay(t(), id, { Amount: 5, Name: 'Erika M.', ReferenceNumber: 'IBAN-REF' }, key)).statusCode, 201);
      assert.equal((await refund(t(), id, { Amount: 1, Reason: 'Late', ReferenceNumber: 'RF-ERIKA' })).statusCode, 201);
      const before = (await feedOrder(t(), id))!.LastModified;
      assert.equal((await t().inject({ method: 'POST', url: `/customer/${customerId}/erase` })).statusCode, 200);
      const { payments, refunds } = await records(t(), id);
      assert.deepEqual(
        payments.map((p) => [p.amount, p.name, p.reference_number]),
        [['5.00', null, null]],
      );
      assert.deepEqual(
        refunds.map((r) => [r.amount, r.reason, r.reference_number]),
        [['1.00', 'Late', null]],
      );
      assert.notEqual((await feedOrder(t(), id))!.LastModified, before);
      const replay = await pay(t(), id, { Amount: 5, Name: 'Erika M.', ReferenceNumber: 'IBAN-REF' }, key);
      assert.equal(replay.statusCode, 201);
      assert.equal(json(replay).Name, null);
      assert.equal(json(replay).ReferenceNumber, null);
    });
  },
  {},
  { pgbouncer: true },
);
