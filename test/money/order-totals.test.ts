import assert from 'node:assert/strict';
import { test } from 'node:test';
import { divideHalfAwayFromZero, largestRemainderShares } from '../../src/money/money.rounding.js';
import { orderAmounts, orderAmountsWire } from '../../src/money/index.js';
import { line, order } from './order-fixtures.js';

test('halves are rounded away from zero, everything else to the nearest', () => {
  assert.deepEqual(
    [25n, 15n, 5n, 24n, 26n, -25n, -15n, -24n, 0n].map((n) => divideHalfAwayFromZero(n, 10n)),
    [3n, 2n, 1n, 2n, 3n, -3n, -2n, -2n, 0n],
  );
  assert.throws(() => divideHalfAwayFromZero(1n, 0n), RangeError);
});

test('largest remainder: floors, then the leftover to the largest remainders; ties by the given order', () => {
  assert.deepEqual(
    largestRemainderShares(10n, [1n, 1n, 1n], (a, b) => a - b),
    [4n, 3n, 3n],
  );
  assert.deepEqual(
    largestRemainderShares(10n, [1n, 1n, 1n], (a, b) => b - a),
    [3n, 3n, 4n],
  );
  assert.deepEqual(
    largestRemainderShares(7n, [50n, 30n, 20n], (a, b) => a - b),
    [4n, 2n, 1n],
  ); // 3.5 2.1 1.4
  assert.deepEqual(
    largestRemainderShares(0n, [0n, 0n], (a, b) => a - b),
    [0n, 0n],
  );
  assert.deepEqual(
    largestRemainderShares(5n, [0n, 3n], (a, b) => a - b),
    [0n, 5n],
  );
  assert.throws(() => largestRemainderShares(1n, [0n], (a, b) => a - b), RangeError);
});

test("net prices: tax on the rate's sum, half away from zero at exactly .5", () => {
  // 0.10 at 5 % is 0.005 exactly: one cent, not zero (half to even would give 0).
  const a = orderAmounts(order([line('A', 1, 10n, 500)]));
  assert.deepEqual(a.Lines, [{ LineNumber: 1, Net: 10n, Tax: 1n, Gross: 11n }]);
  // 0.05 at 5 % is 0.0025: below the half, nothing.
  assert.equal(orderAmounts(order([line('A', 1, 5n, 500)])).Totals.Tax, 0n);
  // Per line each 0.10 at 19 % would round 0.019 up to 0.02 (0.06 for five); per rate 0.50 × 19 % = 0.095 → 0.10.
  const five = orderAmounts(order(['A', 'B', 'C', 'D', 'E'].map((s) => line(s, 1, 10n, 1900))));
  assert.equal(five.Totals.Tax, 10n);
  assert.deepEqual(
    five.Lines.map((l) => l.Tax),
    [2n, 2n, 2n, 2n, 2n],
  );
});

test("gross prices: the rate's gross split into net and tax; a half goes away from zero", () => {
  // 0.01 at 100 %: tax 0.005 → 0.01, net 0.
  assert.deepEqual(orderAmounts(order([line('A', 1, 1n, 10000)], { PricesIncludeTax: true })).Lines[0], {
    LineNumber: 1,
    Net: 0n,
    Tax: 1n,
    Gross: 1n,
  });
  const a = orderAmounts(order([line('A', 2, 1190n, 1900), line('B', 1, 107n, 700)], { PricesIncludeTax: true }));
  assert.deepEqual(a.Totals, {
    Net: 2100n,
    Tax: 387n,
    Gross: 2487n,
    Discount: 0n,
    TaxBreakdown: [
      { TaxRate: 700, Net: 100n, Tax: 7n },
      { TaxRate: 1900, Net: 2000n, Tax: 380n },
    ],
  });
});

test('a discount is taken off the line before tax; Totals.Discount sums the discounts', () => {
  const a = orderAmounts(order([line('A', 2, 5000n, 1900, 1000n), line('B', 1, 1000n, 1900, 1000n)]));
  assert.deepEqual(
    a.Lines.map((l) => [l.Net, l.Tax, l.Gross]),
    [
      [9000n, 1710n, 10710n],
      [0n, 0n, 0n],
    ],
  );
  assert.equal(a.Totals.Discount, 2000n);
  assert.equal(a.Totals.Net, 9000n);
});

