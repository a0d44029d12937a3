import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createKey } from '../../src/auth/index.js';
import { bearer, describeEachBackend, json, type TestApp } from '../helpers/test-app.js';
import { confirm, confirmation, createOrder, fieldErrors, unique } from './order-fixtures.js';

type Lines = Array<{ LineNumber: number; Quantity: number }>;

const post =
  (what: 'shipments' | 'returns') =>
  (t: TestApp, orderId: number, body: Record<string, unknown>, headers: Record<string, string> = {}) =>
    t.inject({ method: 'POST', url: `/orders/${orderId}/${what}`, payload: body, headers });
const ship = post('shipments');
const giveBack = post('returns');

const line = (Sku: string, Quantity: number) => ({ Sku, Name: `Article ${Sku}`, Quantity, UnitPrice: 5, TaxRate: 19 });

/** A confirmed order of three lines: 3 × A, 1 × B, 2 × C. */
async function confirmedOrder(t: TestApp): Promise<number> {
  const id = await createOrder(t, { Lines: [line('A', 3), line('B', 1), line('C', 2)] });
  const res = await confirm(t, id, confirmation({ ExternalCustomerId: `ship-${unique()}` }));
  assert.equal(res.statusCode, 200, res.body);
  return id;
}

const fulfillment = async (t: TestApp, orderId: number) =>
  (await t.store.db.selectFrom('orders').select('fulfillment_status').where('order_id', '=', orderId).executeTakeFirstOrThrow())
    .fulfillment_status;

/** What the order's records hold: each shipment's and return's lines as [LineNumber, Quantity]. */
async function records(t: TestApp, orderId: number) {
  const shipped = await t.store.db
    .selectFrom('order_shipment_lines as l')
    .innerJoin('order_shipments as s', 's.shipment_id', 'l.shipment_id')
    .select(['l.line_number', 'l.quantity'])
    .where('s.order_id', '=', orderId)
    .orderBy('l.shipment_id')
    .orderBy('l.line_number')
    .execute();
  const returned = await t.store.db
    .selectFrom('order_return_lines as l')
    .innerJoin('order_returns as r', 'r.return_id', 'l.return_id')
    .select(['l.line_number', 'l.quantity'])
    .where('r.order_id', '=', orderId)
    .orderBy('l.return_id')
    .orderBy('l.line_number')
    .execute();
  const pairs = (rows: Array<{ line_number: number; quantity: number }>) => rows.map((r) => [Number(r.line_number), Number(r.quantity)]);
  return { shipped: pairs(shipped), returned: pairs(returned) };
}

const lastModified = async (t: TestApp, orderId: number) =>
  json<Array<{ LastModified: string }>>(await t.inject(`/orders/?OrderIds=${orderId}`))[0]!.LastModified;

