import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { minorDigitsOf, orderAmounts, orderAmountsWire, readOrderContent } from '../../src/money/index.js';
import { FieldRules } from '../../src/wire/field-rules.js';
import { bearer, describeEachBackend, json, type TestApp } from '../helpers/test-app.js';
import { confirm, confirmation, createOrder, unique } from './order-fixtures.js';

// An order's content (docs/orders.md, "Content") through HTTP: what CreateOrder and UpdateOrder take,
// what every read shows, the feed's filters, the events, and the bad input that writes nothing.

const CONTENT = {
  Currency: 'EUR',
  Lines: [
    { Sku: 'PEN', Name: 'Pen', Quantity: 3, UnitPrice: 0.1, TaxRate: 19 },
    { Sku: 'BOOK', Name: 'Book', Quantity: 1, UnitPrice: 12.5, TaxRate: 7, Discount: 1.5 },
  ],
  Shipping: { Name: 'DHL', Amount: 4.9, TaxRate: 19 },
};

/** The view of the content the money module computes for a request: what the API must show. */
function expectedContent(request: Record<string, unknown>, defaultCurrency = 'EUR') {
  const rules = new FieldRules();
  const content = readOrderContent(rules, request, defaultCurrency);
  assert.deepEqual(rules.errors, []);
  const wire = orderAmountsWire(orderAmounts(content!), minorDigitsOf(content!.Currency)!);
  const lines = (request.Lines ?? []) as Array<Record<string, unknown>>;
  const shipping = request.Shipping as Record<string, unknown> | undefined;
  return {
    Currency: content!.Currency,
    PricesIncludeTax: content!.PricesIncludeTax,
    Lines: lines.map((l, i) => {
      const { LineNumber, ...amounts } = wire.Lines[i]!;
      return {
        LineNumber,
        Sku: l.Sku,
        Name: l.Name,
        Quantity: l.Quantity,
        UnitPrice: l.UnitPrice,
        TaxRate: l.TaxRate,
        Discount: l.Discount ?? 0,
        ...amounts,
      };
    }),
    Shipping: shipping ? { Name: shipping.Name ?? null, Amount: shipping.Amount, TaxRate: shipping.TaxRate, ...wire.Shipping } : null,
    Totals: wire.Totals,
  };
}

const contentOf = (order: Record<string, unknown>) => ({
  Currency: order.Currency,
  PricesIncludeTax: order.PricesIncludeTax,
  Lines: order.Lines,
  Shipping: order.Shipping,
  Totals: order.Totals,
});

const errorsOf = (body: string): Record<string, string> =>
  Object.fromEntries(
    (JSON.parse(body).ResponseStatus.Errors as Array<{ FieldName: string; ErrorCode: string }>).map((e) => [e.FieldName, e.ErrorCode]),
  );

async function getOrder(app: TestApp, id: number): Promise<Record<string, unknown>> {
  const res = await app.inject({ url: `/orders/${id}`, headers: bearer(app.keys.all) });
  assert.equal(res.statusCode, 200, res.body);
  return json(res);
}