test("shipping shares its rate's tax with the lines; without shipping it is null", () => {
  const a = orderAmounts(order([line('A', 1, 1999n, 1900)], { Shipping: { Amount: 490n, TaxRate: 1900 } }));
  assert.equal(a.Totals.TaxBreakdown.length, 1);
  assert.equal(a.Totals.Tax, 473n); // 24.89 × 19 % = 4.7291
  assert.equal((a.Lines[0]?.Tax ?? 0n) + (a.Shipping?.Tax ?? 0n), 473n);
  assert.deepEqual(a.Shipping, { Net: 490n, Tax: 93n, Gross: 583n });
  assert.equal(orderAmounts(order([line('A', 1, 1n, 0)])).Shipping, null);
});

test('an order without lines is all zeros', () => {
  assert.deepEqual(orderAmounts(order([])), {
    Lines: [],
    Shipping: null,
    Totals: { Net: 0n, Tax: 0n, Gross: 0n, Discount: 0n, TaxBreakdown: [] },
  });
});

test("the breakdown is ordered by rate, whatever the lines' order", () => {
  const a = orderAmounts(order([line('A', 1, 100n, 1900), line('B', 1, 100n, 0), line('C', 1, 100n, 700), line('D', 1, 100n, 750)]));
  assert.deepEqual(
    a.Totals.TaxBreakdown.map((r) => r.TaxRate),
    [0, 700, 750, 1900],
  );
});

test("JPY, KWD and CLF: the calculator works in each currency's own minor unit", () => {
  // JPY: 3 × 333 at 8 % = 79.92 yen → 80.
  assert.equal(orderAmounts(order([line('A', 3, 333n, 800)], { Currency: 'JPY' })).Totals.Tax, 80n);
  // KWD: 1.255 at 5 % = 0.06275 → 0.063 (fils).
  assert.equal(orderAmounts(order([line('A', 1, 1255n, 500)], { Currency: 'KWD' })).Totals.Tax, 63n);
  // CLF: 1.0001 at 19 % = 0.190019 → 0.1900.
  assert.equal(orderAmounts(order([line('A', 1, 10001n, 1900)], { Currency: 'CLF' })).Totals.Tax, 1900n);
});

test('1,000 lines at the largest amounts stay exact (no overflow)', () => {
  const max = 10n ** 16n - 1n; // 999,999,999,999.9999 in CLF's minor unit
  const lines = Array.from({ length: 1000 }, (_, i) => line(`S${i}`, 1_000_000, max, i % 2 === 0 ? 10000 : 1999));
  for (const pricesIncludeTax of [false, true]) {
    const a = orderAmounts(order(lines, { Currency: 'CLF', PricesIncludeTax: pricesIncludeTax }));
    const amount = 1000n * 1_000_000n * max;
    assert.equal(pricesIncludeTax ? a.Totals.Gross : a.Totals.Net, amount);
    const half = 500n * 1_000_000n * max;
    const taxes = pricesIncludeTax
      ? [divideHalfAwayFromZero(half * 1999n, 11999n), divideHalfAwayFromZero(half * 10000n, 20000n)]
      : [divideHalfAwayFromZero(half * 1999n, 10000n), half];
    assert.deepEqual(
      a.Totals.TaxBreakdown.map((r) => r.Tax),
      taxes,
    );
    assert.equal(
      a.Lines.reduce((s, l) => s + l.Tax, 0n),
      a.Totals.Tax,
    );
    assert.ok(a.Totals.Gross > BigInt(Number.MAX_SAFE_INTEGER) * 1_000_000_000n, 'far beyond what a number holds exactly');
  }
});

test("the wire form: JSON numbers in the currency's unit, rates in percent", () => {
  const a = orderAmounts(
    order([line('A', 3, 10n, 1900), line('B', 1, 1255n, 750)], { Currency: 'KWD', Shipping: { Amount: 2000n, TaxRate: 0 } }),
  );
  assert.equal(
    JSON.stringify(orderAmountsWire(a, 3)),
    JSON.stringify({
      Lines: [
        { LineNumber: 1, Net: 0.03, Tax: 0.006, Gross: 0.036 },
        { LineNumber: 2, Net: 1.255, Tax: 0.094, Gross: 1.349 },
      ],
      Shipping: { Net: 2, Tax: 0, Gross: 2 },
      Totals: {
        Net: 3.285,
        Tax: 0.1,
        Gross: 3.385,
        Discount: 0,
        TaxBreakdown: [
          { TaxRate: 0, Net: 2, Tax: 0 },
          { TaxRate: 7.5, Net: 1.255, Tax: 0.094 },
          { TaxRate: 19, Net: 0.03, Tax: 0.006 },
        ],
      },
    }),
  );
  assert.equal(orderAmountsWire(orderAmounts(order([])), 2).Shipping, null);
});