describeEachBackend(
  'shipments and returns of a confirmed order',
  (t) => {
    test('a shipment answers 201 with the record, moves the order and emits order.shipment_created; Lines omitted ships what is left', async () => {
      const id = await confirmedOrder(t());
      assert.equal(await fulfillment(t(), id), 'Unfulfilled');
      const before = await lastModified(t(), id);
      const res = await ship(t(), id, {
        Lines: [{ LineNumber: 1, Quantity: 2 }],
        Carrier: 'DHL',
        TrackingNumber: '0034',
        TrackingUrl: 'https://www.dhl.de/track?id=0034',
        ShippedAt: '2026-01-02T03:04:05Z',
      });
      assert.equal(res.statusCode, 201, res.body);
      const body = json(res);
      assert.equal(typeof body.ShipmentId, 'number');
      assert.deepEqual(
        { ...body, ShipmentId: 0 },
        {
          ShipmentId: 0,
          OrderId: id,
          Lines: [{ LineNumber: 1, Quantity: 2 }],
          Carrier: 'DHL',
          TrackingNumber: '0034',
          TrackingUrl: 'https://www.dhl.de/track?id=0034',
          ShippedAt: '/Date(1767323045000-0000)/',
        },
      );
      assert.equal(await fulfillment(t(), id), 'PartiallyFulfilled');
      assert.notEqual(await lastModified(t(), id), before);
      const events = json<Array<{ Data: { OrderId: number } }>>(await t().inject('/events/?Types=order.shipment_created'));
      assert.ok(events.some((e) => e.Data.OrderId === id));

      const rest = await ship(t(), id, {});
      assert.equal(rest.statusCode, 201, rest.body);
      assert.deepEqual(json<{ Lines: Lines }>(rest).Lines, [
        { LineNumber: 1, Quantity: 1 },
        { LineNumber: 2, Quantity: 1 },
        { LineNumber: 3, Quantity: 2 },
      ]);
      assert.equal(json(rest).Carrier, null);
      assert.equal(await fulfillment(t(), id), 'Fulfilled');

      const again = await ship(t(), id, {});
      assert.equal(again.statusCode, 409, again.body);
      assert.equal(json(again).ResponseStatus.ErrorCode, 'NothingToShip');
      const named = await ship(t(), id, { Lines: [{ LineNumber: 1, Quantity: 1 }] });
      assert.equal(json(named).ResponseStatus.ErrorCode, 'NothingToShip', 'nothing is left, whatever the lines say');
      assert.deepEqual((await records(t(), id)).shipped, [
        [1, 2],
        [1, 1],
        [2, 1],
        [3, 2],
      ]);
    });

    test('an order without lines has nothing to ship: 409 NothingToShip', async () => {
      const id = await createOrder(t());
      assert.equal((await confirm(t(), id, confirmation({ ExternalCustomerId: `empty-${unique()}` }))).statusCode, 200);
      const res = await ship(t(), id, {});
      assert.equal(res.statusCode, 409, res.body);
      assert.equal(json(res).ResponseStatus.ErrorCode, 'NothingToShip');
    });

    test('more than is left to ship, or a line the order lacks → 400 naming Lines[i], every bad line at once; nothing written', async () => {
      const id = await confirmedOrder(t());
      assert.equal((await ship(t(), id, { Lines: [{ LineNumber: 3, Quantity: 1 }] })).statusCode, 201);
      const before = await records(t(), id);
      const res = await ship(t(), id, {
        Lines: [
          { LineNumber: 1, Quantity: 3 },
          { LineNumber: 2, Quantity: 2 },
          { LineNumber: 3, Quantity: 2 },
        ],
      });
      assert.equal(res.statusCode, 400, res.body);
      assert.deepEqual(fieldErrors(json(res)), { 'Lines[1].Quantity': 'LessThanOrEqual', 'Lines[2].Quantity': 'LessThanOrEqual' });
      assert.match(json(res).ResponseStatus.Errors[1].Message, /'1'/, 'line 3 has 1 left');
      const unknown = await ship(t(), id, {
        Lines: [
          { LineNumber: 9, Quantity: 1 },
          { LineNumber: 1, Quantity: 9 },
        ],
      });
      assert.equal(unknown.statusCode, 400, unknown.body);
      assert.deepEqual(fieldErrors(json(unknown)), { 'Lines[0].LineNumber': 'Predicate' });
      assert.deepEqual(await records(t(), id), before);
      assert.equal(await fulfillment(t(), id), 'PartiallyFulfilled');
    });

    test('bad input → 400 naming the field, before the order is looked up; nothing written', async () => {
      const id = await confirmedOrder(t());
      const cases: Array<[Record<string, unknown>, Record<string, string>]> = [
        [{ TrackingUrl: 'ftp://example.com/x' }, { TrackingUrl: 'Predicate' }],
        [{ TrackingUrl: 'www.dhl.de/track' }, { TrackingUrl: 'Predicate' }],
        [{ Lines: [] }, { Lines: 'NotEmpty' }],
        [{ Lines: [{ LineNumber: 1, Quantity: 0 }] }, { 'Lines[0].Quantity': 'InclusiveBetween' }],
        [{ Lines: [{ LineNumber: 0, Quantity: 1 }] }, { 'Lines[0].LineNumber': 'GreaterThanOrEqual' }],
        [{ Lines: [{ LineNumber: 1 }] }, { 'Lines[0].Quantity': 'NotNull' }],
        [
          {
            Lines: [
              { LineNumber: 1, Quantity: 1 },
              { LineNumber: 1, Quantity: 1 },
            ],
          },
          { 'Lines[1].LineNumber': 'Predicate' },
        ],
        [{ Carrier: 'x'.repeat(256) }, { Carrier: 'Length' }],
      ];
      for (const [body, errors] of cases) {
        const res = await ship(t(), id, body);
        assert.equal(res.statusCode, 400, `${JSON.stringify(body)}: ${res.body}`);
        assert.deepEqual(fieldErrors(json(res)), errors, JSON.stringify(body));
        assert.equal((await ship(t(), 987654321, body)).statusCode, 400, 'validation before the existence check');
      }
      const half = await ship(t(), id, { Lines: [{ LineNumber: 1, Quantity: 1.5 }] });
      assert.equal(half.statusCode, 400, half.body);
      assert.equal(json(half).ResponseStatus.Errors[0].FieldName, 'Lines[0].Quantity');
      for (const body of [{}, { Lines: [] }, { Reason: 'x' }]) {
        const res = await giveBack(t(), id, body);
        assert.equal(res.statusCode, 400, res.body);
        assert.deepEqual(fieldErrors(json(res)), { Lines: 'NotEmpty' });
      }
      assert.deepEqual(await records(t(), id), { shipped: [], returned: [] });
      assert.equal(await fulfillment(t(), id), 'Unfulfilled');
    });

    test('returns: at most what was shipped and not yet returned; PartiallyReturned, then Returned', async () => {
      const id = await confirmedOrder(t());
      const early = await giveBack(t(), id, { Lines: [{ LineNumber: 1, Quantity: 1 }] });
      assert.equal(early.statusCode, 400, 'nothing shipped yet');
      assert.deepEqual(fieldErrors(json(early)), { 'Lines[0].Quantity': 'LessThanOrEqual' });
      assert.equal(
        (
          await ship(t(), id, {
            Lines: [
              { LineNumber: 1, Quantity: 2 },
              { LineNumber: 2, Quantity: 1 },
            ],
          })
        ).statusCode,
        201,
      );
      const res = await giveBack(t(), id, { Lines: [{ LineNumber: 1, Quantity: 1 }], Reason: 'Wrong size', ReceivedAt: '2026-01-05' });
      assert.equal(res.statusCode, 201, res.body);
      const body = json(res);
      assert.equal(typeof body.ReturnId, 'number');
      assert.deepEqual(
        { ...body, ReturnId: 0 },
        {
          ReturnId: 0,
          OrderId: id,
          Lines: [{ LineNumber: 1, Quantity: 1 }],
          Reason: 'Wrong size',
          ReceivedAt: '/Date(1767571200000-0000)/',
        },
      );
      assert.equal(await fulfillment(t(), id), 'PartiallyReturned');
      const events = json<Array<{ Data: { OrderId: number } }>>(await t().inject('/events/?Types=order.return_created'));
      assert.ok(events.some((e) => e.Data.OrderId === id));

      const tooMany = await giveBack(t(), id, {
        Lines: [
          { LineNumber: 1, Quantity: 2 },
          { LineNumber: 3, Quantity: 1 },
        ],
      });
      assert.equal(tooMany.statusCode, 400, tooMany.body);
      assert.deepEqual(fieldErrors(json(tooMany)), { 'Lines[0].Quantity': 'LessThanOrEqual', 'Lines[1].Quantity': 'LessThanOrEqual' });
      const unknown = await giveBack(t(), id, { Lines: [{ LineNumber: 4, Quantity: 1 }] });
      assert.deepEqual(fieldErrors(json(unknown)), { 'Lines[0].LineNumber': 'Predicate' });

      assert.equal(
        (
          await giveBack(t(), id, {
            Lines: [
              { LineNumber: 1, Quantity: 1 },
              { LineNumber: 2, Quantity: 1 },
            ],
          })
        ).statusCode,
        201,
      );
      assert.equal(await fulfillment(t(), id), 'Returned');
      assert.deepEqual(await records(t(), id), {
        shipped: [
          [1, 2],
          [2, 1],
        ],
        returned: [
          [1, 1],
          [1, 1],
          [2, 1],
        ],
      });
      // What was returned is not shipped again by "the rest": line 1 has one unit left, line 3 two.
      const rest = await ship(t(), id, {});
      assert.deepEqual(json<{ Lines: Lines }>(rest).Lines, [
        { LineNumber: 1, Quantity: 1 },
        { LineNumber: 3, Quantity: 2 },
      ]);
      assert.equal(await fulfillment(t(), id), 'PartiallyReturned');
    });

    test('an order that is not confirmed → 409 OrderNotConfirmed; unknown → 404; nothing written', async () => {
      const open = await createOrder(t(), { Lines: [line('A', 1)] });
      for (const send of [ship, giveBack]) {
        const res = await send(t(), open, { Lines: [{ LineNumber: 1, Quantity: 1 }] });
        assert.equal(res.statusCode, 409, res.body);
        assert.equal(json(res).ResponseStatus.ErrorCode, 'OrderNotConfirmed');
        assert.equal((await send(t(), 987654321, { Lines: [{ LineNumber: 1, Quantity: 1 }] })).statusCode, 404);
      }
      const cancelled = await confirmedOrder(t());
      assert.equal((await t().inject({ method: 'POST', url: `/orders/${cancelled}/cancel` })).statusCode, 200);
      assert.equal(json(await ship(t(), cancelled, {})).ResponseStatus.ErrorCode, 'OrderNotConfirmed');
      assert.deepEqual(await records(t(), open), { shipped: [], returned: [] });
      assert.deepEqual(await records(t(), cancelled), { shipped: [], returned: [] });
    });

    test('cancel of a confirmed order with shipments → 409 OrderShipped, the order stays confirmed', async () => {
      const id = await confirmedOrder(t());
      assert.equal((await ship(t(), id, { Lines: [{ LineNumber: 2, Quantity: 1 }] })).statusCode, 201);
      const before = await lastModified(t(), id);
      const res = await t().inject({ method: 'POST', url: `/orders/${id}/cancel` });
      assert.equal(res.statusCode, 409, res.body);
      assert.equal(json(res).ResponseStatus.ErrorCode, 'OrderShipped');
      const order = json(await t().inject(`/orders/${id}`));
      assert.deepEqual([order.Status, order.CancelledAt], ['Confirmed', null]);
      assert.equal(await lastModified(t(), id), before);
      // Even once everything came back: the order was shipped.
      assert.equal((await giveBack(t(), id, { Lines: [{ LineNumber: 2, Quantity: 1 }] })).statusCode, 201);
      assert.equal(json(await t().inject({ method: 'POST', url: `/orders/${id}/cancel` })).ResponseStatus.ErrorCode, 'OrderShipped');
    });

    test('the feed filters by FulfillmentStatuses', async () => {
      const [none, part, full] = [await confirmedOrder(t()), await confirmedOrder(t()), await confirmedOrder(t())];
      assert.equal((await ship(t(), part, { Lines: [{ LineNumber: 1, Quantity: 1 }] })).statusCode, 201);
      assert.equal((await ship(t(), full, {})).statusCode, 201);
      const ids = `${none},${part},${full}`;
      const having = async (q: string) =>
        json<Array<{ OrderId: number }>>(await t().inject(`/orders/?OrderIds=${ids}&FulfillmentStatuses=${q}`))
          .map((o) => o.OrderId)
          .sort((a, b) => a - b);
      assert.deepEqual(await having('Unfulfilled'), [none]);
      assert.deepEqual(await having('PartiallyFulfilled'), [part]);
      assert.deepEqual(
        await having('Fulfilled,Unfulfilled'),
        [none, full].sort((a, b) => a - b),
      );
      assert.equal((await giveBack(t(), full, { Lines: [{ LineNumber: 3, Quantity: 2 }] })).statusCode, 201);
      assert.deepEqual(await having('PartiallyReturned'), [full]);
      assert.deepEqual(await having('Returned'), []);
      const bad = await t().inject('/orders/?FulfillmentStatuses=Shipped');
      assert.equal(bad.statusCode, 400, bad.body);
      assert.match(json(bad).ResponseStatus.Errors[0].FieldName, /^FulfillmentStatuses/);
    });

    test('permission fulfilment or admin: a key with only all → 403', async () => {
      const id = await confirmedOrder(t());
      const fulfilment = (await createKey(t().app.writes, `warehouse-${unique()}`, 'fulfilment')).key;
      assert.equal((await ship(t(), id, { Lines: [{ LineNumber: 1, Quantity: 1 }] }, bearer(fulfilment))).statusCode, 201);
      assert.equal((await giveBack(t(), id, { Lines: [{ LineNumber: 1, Quantity: 1 }] }, bearer(t().keys.adminOnly))).statusCode, 201);
      const denied = await ship(t(), id, {}, bearer(t().keys.all));
      assert.equal(denied.statusCode, 403, denied.body);
      assert.deepEqual((await records(t(), id)).shipped, [[1, 1]]);
    });

    test('an Idempotency-Key replays the first record, 422 with another body or operation; a failed request frees it', async () => {
      const id = await confirmedOrder(t());
      const key = { 'idempotency-key': `ship-${unique()}` };
      const twoLines = {
        Lines: [
          { LineNumber: 2, Quantity: 1 },
          { LineNumber: 1, Quantity: 1 },
        ],
        Carrier: 'DHL',
      };
      const first = await ship(t(), id, twoLines, key);
      assert.equal(first.statusCode, 201, first.body);
      assert.deepEqual(json<{ Lines: Lines }>(first).Lines, [
        { LineNumber: 1, Quantity: 1 },
        { LineNumber: 2, Quantity: 1 },
      ]);
      const again = await ship(t(), id, twoLines, key);
      assert.equal(again.statusCode, 201);
      assert.equal(again.headers['idempotent-replayed'], 'true');
      assert.equal(again.body, first.body);
      const other = await ship(t(), id, { Lines: [{ LineNumber: 1, Quantity: 2 }], Carrier: 'DHL' }, key);
      assert.equal(other.statusCode, 422, other.body);
      assert.equal(json(other).ResponseStatus.ErrorCode, 'IdempotencyKeyReused');
      assert.equal((await giveBack(t(), id, { Lines: [{ LineNumber: 1, Quantity: 1 }] }, key)).statusCode, 422, 'another operation');
      assert.deepEqual((await records(t(), id)).shipped, [
        [1, 1],
        [2, 1],
      ]);

      const returnKey = { 'idempotency-key': `return-${unique()}` };
      const r1 = await giveBack(t(), id, { Lines: [{ LineNumber: 1, Quantity: 1 }] }, returnKey);
      assert.equal(r1.statusCode, 201, r1.body);
      const r2 = await giveBack(t(), id, { Lines: [{ LineNumber: 1, Quantity: 1 }] }, returnKey);
      assert.equal(r2.statusCode, 201, 'a replay, not a return beyond what was shipped');
      assert.equal(r2.body, r1.body);

      const failKey = { 'idempotency-key': `fail-${unique()}` };
      assert.equal((await ship(t(), id, { Lines: [{ LineNumber: 1, Quantity: 5 }] }, failKey)).statusCode, 400);
      assert.equal((await ship(t(), id, {}, failKey)).statusCode, 201);
      assert.equal(await fulfillment(t(), id), 'PartiallyReturned');
    });
  },
  {},
  { pgbouncer: true },
);
