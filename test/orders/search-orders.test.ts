import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { seedOrders } from '../../src/orders/order.seed.js';
import { describeEachBackend, json } from '../helpers/test-app.js';
import { watermarkOf } from '../customers/customer-helpers.js';
import { confirm, confirmation, createOrder, fieldErrors, unique } from './order-fixtures.js';

interface FeedOrder {
  OrderId: number;
  OrderNumber: string;
  Status: string;
  CustomerId: string | null;
  LastModified: string;
  [field: string]: unknown;
}

const orders = (res: LightMyRequestResponse): FeedOrder[] => {
  assert.equal(res.statusCode, 200, res.body);
  return json(res) as FeedOrder[];
};
const ids = (res: LightMyRequestResponse): number[] => orders(res).map((o) => o.OrderId);
const stampOf = (o: FeedOrder): number => Number(/Date\((\d+)/.exec(o.LastModified)![1]);

describeEachBackend(
  'SearchOrders: filters, every input form, order and shape',
  (t) => {
    const tag = unique();
    let open: number, confirmedId: number, cancelled: number, other: number;
    let customerId: string;
    before(async () => {
      open = await createOrder(t(), { OrderNumber: `${tag}-open` });
      confirmedId = await createOrder(t(), { OrderNumber: `${tag}-confirmed` });
      cancelled = await createOrder(t(), { OrderNumber: `${tag}-cancelled` });
      other = await createOrder(t(), { OrderNumber: `${tag}-other` });
      const res = await confirm(t(), confirmedId, confirmation({ ExternalCustomerId: `${tag}-ext` }));
      assert.equal(res.statusCode, 200, res.body);
      customerId = json(res).CustomerId;
      assert.equal((await t().inject({ method: 'POST', url: `/orders/${cancelled}/cancel` })).statusCode, 200);
    });

    test('each order has the GET /orders/{OrderId} shape plus LastModified; ordered by LastModified, then OrderId', async () => {
      const all = orders(await t().inject('/orders/'));
      assert.deepEqual(
        all.map((o) => o.OrderId).filter((id) => [open, confirmedId, cancelled, other].includes(id)),
        [open, other, confirmedId, cancelled],
      );
      for (const o of all) {
        const { LastModified, ...view } = o;
        assert.deepEqual(view, json(await t().inject(`/orders/${o.OrderId}`)));
        assert.match(LastModified, /^\/Date\(\d+-0000\)\/$/);
      }
      const keys = all.map((o) => [stampOf(o), o.OrderId] as const);
      assert.deepEqual(
        keys,
        [...keys].sort((a, b) => a[0] - b[0] || a[1] - b[1]),
      );
    });

    test('none → every order; an empty list filters nothing', async () => {
      const total = Number(
        (
          await t()
            .store.reader.selectFrom('orders')
            .select((eb) => eb.fn.countAll().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
      assert.equal(ids(await t().inject('/orders/')).length, total);
      assert.equal(ids(await t().inject('/orders/?OrderIds=&Statuses=')).length, total);
      assert.equal(
        ids(await t().inject({ method: 'POST', url: '/orders/search', payload: { OrderIds: [], CustomerIds: [] } })).length,
        total,
      );
    });

    test('each filter, and filters combined with AND', async () => {
      const mine = [open, confirmedId, cancelled, other];
      const within = (res: LightMyRequestResponse) => ids(res).filter((id) => mine.includes(id));
      assert.deepEqual(ids(await t().inject(`/orders/?OrderIds=${open},${cancelled}`)), [open, cancelled]);
      assert.deepEqual(ids(await t().inject(`/orders/?OrderNumbers=${tag}-other,${tag}-open`)), [open, other]);
      assert.deepEqual(ids(await t().inject(`/orders/?CustomerIds=${customerId}`)), [confirmedId]);
      assert.deepEqual(within(await t().inject('/orders/?Statuses=Cancelled')), [cancelled]);
      assert.deepEqual(within(await t().inject('/orders/?Statuses=Open,Confirmed')), [open, other, confirmedId]);
      assert.deepEqual(ids(await t().inject(`/orders/?OrderIds=${open},${confirmedId},${cancelled}&Statuses=Open,Cancelled`)), [
        open,
        cancelled,
      ]);
      assert.deepEqual(ids(await t().inject(`/orders/?OrderIds=${open}&OrderNumbers=${tag}-other`)), []);
      assert.deepEqual(ids(await t().inject(`/orders/?OrderIds=${open}&CustomerIds=${customerId}`)), []);
    });

    test('LastModifiedAfter is strict, in every wire date form', async () => {
      const all = orders(await t().inject(`/orders/?OrderIds=${open},${other},${confirmedId},${cancelled}`));
      const pivot = stampOf(all[1]!);
      const want = all.filter((o) => stampOf(o) > pivot).map((o) => o.OrderId);
      const iso = new Date(pivot).toISOString();
      for (const date of [`/Date(${pivot})/`, `\\/Date(${pivot})\\/`, `/Date(${pivot}+0100)/`, iso, iso.replace('Z', '')]) {
        const res = await t().inject(
          `/orders/?OrderIds=${all.map((o) => o.OrderId).join(',')}&LastModifiedAfter=${encodeURIComponent(date)}`,
        );
        assert.deepEqual(ids(res), want, date);
      }
    });

    const forms: Array<[string, () => InjectOptions | string]> = [
      ['query a,b', () => `/orders/?OrderIds=${open},${other}`],
      ['query [a,b]', () => `/orders/?OrderIds=[${open},${other}]`],
      ['repeated query keys', () => `/orders/?OrderIds=${open}&OrderIds=${other}`],
      ['query key in another casing', () => `/orders?orderids=${open},${other}`],
      ['JSON body', () => ({ method: 'POST', url: '/orders/search', payload: { OrderIds: [open, other] } })],
      [
        'JSON body, camelCase, ids as text',
        () => ({ method: 'POST', url: '/orders/search', payload: { orderIds: [String(open), String(other)] } }),
      ],
      [
        'JSON body as text/plain',
        () => ({
          method: 'POST',
          url: '/orders/search',
          headers: { 'content-type': 'text/plain' },
          payload: JSON.stringify({ OrderIds: [open, other] }),
        }),
      ],
      [
        'form body',
        () => ({
          method: 'POST',
          url: '/orders/search',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          payload: `OrderIds=${open},${other}`,
        }),
      ],
      [
        'form body, repeated keys',
        () => ({
          method: 'POST',
          url: '/orders/search',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          payload: `OrderIds=${open}&OrderIds=${other}`,
        }),
      ],
      ['/api/SearchOrders GET', () => `/api/SearchOrders?OrderIds=${open},${other}`],
      ['/api/SearchOrders POST', () => ({ method: 'POST', url: '/api/SearchOrders', payload: { OrderIds: [open, other] } })],
      ['/json/reply/SearchOrders GET', () => `/json/reply/SearchOrders?OrderIds=[${open},${other}]`],
      ['.json suffix', () => `/orders.json?OrderIds=${open},${other}`],
    ];
    for (const [name, request] of forms) {
      test(`input form: ${name}`, async () => {
        const res = await t().inject(request());
        assert.deepEqual(ids(res), [open, other]);
        assert.ok(res.headers['x-sync-watermark'], 'every answer carries the watermark');
      });
    }

    test('bad input → 400 naming the field', async () => {
      const bad = async (req: InjectOptions | string): Promise<Record<string, string>> => {
        const res = await t().inject(req);
        assert.equal(res.statusCode, 400, res.body);
        return fieldErrors(json(res));
      };
      assert.deepEqual(await bad('/orders/?Statuses=Open,Shipped'), { 'Statuses[1]': 'Enum' });
      assert.deepEqual(await bad('/orders/?OrderIds=1,x'), { OrderIds: 'SerializationException' });
      assert.deepEqual(await bad({ method: 'POST', url: '/orders/search', payload: { OrderIds: [1.5] } }), {
        OrderIds: 'SerializationException',
      });
      assert.deepEqual(await bad('/orders/?Take=-1'), { Take: 'GreaterThanOrEqual' });
      assert.deepEqual(await bad('/orders/?Skip=-1'), { Skip: 'GreaterThanOrEqual' });
      assert.deepEqual(await bad('/orders/?LastModifiedAfter=yesterday'), { LastModifiedAfter: 'SerializationException' });
      const many = Array.from({ length: 1001 }, (_, i) => i + 1);
      assert.deepEqual(await bad({ method: 'POST', url: '/orders/search', payload: { OrderIds: many } }), { OrderIds: 'Length' });
      assert.deepEqual(await bad({ method: 'POST', url: '/orders/search', payload: { OrderNumbers: many.map(String) } }), {
        OrderNumbers: 'Length',
      });
      assert.deepEqual(await bad({ method: 'POST', url: '/orders/search', payload: { CustomerIds: many.map(String) } }), {
        CustomerIds: 'Length',
      });
      // 1,000 entries are fine.
      assert.equal(
        (await t().inject({ method: 'POST', url: '/orders/search', payload: { OrderIds: many.slice(0, 1000) } })).statusCode,
        200,
      );
    });
  },
  {},
  { pgbouncer: true },
);

describeEachBackend(
  'SearchOrders: streaming in chunks, paging, the watermark',
  (t) => {
    const COUNT = 2500; // more than two keyset chunks
    let all: FeedOrder[] = [];
    before(async () => {
      await seedOrders(t().app.writes, COUNT);
      all = orders(await t().inject('/orders/'));
    });

    test('the whole result crosses chunk boundaries in order, each order once', async () => {
      assert.equal(all.length, COUNT);
      assert.equal(new Set(all.map((o) => o.OrderId)).size, COUNT);
      const keys = all.map((o) => [stampOf(o), o.OrderId] as const);
      assert.deepEqual(
        keys,
        [...keys].sort((a, b) => a[0] - b[0] || a[1] - b[1]),
      );
    });

    test('Take and Skip page the same order, also across a chunk boundary', async () => {
      for (const [skip, take] of [
        [0, 10],
        [995, 10],
        [1990, 1020],
        [2490, 50],
      ] as const) {
        const page = ids(await t().inject(`/orders/?Skip=${skip}&Take=${take}`));
        assert.deepEqual(
          page,
          all.slice(skip, skip + take).map((o) => o.OrderId),
          `Skip=${skip} Take=${take}`,
        );
      }
      assert.deepEqual(
        ids(await t().inject('/orders/?Skip=1500')),
        all.slice(1500).map((o) => o.OrderId),
      );
      assert.deepEqual(ids(await t().inject('/orders/?Take=0')), []);
    });

    test('the watermark: the committed stamp for a whole answer; a page covers only what it returned', async () => {
      const whole = await t().inject('/orders/');
      const watermark = watermarkOf(whole);
      assert.ok(watermark >= stampOf(all[all.length - 1]!));
      assert.deepEqual(ids(await t().inject(`/orders/?LastModifiedAfter=/Date(${watermark})/`)), []);
      const page = await t().inject('/orders/?Take=3');
      assert.ok(watermarkOf(page) < stampOf(all[3]!) || stampOf(all[3]!) === stampOf(all[2]!));
      const id = await createOrder(t());
      assert.deepEqual(ids(await t().inject(`/orders/?LastModifiedAfter=/Date(${watermark})/`)), [id]);
      // Skip returns no guarantee beyond LastModifiedAfter.
      assert.equal(watermarkOf(await t().inject(`/orders/?Skip=1&LastModifiedAfter=/Date(${watermark})/`)), watermark);
    });
  },
  {},
  { pgbouncer: true },
);