async function orderRows(app: TestApp): Promise<{ orders: number; lines: number }> {
  const count = async (table: 'orders' | 'order_lines') =>
    Number(
      (
        await app.store.reader
          .selectFrom(table)
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
  return { orders: await count('orders'), lines: await count('order_lines') };
}

describeEachBackend(
  'orders with content: lines, currency, totals',
  (t) => {
    test('CreateOrder takes lines and shipping; GetOrder shows them with the amounts the money module computes', async () => {
      const id = await createOrder(t(), CONTENT);
      const order = await getOrder(t(), id);
      assert.deepEqual(contentOf(order), expectedContent(CONTENT));
      // 3 × 0.10 + 12.50 − 1.50 + 4.90: 19 % on 5.20, 7 % on 11.00.
      assert.deepEqual(order.Totals, {
        Net: 16.2,
        Tax: 1.76,
        Gross: 17.96,
        Discount: 1.5,
        TaxBreakdown: [
          { TaxRate: 7, Net: 11, Tax: 0.77 },
          { TaxRate: 19, Net: 5.2, Tax: 0.99 },
        ],
      });
      const lines = await t()
        .store.reader.selectFrom('order_lines')
        .selectAll()
        .where('order_id', '=', id)
        .orderBy('line_number')
        .execute();
      assert.deepEqual(
        lines.map((l) => [l.line_number, l.sku, Number(l.quantity), l.unit_price, Number(l.tax_rate), l.discount, l.net, l.tax, l.gross]),
        [
          [1, 'PEN', 3, '0.10', 1900, '0.00', '0.30', '0.06', '0.36'],
          [2, 'BOOK', 1, '12.50', 700, '1.50', '11.00', '0.77', '11.77'],
        ],
      );
    });

    test('an order without content: EUR, no lines, no shipping, zero totals; JPY and KWD keep their digits', async () => {
      const order = await getOrder(t(), await createOrder(t()));
      assert.deepEqual(contentOf(order), {
        Currency: 'EUR',
        PricesIncludeTax: false,
        Lines: [],
        Shipping: null,
        Totals: { Net: 0, Tax: 0, Gross: 0, Discount: 0, TaxBreakdown: [] },
      });
      const yen = {
        Currency: 'JPY',
        PricesIncludeTax: true,
        Lines: [{ Sku: 'TEA', Name: 'Tea', Quantity: 3, UnitPrice: 1080, TaxRate: 8 }],
      };
      assert.deepEqual(contentOf(await getOrder(t(), await createOrder(t(), yen))), expectedContent(yen));
      const dinar = { Currency: 'KWD', Lines: [{ Sku: 'OIL', Name: 'Oil', Quantity: 7, UnitPrice: 1.255, TaxRate: 5 }] };
      const kwd = await getOrder(t(), await createOrder(t(), dinar));
      assert.deepEqual(contentOf(kwd), expectedContent(dinar));
      assert.deepEqual(kwd.Totals, {
        Net: 8.785,
        Tax: 0.439,
        Gross: 9.224,
        Discount: 0,
        TaxBreakdown: [{ TaxRate: 5, Net: 8.785, Tax: 0.439 }],
      });
    });

    test('bad content: 400 with one entry per bad field, named by its path; nothing written', async () => {
      const before = await orderRows(t());
      const res = await t().inject({
        method: 'POST',
        url: '/orders',
        payload: {
          OrderNumber: `BAD-${unique()}`,
          Currency: 'XYZ',
          Lines: [
            { Sku: 'A', Name: 'a', Quantity: 1, UnitPrice: 1, TaxRate: 19 },
            { Sku: '', Name: 'b', Quantity: 1, UnitPrice: 1, TaxRate: 19 },
            { Sku: 'C', Name: 'c', Quantity: 0, UnitPrice: 1, TaxRate: 100.5 },
          ],
          Shipping: { Amount: -1, TaxRate: 7.125 },
        },
      });
      assert.equal(res.statusCode, 400, res.body);
      assert.equal(JSON.parse(res.body).ResponseStatus.ErrorCode, 'Currency', 'the first bad field is the currency');
      assert.deepEqual(errorsOf(res.body), {
        Currency: 'Currency',
        'Lines[1].Sku': 'NotEmpty',
        'Lines[2].Quantity': 'InclusiveBetween',
        'Lines[2].TaxRate': 'InclusiveBetween',
        'Shipping.Amount': 'GreaterThanOrEqual',
        'Shipping.TaxRate': 'ScalePrecision',
      });
      const digits = await t().inject({
        method: 'POST',
        url: '/orders',
        payload: {
          Lines: [
            { Sku: 'A', Name: 'a', Quantity: 1, UnitPrice: 0.105, TaxRate: 19 },
            { Sku: 'B', Name: 'b', Quantity: 1_000_001, UnitPrice: 1e12, TaxRate: 19, Discount: 2 },
          ],
        },
      });
      assert.equal(digits.statusCode, 400, digits.body);
      const errors = errorsOf(digits.body);
      assert.equal(errors['Lines[0].UnitPrice'], 'ScalePrecision');
      assert.equal(errors['Lines[1].Quantity'], 'InclusiveBetween');
      assert.equal(errors['Lines[1].UnitPrice'], 'LessThan');
      const fraction = await t().inject({
        method: 'POST',
        url: '/orders',
        payload: {
          Lines: [
            { Sku: 'C', Name: 'c', Quantity: 1, UnitPrice: 1, TaxRate: 19 },
            { Sku: 'C', Name: 'c', Quantity: 1.5, UnitPrice: 1, TaxRate: 19 },
          ],
        },
      });
      assert.equal(fraction.statusCode, 400);
      assert.equal(errorsOf(fraction.body)['Lines[1].Quantity'], 'SerializationException', fraction.body);
      const yen = await t().inject({
        method: 'POST',
        url: '/orders',
        payload: { Currency: 'JPY', Lines: [{ Sku: 'A', Name: 'a', Quantity: 1, UnitPrice: 1.5, TaxRate: 10 }] },
      });
      assert.deepEqual(errorsOf(yen.body), { 'Lines[0].UnitPrice': 'ScalePrecision' });
      const many = await t().inject({
        method: 'POST',
        url: '/orders',
        payload: { Lines: Array.from({ length: 1001 }, (_, i) => ({ Sku: `S${i}`, Name: 'n', Quantity: 1, UnitPrice: 1, TaxRate: 0 })) },
      });
      assert.deepEqual(errorsOf(many.body), { Lines: 'Length' });
      assert.deepEqual(await orderRows(t()), before);
    });

    test('UpdateOrder replaces note and content of an open order, answers it and emits order.updated; 409 OrderNotOpen otherwise', async () => {
      const id = await createOrder(t(), CONTENT);
      const replaced = {
        Currency: 'USD',
        PricesIncludeTax: true,
        Lines: [{ Sku: 'MUG', Name: 'Mug', Quantity: 2, UnitPrice: 9.99, TaxRate: 8.25 }],
      };
      const res = await t().inject({ method: 'PUT', url: `/orders/${id}`, payload: { ...replaced, Note: 'changed' } });
      assert.equal(res.statusCode, 200, res.body);
      const answered = json(res);
      assert.equal(answered.OrderId, id);
      assert.deepEqual(contentOf(answered), expectedContent(replaced));
      assert.equal(answered.Note, 'changed', 'the answer shows the note');
      assert.deepEqual(contentOf(await getOrder(t(), id)), expectedContent(replaced));
      assert.equal((await getOrder(t(), id)).Note, 'changed');
      const lines = await t().store.reader.selectFrom('order_lines').select(['sku', 'line_number']).where('order_id', '=', id).execute();
      assert.deepEqual(lines, [{ sku: 'MUG', line_number: 1 }]);
      const note = await t().store.reader.selectFrom('orders').select('note').where('order_id', '=', id).executeTakeFirstOrThrow();
      assert.equal(note.note, 'changed');

      const events = json(await t().inject(`/events/?Types=order.updated&Take=1000`)) as Array<{
        Type: string;
        Data: Record<string, unknown>;
      }>;
      const updated = events.filter((e) => e.Data.OrderId === id);
      assert.equal(updated.length, 1);
      assert.deepEqual(contentOf(updated[0]!.Data), expectedContent(replaced));
      assert.equal(updated[0]!.Data.Note, 'changed', "the event's order shows the note");

      const bad = await t().inject({
        method: 'PUT',
        url: `/orders/${id}`,
        payload: { Lines: [{ Sku: 'X', Name: 'x', Quantity: 0, UnitPrice: 1, TaxRate: 1 }] },
      });
      assert.deepEqual(errorsOf(bad.body), { 'Lines[0].Quantity': 'InclusiveBetween' });
      assert.deepEqual(contentOf(await getOrder(t(), id)), expectedContent(replaced), 'a refused update changes nothing');
      assert.equal((await t().inject({ method: 'PUT', url: '/orders/999999999', payload: {} })).statusCode, 404);
      const forbidden = await t().inject({ method: 'PUT', url: `/orders/${id}`, payload: {}, headers: bearer(t().keys.all) });
      assert.equal(forbidden.statusCode, 403);

      assert.equal((await confirm(t(), id, confirmation({ ExternalCustomerId: `content-${unique()}` }))).statusCode, 200);
      const closed = await t().inject({ method: 'PUT', url: `/orders/${id}`, payload: CONTENT });
      assert.equal(closed.statusCode, 409, closed.body);
      assert.equal(json(closed).ResponseStatus.ErrorCode, 'OrderNotOpen');
      assert.deepEqual(contentOf(await getOrder(t(), id)), expectedContent(replaced));
      const cancelled = await createOrder(t(), CONTENT);
      assert.equal((await t().inject({ method: 'POST', url: `/orders/${cancelled}/cancel` })).statusCode, 200);
      assert.equal((await t().inject({ method: 'PUT', url: `/orders/${cancelled}`, payload: {} })).statusCode, 409);
    });

    test('events of create and confirm carry the content', async () => {
      const id = await createOrder(t(), CONTENT);
      assert.equal((await confirm(t(), id, confirmation({ ExternalCustomerId: `content-${unique()}` }))).statusCode, 200);
      const events = json(await t().inject(`/events/?Types=order.created,order.confirmed&Take=10000`)) as Array<{
        Type: string;
        Data: Record<string, unknown>;
      }>;
      const mine = events.filter((e) => e.Data.OrderId === id);
      assert.deepEqual(
        mine.map((e) => e.Type),
        ['order.created', 'order.confirmed'],
      );
      for (const e of mine) assert.deepEqual(contentOf(e.Data), expectedContent(CONTENT));
    });

    test('SearchOrders filters by Skus and Currencies and shows the content, in every form as in GetOrder', async () => {
      const tag = unique();
      const a = await createOrder(t(), { ...CONTENT, Lines: [{ ...CONTENT.Lines[0], Sku: `${tag}-A` }] });
      const b = await createOrder(t(), {
        Currency: 'CHF',
        Lines: [
          { ...CONTENT.Lines[1], Sku: `${tag}-B` },
          { ...CONTENT.Lines[0], Sku: `${tag}-A` },
        ],
      });
      const c = await createOrder(t(), { Currency: 'CHF', Lines: [{ ...CONTENT.Lines[1], Sku: `${tag}-C` }] });
      const ids = (query: string) => async () =>
        (json(await t().inject(`/orders/?${query}`)) as Array<{ OrderId: number }>).map((o) => o.OrderId);
      assert.deepEqual(await ids(`Skus=${tag}-A`)(), [a, b]);
      assert.deepEqual(await ids(`Skus=${tag}-A,${tag}-C`)(), [a, b, c]);
      assert.deepEqual(await ids(`Skus=${tag}-A,${tag}-B,${tag}-C&Currencies=CHF`)(), [b, c]);
      const posted = await t().inject({
        method: 'POST',
        url: '/orders/search',
        payload: { Skus: [`${tag}-C`], Currencies: ['CHF', 'EUR'] },
      });
      assert.deepEqual(
        (json(posted) as Array<{ OrderId: number }>).map((o) => o.OrderId),
        [c],
      );

      const feed = json(await t().inject(`/orders/?OrderIds=${a},${b},${c}`)) as Array<Record<string, unknown>>;
      for (const item of feed) {
        const { LastModified, ...order } = item;
        assert.ok(LastModified);
        assert.deepEqual(order, await getOrder(t(), order.OrderId as number));
      }
      // Other casings get views made afresh: the same values.
      const camel = json(await t().inject({ url: `/orders/${b}`, query: { jsconfig: 'EmitCamelCaseNames:true' } }));
      assert.deepEqual(
        camel.totals.taxBreakdown.map((r: Record<string, number>) => [r.taxRate, r.net, r.tax]),
        (feed[1]!.Totals as { TaxBreakdown: Array<Record<string, number>> }).TaxBreakdown.map((r) => [r.TaxRate, r.Net, r.Tax]),
      );
      assert.equal(camel.lines[1].sku, `${tag}-A`);
      const bad = await t().inject(`/orders/?Currencies=EURO`);
      assert.equal(bad.statusCode, 400);
    });

    test("end to end: GetOrder's amounts equal orderAmounts' for random orders", async () => {
      const line = fc.record({
        Sku: fc.constantFrom('A', 'B', 'C'),
        Name: fc.constant('n'),
        Quantity: fc.integer({ min: 1, max: 1000 }),
        UnitPrice: fc.integer({ min: 0, max: 10_000_000 }).map((c) => c / 100),
        TaxRate: fc.constantFrom(0, 7, 19, 20, 8.25),
      });
      await fc.assert(
        fc.asyncProperty(
          fc.record({ PricesIncludeTax: fc.boolean(), Lines: fc.array(line, { maxLength: 8 }) }),
          fc.option(fc.record({ Amount: fc.integer({ min: 0, max: 5000 }).map((c) => c / 100), TaxRate: fc.constantFrom(0, 19) }), {
            nil: undefined,
          }),
          async (request, shipping) => {
            const body = shipping === undefined ? request : { ...request, Shipping: shipping };
            const order = await getOrder(t(), await createOrder(t(), body));
            assert.deepEqual(contentOf(order), expectedContent(body));
          },
        ),
        { numRuns: 15 },
      );
    });
  },
  {},
  { pgbouncer: true },
);

describeEachBackend(
  'orders with content: DEFAULT_CURRENCY',
  (t) => {
    test('an order created without Currency gets DEFAULT_CURRENCY, and its amounts are checked at its digits', async () => {
      const order = await getOrder(
        t(),
        await createOrder(t(), { Lines: [{ Sku: 'A', Name: 'a', Quantity: 2, UnitPrice: 150, TaxRate: 10 }] }),
      );
      assert.equal(order.Currency, 'JPY');
      assert.deepEqual((order.Totals as { Gross: number }).Gross, 330);
      const res = await t().inject({
        method: 'POST',
        url: '/orders',
        payload: { Lines: [{ Sku: 'A', Name: 'a', Quantity: 1, UnitPrice: 1.5, TaxRate: 10 }] },
      });
      assert.deepEqual(errorsOf(res.body), { 'Lines[0].UnitPrice': 'ScalePrecision' });
    });
  },
  { DEFAULT_CURRENCY: 'jpy' },
);
