import assert from 'node:assert/strict';
import { test } from 'node:test';
import { purgeEventsWrite } from '../../src/events/event.service.js';
import { customer, define, errorOf, freshNumber, setValue } from '../customfields/cf-helpers.js';
import { bearer, describeEachBackend, json, type TestApp } from '../helpers/test-app.js';
import { IBAN, MASKED_IBAN, confirm, confirmation, createOrder, unique } from '../orders/order-fixtures.js';

interface Event {
  Id: string;
  Type: string;
  Sequence: number;
  OccurredAt: string;
  Data: any;
}

async function events(t: TestApp, query = ''): Promise<Event[]> {
  const res = await t.inject(`/events/${query}`);
  assert.equal(res.statusCode, 200, res.body);
  return json(res);
}

const lastSequence = async (t: TestApp): Promise<number> => {
  let after = 0;
  for (;;) {
    const page = await events(t, `?After=${after}&Take=10000`);
    if (page.length === 0) return after;
    after = page.at(-1)!.Sequence;
  }
};

describeEachBackend(
  'the event feed',
  (t) => {
    test('orders: created, confirmed (with the customer), cancelled — each the resource after the change, bank data masked', async () => {
      const from = await lastSequence(t());
      const orderId = await createOrder(t());
      assert.equal((await confirm(t(), orderId, confirmation())).statusCode, 200);
      const order = json(await t().inject(`/orders/${orderId}`));
      assert.equal((await t().inject({ method: 'POST', url: `/orders/${orderId}/cancel` })).statusCode, 200);
      const got = await events(t(), `?After=${from}`);
      assert.deepEqual(
        got.map((e) => e.Type),
        ['order.created', 'customer.created', 'order.confirmed', 'order.cancelled'],
      );
      for (const e of got) {
        assert.match(e.Id, /^evt_[0-9a-f]{32}$/);
        assert.match(e.OccurredAt, /^\/Date\(\d+-0000\)\/$/);
      }
      assert.deepEqual(
        got.map((e) => e.Sequence),
        [from + 1, from + 2, from + 3, from + 4],
      );
      const [created, cust, confirmed, cancelled] = got as [Event, Event, Event, Event];
      assert.equal(created.Data.OrderId, orderId);
      assert.equal(created.Data.Status, 'Open');
      assert.equal(created.Data.Confirmation, null);
      // The confirmed order as GET /orders/{id} showed it then, plus LastModified (the event's time).
      const { LastModified, ...shape } = confirmed.Data;
      assert.deepEqual(shape, order);
      assert.equal(LastModified, confirmed.OccurredAt);
      assert.equal(confirmed.Data.Confirmation.CustomerIban, MASKED_IBAN);
      assert.ok(!JSON.stringify(got).includes(IBAN), 'a full IBAN in an event');
      assert.equal(cust.Data.CustomerId, order.CustomerId);
      assert.equal(cust.Data.LastName, confirmation().CustomerLastName);
      assert.equal(cancelled.Data.Status, 'Cancelled');
      // The order feed shows the same LastModified as the event of its last change.
      const [fed] = json(await t().inject(`/orders/?OrderIds=${orderId}`));
      assert.equal(fed.LastModified, cancelled.Data.LastModified);
    });

    test('customers and custom fields: created, updated, values changed, definitions defined and deleted', async () => {
      const id = `evt-${unique()}`;
      const number = freshNumber();
      const from = await lastSequence(t());
      await customer(t(), id);
      await customer(t(), id);
      await define(t(), number, { Label: 'Tier', FieldType: 'Text' });
      assert.equal((await setValue(t(), id, number, 'gold')).statusCode, 200);
      assert.equal((await t().inject({ method: 'DELETE', url: `/customfields/${number}` })).statusCode, 204);
      const got = await events(t(), `?After=${from}`);
      assert.deepEqual(
        got.map((e) => e.Type),
        ['customer.created', 'customer.updated', 'customfield.defined', 'customer.customfields_changed', 'customfield.deleted'],
      );
      assert.equal(got[0]!.Data.CustomerId, id);
      assert.equal(got[0]!.Data.FirstName, 'Test');
      assert.equal(Object.keys(got[0]!.Data).length, 14);
      assert.deepEqual(got[2]!.Data, { Number: number, Label: 'Tier', FieldType: 'Text', IsReadOnly: false, AllowedValues: null, Sort: 0 });
      assert.deepEqual(got[3]!.Data, { CustomerId: id, Numbers: [number] });
      assert.deepEqual(got[4]!.Data, got[2]!.Data);
    });

    test('a change that fails or rolls back writes no event', async () => {
      const from = await lastSequence(t());
      const orderId = await createOrder(t(), { OrderNumber: `E-${unique()}` });
      const number = json(await t().inject(`/orders/${orderId}`)).OrderNumber;
      assert.equal((await t().inject({ method: 'POST', url: '/orders', payload: { OrderNumber: number } })).statusCode, 409);
      assert.equal((await confirm(t(), orderId, confirmation({ CustomerId: 'no-such-customer' }))).statusCode, 400);
      assert.equal((await confirm(t(), 999_999_999, confirmation())).statusCode, 404);
      assert.equal((await setValue(t(), 'no-such-customer', 1, 'x')).statusCode, 404);
      assert.deepEqual(
        (await events(t(), `?After=${from}`)).map((e) => e.Type),
        ['order.created'],
      );
    });

    test('Types filters, Take pages, After continues; every Sequence once, ascending', async () => {
      for (let i = 0; i < 3; i++) await createOrder(t());
      const all = await events(t(), '?Take=10000');
      assert.deepEqual(
        all.map((e) => e.Sequence),
        [...new Set(all.map((e) => e.Sequence))].sort((a, b) => a - b),
      );
      const orders = await events(t(), '?Types=order.created,order.cancelled&Take=10000');
      assert.deepEqual(
        orders,
        all.filter((e) => e.Type === 'order.created' || e.Type === 'order.cancelled'),
      );
      const paged: Event[] = [];
      for (let after = 0; ;) {
        const page = await events(t(), `?After=${after}&Take=2`);
        assert.ok(page.length <= 2);
        if (page.length === 0) break;
        paged.push(...page);
        after = page.at(-1)!.Sequence;
      }
      assert.deepEqual(paged, all);
      assert.deepEqual(await events(t(), '?Take=0'), []);
      // The same answer on the predefined route and with camelCase as ServiceStack clients send it.
      assert.deepEqual(json(await t().inject('/api/GetEvents?after=0&take=10000')), all);
    });

    test('needs the permission all; bad After, Types and Take answer 400 naming the field', async () => {
      assert.equal((await t().inject({ url: '/events/', headers: bearer(t().keys.adminOnly) })).statusCode, 403);
      assert.equal((await t().inject({ url: '/events/', headers: bearer(t().keys.all) })).statusCode, 200);
      for (const [query, field] of [
        ['After=abc', 'After'],
        ['After=-1', 'After'],
        ['Types=order.shipped', 'Types'],
        ['Take=10001', 'Take'],
        ['Take=-1', 'Take'],
        ['Take=x', 'Take'],
      ] as const) {
        const status = await t().inject(`/events/?${query}`);
        assert.equal(status.statusCode, 400, `${query}: ${status.body}`);
        assert.ok(
          errorOf(status, 400).Errors.some((e) => e.FieldName === field || e.FieldName.startsWith(`${field}[`)),
          `${query}: ${status.body}`,
        );
      }
    });

    test('after the retention purge, an After below the purged events answers 410 EventsExpired; a newer one goes on', async () => {
      await createOrder(t());
      const last = await lastSequence(t());
      let purged = 0;
      for (let n; (n = await t().app.writes.run(purgeEventsWrite, Date.now() + 1000)) > 0;) purged += n;
      assert.ok(purged > 0);
      const expired = errorOf(await t().inject('/events/?After=0'), 410);
      assert.equal(expired.ErrorCode, 'EventsExpired');
      assert.equal(expired.Errors[0]?.FieldName, 'After');
      assert.deepEqual(await events(t(), `?After=${last}`), []);
      const orderId = await createOrder(t());
      const next = await events(t(), `?After=${last}`);
      assert.deepEqual(
        next.map((e) => [e.Type, e.Data.OrderId, e.Sequence]),
        [['order.created', orderId, last + 1]],
      );
    });
  },
  {},
  { pgbouncer: true },
);
