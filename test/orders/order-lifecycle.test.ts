import assert from 'node:assert/strict';
import { test } from 'node:test';
import { seedOrderNumber, seedOrders } from '../../src/orders/order.seed.js';
import { bearer, describeEachBackend, json } from '../helpers/test-app.js';
import { MASKED_IBAN, confirm, confirmation, createOrder, unique } from './order-fixtures.js';

const ORDER_KEYS = [
  'OrderId',
  'OrderNumber',
  'Status',
  'CustomerId',
  'CreatedAt',
  'ConfirmedAt',
  'CancelledAt',
  'Note',
  'Confirmation',
  'Currency',
  'PricesIncludeTax',
  'Lines',
  'Shipping',
  'Totals',
  'FulfillmentStatus',
  'PaymentStatus',
  'Shipments',
  'Payments',
  'Refunds',
  'Returns',
  'Paid',
  'Refunded',
];
const WCF = /^\/Date\(\d+-0000\)\/$/;

describeEachBackend(
  'orders: create, read, cancel, and confirmation by state',
  (t) => {
    test('POST /orders: 201 with a generated number, or the given unique one; a duplicate is a 409 on OrderNumber', async () => {
      const res = await t().inject({ method: 'POST', url: '/orders', payload: {} });
      assert.equal(res.statusCode, 201);
      const created = json(res);
      assert.deepEqual(Object.keys(created), ['OrderId', 'OrderNumber', 'Status']);
      assert.equal(created.OrderNumber, `ORD-${String(created.OrderId).padStart(6, '0')}`);
      assert.equal(created.Status, 'Open');
      const number = `N-${unique()}`;
      const given = json(await t().inject({ method: 'POST', url: '/orders', payload: { OrderNumber: number, Note: 'call first' } }));
      assert.equal(given.OrderNumber, number);
      const dup = await t().inject({ method: 'POST', url: '/orders', payload: { OrderNumber: number } });
      assert.equal(dup.statusCode, 409);
      assert.equal(json(dup).ResponseStatus.ErrorCode, 'DuplicateOrderNumber');
      assert.equal(json(dup).ResponseStatus.Errors[0].FieldName, 'OrderNumber');
    });

    test("the order's own Note: shown by GetOrder and the feed as given, an empty one as null; beside the confirmation's Note once confirmed", async () => {
      const noted = json(await t().inject({ method: 'POST', url: '/orders', payload: { Note: 'call first, "then" ship' } })).OrderId;
      const empty = json(await t().inject({ method: 'POST', url: '/orders', payload: { Note: '' } })).OrderId;
      const shown = async (id: number) => json(await t().inject({ url: `/orders/${id}`, headers: bearer(t().keys.all) }));
      assert.equal((await shown(noted)).Note, 'call first, "then" ship');
      assert.equal((await shown(empty)).Note, null);
      assert.equal((await confirm(t(), noted, confirmation({ Note: 'ring twice' }))).statusCode, 200);
      const confirmed = await shown(noted);
      assert.equal(confirmed.Note, 'call first, "then" ship', 'the confirmation leaves the order’s note');
      assert.equal(confirmed.Confirmation.Note, 'ring twice');
      // The feed's default form is spliced from kept text; camelCase and ISO dates are written from the view.
      for (const query of ['', '&jsconfig=TextCase:CamelCase,DateHandler:ISO8601']) {
        const feed = json(await t().inject({ url: `/orders/?OrderIds=${noted},${empty}${query}`, headers: bearer(t().keys.all) }));
        assert.equal(feed.length, 2, query);
        const notes = Object.fromEntries(
          feed.map((o: Record<string, unknown>) => ('Note' in o ? [o.OrderId, o.Note] : [o.orderId, o.note])),
        );
        assert.deepEqual(notes, { [noted]: 'call first, "then" ship', [empty]: null }, query);
      }
    });

    test('a generated number taken by hand before gets a suffix', async () => {
      const next = json(await t().inject({ method: 'POST', url: '/orders', payload: {} })).OrderId + 1;
      const taken = `ORD-${String(next + 1).padStart(6, '0')}`;
      const hand = json(await t().inject({ method: 'POST', url: '/orders', payload: { OrderNumber: taken } }));
      assert.equal(hand.OrderId, next);
      const generated = json(await t().inject({ method: 'POST', url: '/orders', payload: {} }));
      assert.equal(generated.OrderNumber, `${taken}-2`);
    });

    test('POST /orders checks lengths and needs admin', async () => {
      const bad = await t().inject({ method: 'POST', url: '/orders', payload: { OrderNumber: 'x'.repeat(256), Note: 'n'.repeat(1001) } });
      assert.equal(bad.statusCode, 400);
      assert.deepEqual(
        json(bad).ResponseStatus.Errors.map((e: { FieldName: string }) => e.FieldName),
        ['OrderNumber', 'Note'],
      );
      const forbidden = await t().inject({ method: 'POST', url: '/orders', payload: {}, headers: bearer(t().keys.all) });
      assert.equal(forbidden.statusCode, 403);
    });

    test('GET /orders/{id}: the flat shape, nulls while open; unknown is 404, a non-number 400', async () => {
      const id = await createOrder(t());
      const res = await t().inject({ url: `/orders/${id}`, headers: bearer(t().keys.all) });
      assert.equal(res.statusCode, 200);
      const order = json(res);
      assert.deepEqual(Object.keys(order), ORDER_KEYS);
      assert.equal(order.Status, 'Open');
      assert.match(order.CreatedAt, WCF);
      assert.deepEqual(
        [order.CustomerId, order.ConfirmedAt, order.CancelledAt, order.Note, order.Confirmation],
        [null, null, null, null, null],
      );
      assert.deepEqual(
        [
          order.FulfillmentStatus,
          order.PaymentStatus,
          order.Shipments,
          order.Payments,
          order.Refunds,
          order.Returns,
          order.Paid,
          order.Refunded,
        ],
        ['Unfulfilled', 'Unpaid', [], [], [], [], 0, 0],
      );
      assert.equal((await t().inject('/orders/999999999')).statusCode, 404);
      assert.equal(json(await t().inject('/orders/x1')).ResponseStatus.ErrorCode, 'SerializationException');
    });

    test('open → 200 with exactly the answer fields; the same body again → the same 200; a different body → 409', async () => {
      const id = await createOrder(t());
      const res = await confirm(t(), id, confirmation(), bearer(t().keys.all));
      assert.equal(res.statusCode, 200, res.body);
      const first = json(res);
      assert.deepEqual(Object.keys(first), ['OrderId', 'OrderNumber', 'Status', 'CustomerId', 'ConfirmedAt']);
      assert.equal(first.OrderId, id);
      assert.equal(first.Status, 'Confirmed');
      assert.match(first.ConfirmedAt, WCF);
      assert.ok(res.body.includes('"\\/Date('), 'dates are written with escaped slashes');
      const again = await confirm(t(), id, confirmation());
      assert.equal(again.statusCode, 200);
      assert.equal(again.body, res.body);
      // The same data in other clothes (casing, date form, IBAN spacing) is the same request.
      const sameData = confirmation({ CustomerSepaMandateDate: '2023-11-14T22:13:20Z', CustomerIban: 'DE89 3704 0044 0532 0130 00' });
      const lower = Object.fromEntries(Object.entries(sameData).map(([k, v]) => [k.toLowerCase(), v]));
      assert.equal((await confirm(t(), id, lower)).body, res.body);
      const different = await confirm(t(), id, confirmation({ CustomerCity: 'Bonn' }));
      assert.equal(different.statusCode, 409);
      assert.equal(json(different).ResponseStatus.ErrorCode, 'AlreadyConfirmed');
    });

    test('GET shows the confirmation: every field, IBAN masked, dates in the date style', async () => {
      const id = await createOrder(t());
      const customerId = json(await confirm(t(), id, confirmation())).CustomerId;
      const order = json(await t().inject(`/orders/${id}`));
      assert.equal(order.Status, 'Confirmed');
      assert.equal(order.CustomerId, customerId);
      assert.match(order.ConfirmedAt, WCF);
      assert.equal(order.Confirmation.CustomerIban, MASKED_IBAN);
      assert.equal(order.Confirmation.CustomerBic, 'COBA****XXX');
      assert.equal(order.Confirmation.CustomerSepaMandateReference, '***');
      assert.equal(order.Confirmation.AccountHolderName, '***');
      assert.equal(order.Confirmation.CustomerId, null);
      assert.equal(order.Confirmation.ExternalCustomerId, null);
      assert.equal(order.Confirmation.CustomerSepaMandateDate, '/Date(1700000000000-0000)/');
      assert.deepEqual(order.Confirmation.Payment, {
        Amount: 19.99,
        Name: 'Anzahlung',
        Date: '/Date(1709287200000-0000)/',
        ReferenceNumber: 'R-1',
        FinancialAccountNumber: '1200',
        Type: 'PayPal',
      });
      assert.equal(Object.keys(order.Confirmation).length, 36);
      const iso = json(await t().inject(`/orders/${id}?jsconfig=DateHandler:ISO8601`));
      assert.equal(iso.Confirmation.CustomerSepaMandateDate, '2023-11-14T22:13:20.000Z');
    });

    test('cancel: open → Cancelled; again → the same; a cancelled order cannot be confirmed (409); unknown → 404', async () => {
      const id = await createOrder(t());
      const res = await t().inject({ method: 'POST', url: `/orders/${id}/cancel` });
      assert.equal(res.statusCode, 200);
      const cancelled = json(res);
      assert.equal(cancelled.Status, 'Cancelled');
      assert.match(cancelled.CancelledAt, WCF);
      const again = json(await t().inject({ method: 'POST', url: `/orders/${id}/cancel` }));
      assert.equal(again.CancelledAt, cancelled.CancelledAt);
      const conf = await confirm(t(), id, confirmation());
      assert.equal(conf.statusCode, 409);
      assert.equal(json(conf).ResponseStatus.ErrorCode, 'OrderCancelled');
      assert.equal((await t().inject({ method: 'POST', url: '/orders/999999999/cancel' })).statusCode, 404);
      assert.equal((await t().inject({ method: 'POST', url: `/orders/${id}/cancel`, headers: bearer(t().keys.all) })).statusCode, 403);
    });

    test('a confirmed order can be cancelled; then a retry of its confirmation is a 409', async () => {
      const id = await createOrder(t());
      assert.equal((await confirm(t(), id, confirmation())).statusCode, 200);
      const cancelled = json(await t().inject({ method: 'POST', url: `/orders/${id}/cancel` }));
      assert.equal(cancelled.Status, 'Cancelled');
      assert.notEqual(cancelled.ConfirmedAt, null);
      assert.equal((await confirm(t(), id, confirmation())).statusCode, 409);
    });

    test('unknown order → 404; permission all is needed to confirm', async () => {
      assert.equal((await confirm(t(), 999999999, confirmation())).statusCode, 404);
      const forbidden = await confirm(t(), await createOrder(t()), confirmation(), bearer(t().keys.adminOnly));
      assert.equal(forbidden.statusCode, 403);
      assert.equal((await confirm(t(), await createOrder(t()), confirmation(), { authorization: '' })).statusCode, 401);
    });

    test('the predefined routes and batches confirm too, with OrderId in the body', async () => {
      const [a, b, c, d] = [await createOrder(t()), await createOrder(t()), await createOrder(t()), await createOrder(t())];
      const api = await t().inject({
        method: 'POST',
        url: '/api/ConfirmOrder',
        payload: confirmation({ OrderId: a }),
        headers: { 'content-type': 'text/plain' },
      });
      assert.equal(json(api).OrderId, a);
      const reply = await t().inject({ method: 'POST', url: '/json/reply/confirmorder', payload: confirmation({ OrderId: b }) });
      assert.equal(json(reply).Status, 'Confirmed');
      const batch = await t().inject({
        method: 'POST',
        url: '/api/ConfirmOrder[]',
        payload: [confirmation({ OrderId: c }), confirmation({ OrderId: d })],
      });
      assert.deepEqual(
        json(batch).map((r: { OrderId: number }) => r.OrderId),
        [c, d],
      );
      const missing = await t().inject({ method: 'POST', url: '/api/ConfirmOrder', payload: confirmation() });
      assert.equal(json(missing).ResponseStatus.Errors[0].FieldName, 'OrderId');
    });

    test('camelCase on request', async () => {
      const res = await confirm(t(), await createOrder(t()), confirmation());
      const id = json(res).OrderId;
      const camel = json(await t().inject(`/orders/${id}?jsconfig=EmitCamelCaseNames:true`));
      assert.equal(camel.orderId, id);
      assert.equal(camel.confirmation.customerIban, MASKED_IBAN);
    });

    test('seeding creates open orders once', async () => {
      // The suite's database is fresh and no other test here seeds: the three seed orders are new.
      const seeded = () =>
        t().store.db.selectFrom('orders').select('order_number').where('order_number', 'like', 'SEED-%').orderBy('order_number').execute();
      assert.deepEqual(await seeded(), []);
      assert.equal(await seedOrders(t().app.writes, 3), 3);
      assert.equal(await seedOrders(t().app.writes, 3), 0);
      assert.deepEqual(
        (await seeded()).map((r) => r.order_number),
        [1, 2, 3].map(seedOrderNumber),
      );
      const row = await t()
        .store.db.selectFrom('orders')
        .selectAll()
        .where('order_number', '=', seedOrderNumber(2))
        .executeTakeFirstOrThrow();
      assert.equal(row.status, 'Open');
      const res = await confirm(t(), Number(row.order_id), confirmation());
      assert.equal(res.statusCode, 200);
    });
  },
  {},
  { pgbouncer: true },
);
