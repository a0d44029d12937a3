import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import type { OrderAmounts, OrderContent, OrderLineContent, ShippingContent } from '../../src/money/index.js';
import { orderAmounts } from '../../src/money/index.js';

// Few SKUs, rates and small prices, so that lines share rates, remainders tie and whole lines repeat.
const amount = fc.oneof(fc.bigInt({ min: 0n, max: 2_000n }), fc.bigInt({ min: 0n, max: 10n ** 16n - 1n }));
const rate = fc.oneof(fc.constantFrom(0, 500, 700, 1900, 2000, 10000), fc.integer({ min: 0, max: 10000 }));
const lineArb: fc.Arbitrary<OrderLineContent> = fc
  .record({
    Sku: fc.constantFrom('A', 'B', 'C', 'a', 'Ä'),
    Name: fc.constantFrom('Pen', 'Mug', ''),
    Quantity: fc.oneof(fc.integer({ min: 1, max: 5 }), fc.integer({ min: 1, max: 1_000_000 })),
    UnitPrice: amount,
    TaxRate: rate,
    discountPart: fc.option(fc.bigInt({ min: 0n, max: 1000n })),
  })
  .map(({ discountPart, ...l }) => {
    if (discountPart === null) return l;
    const most = BigInt(l.Quantity) * l.UnitPrice;
    return { ...l, Discount: most === 0n ? 0n : (most * discountPart) / 1000n };
  });
const shippingArb: fc.Arbitrary<ShippingContent | undefined> = fc.option(fc.record({ Amount: amount, TaxRate: rate }), { nil: undefined });
const orderArb: fc.Arbitrary<OrderContent> = fc
  .record({
    Lines: fc.array(lineArb, { maxLength: 30 }),
    Shipping: shippingArb,
    PricesIncludeTax: fc.boolean(),
  })
  .map(({ Shipping, ...o }) => ({ Currency: 'EUR', ...o, ...(Shipping === undefined ? {} : { Shipping }) }));

const WHOLE = 10_000n;
const itemAmount = (l: OrderLineContent): bigint => BigInt(l.Quantity) * l.UnitPrice - (l.Discount ?? 0n);
const sum = (xs: readonly bigint[]): bigint => xs.reduce((s, x) => s + x, 0n);

test('property: Gross = Net + Tax per line, per shipping, per rate and in total; nothing negative', () => {
  fc.assert(
    fc.property(orderArb, (content) => {
      const a = orderAmounts(content);
      for (const x of [...a.Lines, ...(a.Shipping ? [a.Shipping] : [])]) {
        assert.equal(x.Gross, x.Net + x.Tax);
        assert.ok(x.Net >= 0n && x.Tax >= 0n);
      }
      assert.equal(a.Totals.Gross, a.Totals.Net + a.Totals.Tax);
      assert.deepEqual(
        a.Lines.map((l) => l.LineNumber),
        content.Lines.map((_, i) => i + 1),
      );
    }),
  );
});

test('property: the breakdown sums to Net and Tax, and lines plus shipping sum to the totals exactly', () => {
  fc.assert(
    fc.property(orderArb, (content) => {
      const a = orderAmounts(content);
      const items = [...a.Lines, ...(a.Shipping ? [a.Shipping] : [])];
      assert.equal(sum(a.Totals.TaxBreakdown.map((r) => r.Net)), a.Totals.Net);
      assert.equal(sum(a.Totals.TaxBreakdown.map((r) => r.Tax)), a.Totals.Tax);
      for (const key of ['Net', 'Tax', 'Gross'] as const) assert.equal(sum(items.map((x) => x[key])), a.Totals[key], key);
      assert.equal(a.Totals.Discount, sum(content.Lines.map((l) => l.Discount ?? 0n)));
    }),
  );
});

test("property: each rate's tax is its sum's tax rounded half away from zero; each share within a unit of its exact part", () => {
  fc.assert(
    fc.property(orderArb, (content) => {
      const a = orderAmounts(content);
      const rates = [...new Set([...content.Lines.map((l) => l.TaxRate), ...(content.Shipping ? [content.Shipping.TaxRate] : [])])].sort(
        (x, y) => x - y,
      );
      assert.deepEqual(
        a.Totals.TaxBreakdown.map((r) => r.TaxRate),
        rates,
      );
      const inputs = [...content.Lines.map(itemAmount), ...(content.Shipping ? [content.Shipping.Amount] : [])];
      const taxRates = [...content.Lines.map((l) => l.TaxRate), ...(content.Shipping ? [content.Shipping.TaxRate] : [])];
      const outputs = [...a.Lines, ...(a.Shipping ? [a.Shipping] : [])];
      for (const r of a.Totals.TaxBreakdown) {
        const members = taxRates.flatMap((t, i) => (t === r.TaxRate ? [i] : []));
        const base = sum(members.map((i) => inputs[i] as bigint));
        // exact tax = base × r / d; |tax − exact| ≤ ½, and at exactly ½ the larger one.
        const d = content.PricesIncludeTax ? WHOLE + BigInt(r.TaxRate) : WHOLE;
        const twice = 2n * (r.Tax * d - base * BigInt(r.TaxRate));
        assert.ok(twice >= -d && twice <= d && twice !== -d, `rate ${r.TaxRate}: ${r.Tax} for ${base}`);
        assert.equal(r.Net, content.PricesIncludeTax ? base - r.Tax : base);
        assert.equal(sum(members.map((i) => (outputs[i] as { Tax: bigint }).Tax)), r.Tax);
        for (const i of members) {
          const gap = (outputs[i] as { Tax: bigint }).Tax * base - r.Tax * (inputs[i] as bigint);
          assert.ok(base === 0n ? gap === 0n : gap > -base && gap < base, `share of item ${i}`);
        }
      }
    }),
  );
});

/** The lines' answers keyed by their content: equal lines are interchangeable. */
const answersByContent = (content: OrderContent, a: OrderAmounts): string[] =>
  content.Lines.map((l, i) => {
    const { LineNumber: _, ...rest } = a.Lines[i] as OrderAmounts['Lines'][number];
    return JSON.stringify({ l, rest }, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v));
  }).sort();

test("property: the answer does not depend on the lines' order", () => {
  const permuted = orderArb.chain((content) =>
    fc
      .shuffledSubarray([...content.Lines.keys()], { minLength: content.Lines.length, maxLength: content.Lines.length })
      .map((order) => [content, { ...content, Lines: order.map((i) => content.Lines[i] as OrderLineContent) }] as const),
  );
  fc.assert(
    fc.property(permuted, ([content, shuffled]) => {
      const a = orderAmounts(content);
      const b = orderAmounts(shuffled);
      assert.deepEqual(b.Totals, a.Totals);
      assert.deepEqual(b.Shipping, a.Shipping);
      assert.deepEqual(answersByContent(shuffled, b), answersByContent(content, a));
    }),
  );
});
