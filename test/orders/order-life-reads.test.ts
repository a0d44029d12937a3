import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { after, before, test } from 'node:test';
import { parse } from 'csv-parse/sync';
import { assertBuilt } from '../helpers/cli.js';
import { BIN } from '../helpers/root.js';
import { describeEachBackend, json, storeEnv, type TestApp } from '../helpers/test-app.js';
import { Receiver } from '../webhooks/receiver.js';
import { confirm, confirmation, createOrder, unique } from './order-fixtures.js';

// The order's life after its confirmation as every door shows it: GetOrder, the feed, the events and
// webhooks, the exports. Payments and refunds are recorded through the API; shipments and returns
// are written into their tables, which every read shows all the same.

type Order = Record<string, unknown> & { OrderId: number; Payments: unknown[]; Refunds: unknown[] };

const ENV = { WEBHOOK_ALLOW_PRIVATE: 'true', WEBHOOK_POLL_MS: '50', WEBHOOK_RETRY_SCHEDULE: '1,1', WEBHOOK_TIMEOUT_MS: '1000' };
const WCF = /^\/Date\(\d+-0000\)\/$/;

async function record(t: TestApp, orderId: number, kind: 'payments' | 'refunds', body: Record<string, unknown>) {
  const res = await t.inject({ method: 'POST', url: `/orders/${orderId}/${kind}`, payload: body });
  assert.equal(res.statusCode, 201, res.body);
  return json<Record<string, unknown>>(res);
}

/** A confirmed order of a customer of its own, paid 19.99 by its confirmation. */
async function confirmedOrder(t: TestApp): Promise<{ orderId: number; customerId: string }> {
  const orderId = await createOrder(t);
  const res = await confirm(
    t,
    orderId,
    confirmation({ ExternalCustomerId: `life-${unique()}`, Payment: { Amount: 19.99, Name: 'Anzahlung' } }),
  );
  assert.equal(res.statusCode, 200, res.body);
  return { orderId, customerId: json<{ CustomerId: string }>(res).CustomerId };
}

const getOrder = async (t: TestApp, orderId: number, query = ''): Promise<Order> => {
  const res = await t.inject(`/orders/${orderId}${query}`);
  assert.equal(res.statusCode, 200, res.body);
  return json(res);
};

const feedOf = async (t: TestApp, orderIds: readonly number[], query = ''): Promise<Order[]> => {
  const res = await t.inject(`/orders/?OrderIds=${orderIds.join(',')}${query}`);
  assert.equal(res.statusCode, 200, res.body);
  return json(res);
};

const withoutLastModified = ({ LastModified, ...rest }: Record<string, unknown>) => (assert.match(String(LastModified), WCF), rest);

/** The events of these types about the order, oldest first. */
const eventsOf = async (t: TestApp, orderId: number, types: string) =>
  json<Array<{ Id: string; Type: string; Data: Order }>>(await t.inject(`/events/?Types=${types}&Take=10000`)).filter(
    (e) => e.Data.OrderId === orderId,
  );

