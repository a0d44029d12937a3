import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { decimalTextOf, exactDecimalOf, minorUnitsOf, taxRateHundredthsOf, taxRatePercentOf, wireNumberOf } from '../../src/money/index.js';

const TEN = (n: number): bigint => 10n ** BigInt(n);

test('a JSON number in minor units, exactly; more decimals than the currency has are refused', () => {
  assert.equal(minorUnitsOf(0.1, 2), 10n);
  assert.equal(minorUnitsOf(19.99, 2), 1999n);
  assert.equal(minorUnitsOf(1.005, 2), undefined);
  assert.equal(minorUnitsOf(1.005, 3), 1005n);
  assert.equal(minorUnitsOf(1500, 0), 1500n);
  assert.equal(minorUnitsOf(1500.5, 0), undefined);
  assert.equal(minorUnitsOf(0.0001, 4), 1n);
  assert.equal(minorUnitsOf(1e-7, 4), undefined, 'the exponent form is read');
  assert.equal(minorUnitsOf(1.5e-7, 8), 15n);
  assert.equal(minorUnitsOf(1.5e-7, 7), undefined);
  assert.equal(minorUnitsOf(1e21, 2), TEN(23), 'the exponent form of large numbers is read');
  assert.equal(minorUnitsOf(999999999999.99, 2), 99999999999999n);
  assert.equal(minorUnitsOf(-0, 2), 0n);
  assert.equal(minorUnitsOf(-12.5, 2), -1250n);
  assert.deepEqual(exactDecimalOf(120), { coefficient: 120n, scale: 0 });
  assert.deepEqual(exactDecimalOf(1.5), { coefficient: 15n, scale: 1 });
  assert.throws(() => exactDecimalOf(Number.NaN), RangeError);
});

test('minor units as decimal text and as the wire number', () => {
  assert.equal(decimalTextOf(1230n, 2), '12.30');
  assert.equal(decimalTextOf(5n, 3), '0.005');
  assert.equal(decimalTextOf(1230n, 0), '1230');
  assert.equal(decimalTextOf(-5n, 2), '-0.05');
  assert.equal(decimalTextOf(0n, 4), '0.0000');
  assert.equal(wireNumberOf(1230n, 2), 12.3);
  assert.equal(wireNumberOf(10n, 2), 0.1);
  assert.equal(JSON.stringify(wireNumberOf(99999999999999n, 2)), '999999999999.99');
});

test('tax rates in hundredths of a percent', () => {
  assert.deepEqual([19, 7, 7.5, 0, 100, 0.01, 5.55].map(taxRateHundredthsOf), [1900, 700, 750, 0, 10000, 1, 555]);
  assert.equal(taxRateHundredthsOf(5.555), undefined);
  assert.deepEqual([1900, 750, 1, 555].map(taxRatePercentOf), [19, 7.5, 0.01, 5.55]);
});

/** What a client writes, what JSON.parse makes of it, and what we read back. */
const readBack = (units: bigint, digits: number): bigint | undefined =>
  minorUnitsOf(JSON.parse(decimalTextOf(units, digits)) as number, digits);

test('property: every amount below 10^12 with at most 3 decimals reads back as written', () => {
  fc.assert(
    fc.property(fc.integer({ min: 0, max: 3 }), fc.bigInt({ min: 0n, max: 10n ** 15n - 1n }), (digits, raw) => {
      const units = raw % TEN(12 + digits);
      assert.equal(readBack(units, digits), units);
      assert.equal(String(wireNumberOf(units, digits)), String(Number(decimalTextOf(units, digits))));
    }),
    { numRuns: 2000 },
  );
});

// A double has 53 bits: from 2^39 on, its spacing (2^-13 ≈ 0.000122) is wider than 0.0001, so two
// four-decimal amounts can parse to the same double. Below 2^39 each reads back as written.
const FOUR_DECIMALS_EXACT_BELOW = 2n ** 39n;

test('property: amounts with 4 decimals read back as written below 2^39 (549,755,813,888)', () => {
  fc.assert(
    fc.property(fc.bigInt({ min: 0n, max: FOUR_DECIMALS_EXACT_BELOW * TEN(4) - 1n }), (units) => {
      assert.equal(readBack(units, 4), units);
    }),
    { numRuns: 2000 },
  );
  assert.equal(readBack(5497558138879999n, 4), 5497558138879999n);
});

test('from 2^39, a four-decimal amount may reach the service as its neighbour (JSON numbers are doubles)', () => {
  assert.equal(readBack(9999999999990003n, 4), 9999999999990002n);
});

test('property: the decimal read from any finite double is exactly that double', () => {
  fc.assert(
    fc.property(fc.double({ noNaN: true, noDefaultInfinity: true }), (value) => {
      const { coefficient, scale } = exactDecimalOf(value);
      const text = scale === 0 ? coefficient.toString() : `${coefficient}e-${scale}`;
      assert.ok(Object.is(Number(text), value) || (value === 0 && Number(text) === 0), `${value} → ${text}`);
    }),
    { numRuns: 2000 },
  );
});