describeEachBackend(
  "the order's life read back: GetOrder, the feed, events, webhooks and exports",
  (t) => {
    let receiver: Receiver;
    before(async () => {
      receiver = await Receiver.start();
    });
    after(() => receiver.close());

    test('payments and refunds recorded through the API: in GetOrder, the feed, the event feed and a webhook, oldest first, as their 201 answers', async () => {
      const hook = await t().inject({ method: 'POST', url: '/webhooks', payload: { Url: receiver.url, Events: ['order.refund_created'] } });
      assert.equal(hook.statusCode, 201, hook.body);
      const from = receiver.received.length;
      const { orderId } = await confirmedOrder(t());
      const fresh = await getOrder(t(), orderId);
      assert.deepEqual(
        [fresh.PaymentStatus, fresh.FulfillmentStatus, fresh.Paid, fresh.Refunded, fresh.Payments, fresh.Refunds],
        ['Paid', 'Unfulfilled', 19.99, 0, [], []],
        "the confirmation's Payment is paid, and shown in the Confirmation, not as a record",
      );
      const p1 = await record(t(), orderId, 'payments', {
        Amount: 5,
        Type: 'PayPal',
        Name: 'Rest',
        ReferenceNumber: 'PP-1',
        Date: '2026-01-02T03:04:05Z',
      });
      const p2 = await record(t(), orderId, 'payments', { Amount: 0.01 });
      const r1 = await record(t(), orderId, 'refunds', { Amount: 2.5, Reason: 'Damaged', ReferenceNumber: 'RF-1' });
      assert.equal(p1.Date, '/Date(1767323045000-0000)/');

      const order = await getOrder(t(), orderId);
      assert.deepEqual(
        [order.PaymentStatus, order.FulfillmentStatus, order.Paid, order.Refunded],
        ['PartiallyRefunded', 'Unfulfilled', 25, 2.5],
      );
      assert.deepEqual(order.Payments, [p1, p2]);
      assert.deepEqual(order.Refunds, [r1]);
      assert.deepEqual([order.Shipments, order.Returns], [[], []]);
      assert.deepEqual(Object.keys(order).slice(-8), [
        'FulfillmentStatus',
        'PaymentStatus',
        'Shipments',
        'Payments',
        'Refunds',
        'Returns',
        'Paid',
        'Refunded',
      ]);

      const [item] = await feedOf(t(), [orderId]);
      assert.deepEqual(withoutLastModified(item!), order, 'the feed shows what GetOrder shows');
      // Other forms make the view afresh instead of splicing text: the same values.
      const [iso] = await feedOf(t(), [orderId], '&jsconfig=DateHandler:ISO8601');
      const isoPayments = iso!.Payments as Array<Record<string, unknown>>;
      assert.equal(isoPayments[0]!.Date, '2026-01-02T03:04:05.000Z');
      assert.deepEqual(
        isoPayments.map(({ Date: _date, ...rest }) => rest),
        [p1, p2].map(({ Date: _date, ...rest }) => rest),
      );

      // Each event holds the order after its change.
      const [afterSecond] = (await eventsOf(t(), orderId, 'order.payment_created')).slice(1);
      assert.deepEqual([afterSecond!.Data.Payments, afterSecond!.Data.Refunds, afterSecond!.Data.Paid], [[p1, p2], [], 25]);
      const [refunded] = await eventsOf(t(), orderId, 'order.refund_created');
      assert.deepEqual(withoutLastModified(refunded!.Data), order);

      const arrived = (await receiver.waitFor(from + 1)).slice(from);
      const delivered = arrived.map((r) => JSON.parse(r.body) as { Id: string; Data: Order }).find((e) => e.Data.OrderId === orderId);
      assert.ok(delivered, 'the webhook delivered the refund');
      assert.deepEqual(delivered.Data, refunded!.Data);
      assert.equal((await t().inject({ method: 'DELETE', url: `/webhooks/${json<{ Id: string }>(hook).Id}` })).statusCode, 204);
    });

    test('shipments and returns are read from their tables with their lines; each order shows only its own records', async () => {
      const { orderId } = await confirmedOrder(t());
      const other = await confirmedOrder(t());
      const db = t().store.db;
      const ship = async (order: number, carrier: string | null, at: number, lines: Array<[number, number]>) => {
        const row = await db
          .insertInto('order_shipments')
          .values({
            order_id: order,
            carrier,
            tracking_number: carrier && `${carrier}-1`,
            tracking_url: null,
            shipped_at: at,
            created_at: at,
          })
          .returning('shipment_id')
          .executeTakeFirstOrThrow();
        const id = Number(row.shipment_id);
        for (const [line_number, quantity] of lines)
          await db.insertInto('order_shipment_lines').values({ shipment_id: id, line_number, quantity }).execute();
        return id;
      };
      const first = await ship(orderId, 'DHL', 1_700_000_000_000, [
        [2, 1],
        [1, 3],
      ]);
      const second = await ship(orderId, null, 1_600_000_000_000, [[3, 1]]);
      const elsewhere = await ship(other.orderId, 'UPS', 1_700_000_000_000, [[1, 1]]);
      const back = await db
        .insertInto('order_returns')
        .values({ order_id: orderId, reason: 'Too small', received_at: 1_700_000_500_000, created_at: 1_700_000_500_000 })
        .returning('return_id')
        .executeTakeFirstOrThrow();
      await db.insertInto('order_return_lines').values({ return_id: back.return_id, line_number: 1, quantity: 2 }).execute();

      const order = await getOrder(t(), orderId);
      assert.deepEqual(order.Shipments, [
        {
          ShipmentId: first,
          OrderId: orderId,
          Lines: [
            { LineNumber: 1, Quantity: 3 },
            { LineNumber: 2, Quantity: 1 },
          ],
          Carrier: 'DHL',
          TrackingNumber: 'DHL-1',
          TrackingUrl: null,
          ShippedAt: '/Date(1700000000000-0000)/',
        },
        // Oldest first is the order they were recorded in, whatever date they give.
        {
          ShipmentId: second,
          OrderId: orderId,
          Lines: [{ LineNumber: 3, Quantity: 1 }],
          Carrier: null,
          TrackingNumber: null,
          TrackingUrl: null,
          ShippedAt: '/Date(1600000000000-0000)/',
        },
      ]);
      assert.deepEqual(order.Returns, [
        {
          ReturnId: Number(back.return_id),
          OrderId: orderId,
          Lines: [{ LineNumber: 1, Quantity: 2 }],
          Reason: 'Too small',
          ReceivedAt: '/Date(1700000500000-0000)/',
        },
      ]);
      const feed = await feedOf(t(), [orderId, other.orderId]);
      const byId = new Map(feed.map((o) => [o.OrderId, o]));
      assert.deepEqual(withoutLastModified(byId.get(orderId)!), order);
      assert.deepEqual(
        (byId.get(other.orderId)!.Shipments as Array<{ ShipmentId: number }>).map((s) => s.ShipmentId),
        [elsewhere],
      );
      assert.deepEqual(byId.get(other.orderId)!.Returns, []);
      const camel = json<Array<Record<string, unknown>>>(
        await t().inject({ url: `/orders/?OrderIds=${orderId}`, query: { jsconfig: 'EmitCamelCaseNames:true' } }),
      );
      assert.deepEqual((camel[0]!.shipments as Array<{ lines: unknown }>)[0]!.lines, [
        { lineNumber: 1, quantity: 3 },
        { lineNumber: 2, quantity: 1 },
      ]);
    });

    test("an erased customer's payments and refunds: Name and ReferenceNumber null in GetOrder, the feed and the kept event data; amounts stay", async () => {
      const { orderId, customerId } = await confirmedOrder(t());
      const secret = `Secret${unique()}`;
      await record(t(), orderId, 'payments', { Amount: 1, Name: `${secret}-name`, ReferenceNumber: `${secret}-ref` });
      await record(t(), orderId, 'refunds', { Amount: 1, Reason: 'Cancelled', ReferenceNumber: `${secret}-refund` });
      assert.ok(JSON.stringify(await eventsOf(t(), orderId, 'order.payment_created,order.refund_created')).includes(secret));
      assert.equal((await t().inject({ method: 'POST', url: `/customer/${customerId}/erase` })).statusCode, 200);

      const order = await getOrder(t(), orderId);
      const [payment] = order.Payments as Array<Record<string, unknown>>;
      const [refund] = order.Refunds as Array<Record<string, unknown>>;
      assert.deepEqual([payment!.Name, payment!.ReferenceNumber, payment!.Amount], [null, null, 1]);
      assert.deepEqual([refund!.ReferenceNumber, refund!.Reason, refund!.Amount], [null, 'Cancelled', 1]);
      assert.deepEqual([order.Paid, order.Refunded, order.PaymentStatus], [20.99, 1, 'PartiallyRefunded']);
      const events = await eventsOf(t(), orderId, 'order.payment_created,order.refund_created');
      assert.equal(events.length, 2);
      for (const e of events) {
        for (const p of e.Data.Payments as Array<Record<string, unknown>>)
          assert.deepEqual([p.Name, p.ReferenceNumber, p.Amount], [null, null, 1]);
      }
      assert.deepEqual((events[1]!.Data.Refunds as Array<Record<string, unknown>>)[0]!.ReferenceNumber, null);
      const answers = [
        JSON.stringify(events),
        JSON.stringify(await feedOf(t(), [orderId])),
        (await t().inject(`/customer/${customerId}/export`)).body,
      ];
      assert.ok(!answers.join('\n').includes(secret), 'no personal value of a record remains in an answer');
    });

    test('the privacy export and `orders export` (JSON Lines; CSV with PaymentStatus, FulfillmentStatus, Paid, Refunded) show it', async () => {
      assertBuilt();
      const since = (await t().inject('/orders/?Take=0')).headers['x-sync-watermark'] as string;
      const { orderId, customerId } = await confirmedOrder(t());
      const p = await record(t(), orderId, 'payments', { Amount: 0.5, Type: 'PayPal', Date: '2026-01-02T03:04:05Z' });
      const r = await record(t(), orderId, 'refunds', { Amount: 20.49 });
      const order = await getOrder(t(), orderId);
      assert.deepEqual([order.PaymentStatus, order.Paid, order.Refunded], ['Refunded', 20.49, 20.49]);

      const privacy = json<{ Orders: Order[] }>(await t().inject(`/customer/${customerId}/export`));
      assert.deepEqual(withoutLastModified(privacy.Orders.find((o) => o.OrderId === orderId)!), order);

      const cli = (format: string) => {
        const out = spawnSync(process.execPath, [BIN, 'orders', 'export', '--format', format, '--modified-after', since], {
          env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', ...storeEnv(t().config), LOG_LEVEL: 'silent' },
          encoding: 'utf8',
          timeout: 60_000,
        });
        assert.equal(out.status, 0, out.stderr);
        return out.stdout;
      };
      const lines = cli('jsonl')
        .trimEnd()
        .split('\n')
        .map((l) => JSON.parse(l) as Order);
      const exported = lines.find((o) => o.OrderId === orderId)!;
      assert.deepEqual([exported.Payments, exported.Refunds], [[p], [r]]);
      const rows = parse(cli('csv'), { columns: true }) as Array<Record<string, string>>;
      const row = rows.find((x) => x.OrderId === String(orderId))!;
      assert.deepEqual([row.PaymentStatus, row.FulfillmentStatus, row.Paid, row.Refunded], ['Refunded', 'Unfulfilled', '20.49', '20.49']);
      assert.ok(
        !Object.keys(row).some((c) => c.startsWith('Payments') || c.startsWith('Shipments')),
        'lists are no columns of a row per order',
      );
    });
  },
  ENV,
  { pgbouncer: true },
);
