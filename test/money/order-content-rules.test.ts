import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { ValidationError } from '../../src/errors.js';
import { responseStatusBody, statusOf } from '../../src/wire/error-response.js';
import { FieldRules } from '../../src/wire/field-rules.js';
import type { OrderContent, OrderContentRequest } from '../../src/money/index.js';
import { minorDigitsOf, readOrderContent, taxRatePercentOf, wireNumberOf } from '../../src/money/index.js';

const LINE = { Sku: 'PEN', Name: 'Pen', Quantity: 3, UnitPrice: 0.1, TaxRate: 19 };

const read = (request: OrderContentRequest): { content: OrderContent | undefined; errors: Record<string, string> } => {
  const rules = new FieldRules();
  const content = readOrderContent(rules, request, 'EUR');
  return { content, errors: Object.fromEntries(rules.errors.map((e) => [e.fieldName, e.errorCode])) };
};

test('good content in minor units; the currency defaults, prices are net unless said', () => {
  assert.deepEqual(read({ Lines: [LINE] }), {
    content: { Currency: 'EUR', PricesIncludeTax: false, Lines: [{ Sku: 'PEN', Name: 'Pen', Quantity: 3, UnitPrice: 10n, TaxRate: 1900 }] },
    errors: {},
  });
  assert.deepEqual(read({}).content, { Currency: 'EUR', PricesIncludeTax: false, Lines: [] });
  const kwd = read({
    Currency: 'KWD',
    PricesIncludeTax: true,
    Lines: [{ ...LINE, UnitPrice: 1.255, Discount: 0.5, TaxRate: 7.25 }],
    Shipping: { Amount: 2, TaxRate: 0, Name: 'Post' },
  });
  assert.deepEqual(kwd.content, {
    Currency: 'KWD',
    PricesIncludeTax: true,
    Lines: [{ Sku: 'PEN', Name: 'Pen', Quantity: 3, UnitPrice: 1255n, TaxRate: 725, Discount: 500n }],
    Shipping: { Name: 'Post', Amount: 2000n, TaxRate: 0 },
  });
});

test("each bad field once, named by its path, with FluentValidation's code", () => {
  const { content, errors } = read({
    Currency: 'EUR',
    Lines: [
      { ...LINE, UnitPrice: 0.105 },
      { ...LINE, Sku: '', Name: 'n'.repeat(256), Discount: 0.31 },
      { ...LINE, Quantity: 0, TaxRate: 100.5 },
      { ...LINE, Quantity: 1.5, UnitPrice: -1, TaxRate: 7.125 },
      { ...LINE, Sku: 's'.repeat(65), Quantity: 1_000_001, UnitPrice: 1e12, Discount: 1e-7 },
      { Sku: ' ' },
    ],
    Shipping: { Amount: 4.999, Name: 'x'.repeat(256) },
  });
  assert.equal(content, undefined);
  assert.deepEqual(errors, {
    'Lines[0].UnitPrice': 'ScalePrecision',
    'Lines[1].Sku': 'NotEmpty',
    'Lines[1].Name': 'Length',
    'Lines[1].Discount': 'LessThanOrEqual',
    'Lines[2].Quantity': 'InclusiveBetween',
    'Lines[2].TaxRate': 'InclusiveBetween',
    'Lines[3].Quantity': 'ScalePrecision',
    'Lines[3].UnitPrice': 'GreaterThanOrEqual',
    'Lines[3].TaxRate': 'ScalePrecision',
    'Lines[4].Sku': 'Length',
    'Lines[4].Quantity': 'InclusiveBetween',
    'Lines[4].UnitPrice': 'LessThan',
    'Lines[4].Discount': 'ScalePrecision',
    'Lines[5].Sku': 'NotEmpty',
    'Lines[5].Name': 'NotEmpty',
    'Lines[5].Quantity': 'NotNull',
    'Lines[5].UnitPrice': 'NotNull',
    'Lines[5].TaxRate': 'NotNull',
    'Shipping.Name': 'Length',
    'Shipping.Amount': 'ScalePrecision',
    'Shipping.TaxRate': 'NotNull',
  });
});

test("the limits' edges are allowed", () => {
  const { content, errors } = read({
    Currency: 'JPY',
    Lines: [
      {
        Sku: 's'.repeat(64),
        Name: 'n'.repeat(255),
        Quantity: 1_000_000,
        UnitPrice: 999_999_999_999,
        TaxRate: 100,
        Discount: 999_999_999_999,
      },
      { ...LINE, Quantity: 1, UnitPrice: 0, TaxRate: 0 },
    ],
  });
  assert.deepEqual(errors, {});
  assert.equal(content?.Lines[0]?.UnitPrice, 999_999_999_999n);
});

test('an unknown currency is Currency; amounts are then checked for range, not for decimals', () => {
  for (const currency of ['ZZZ', 'eur', '', 978]) {
    assert.deepEqual(
      read({ Currency: currency, Lines: [{ ...LINE, UnitPrice: 0.12345 }] }).errors,
      { Currency: 'Currency' },
      String(currency),
    );
  }
  assert.deepEqual(read({ Currency: 'ZZZ', Lines: [{ ...LINE, UnitPrice: -1 }] }).errors, {
    Currency: 'Currency',
    'Lines[0].UnitPrice': 'GreaterThanOrEqual',
  });
  assert.deepEqual(read({ Currency: 'JPY', Lines: [{ ...LINE, UnitPrice: 0.5 }] }).errors, { 'Lines[0].UnitPrice': 'ScalePrecision' });
  assert.deepEqual(read({ Currency: 'CLF', Lines: [{ ...LINE, UnitPrice: 0.0001 }] }).errors, {});
});

test('more than 1,000 lines is one failure on Lines, its lines unread', () => {
  const lines = Array.from({ length: 1001 }, () => ({ ...LINE, Quantity: 0 }));
  assert.deepEqual(read({ Lines: lines }).errors, { Lines: 'Length' });
  assert.deepEqual(read({ Lines: lines.slice(1).map(() => LINE) }).errors, {});
});

test('the failures make the ServiceStack error body, one entry per field', () => {
  const rules = new FieldRules();
  readOrderContent(rules, { Lines: [{ ...LINE, Quantity: 0, UnitPrice: 0.001 }, LINE, { ...LINE, Quantity: -3 }] }, 'EUR');
  let caught: unknown;
  try {
    rules.throwIfAny();
  } catch (e) {
    caught = e;
  }
  assert.ok(caught instanceof ValidationError);
  assert.equal(statusOf(caught), 400);
  const body = responseStatusBody(caught) as {
    ResponseStatus: { ErrorCode: string; Errors: { ErrorCode: string; FieldName: string; Message: string }[] };
  };
  assert.deepEqual(
    body.ResponseStatus.Errors.map((e) => [e.FieldName, e.ErrorCode]),
    [
      ['Lines[0].Quantity', 'InclusiveBetween'],
      ['Lines[0].UnitPrice', 'ScalePrecision'],
      ['Lines[2].Quantity', 'InclusiveBetween'],
    ],
  );
  assert.equal(body.ResponseStatus.ErrorCode, 'InclusiveBetween');
  assert.equal(
    body.ResponseStatus.Errors[1]?.Message,
    "'Lines[0].UnitPrice' must not be more than 14 digits in total, with allowance for 2 decimals. 3 digits and 3 decimals were found.",
  );
});

test('property: content written to the wire reads back as it was', () => {
  const currency = fc.constantFrom('EUR', 'JPY', 'KWD', 'CLF');
  const content = currency.chain((Currency) => {
    const digits = minorDigitsOf(Currency) as number;
    // Four decimals are exact below 2^39 only (decimal-amounts.test.ts).
    const max = digits === 4 ? 2n ** 39n * 10_000n - 1n : 10n ** BigInt(12 + digits) - 1n;
    const line = fc
      .record({
        Sku: fc.string({ minLength: 1, maxLength: 64 }).filter((s) => s.trim() !== ''),
        Name: fc.string({ minLength: 1, maxLength: 255 }).filter((s) => s.trim() !== ''),
        Quantity: fc.integer({ min: 1, max: 1_000_000 }),
        UnitPrice: fc.bigInt({ min: 0n, max }),
        TaxRate: fc.integer({ min: 0, max: 10_000 }),
      })
      .map((l) => ({ ...l }));
    return fc
      .record({ Currency: fc.constant(Currency), PricesIncludeTax: fc.boolean(), Lines: fc.array(line, { maxLength: 5 }) })
      .map((c) => ({ ...c }));
  });
  fc.assert(
    fc.property(content, (c) => {
      const digits = minorDigitsOf(c.Currency) as number;
      const wire = JSON.parse(
        JSON.stringify({
          ...c,
          Lines: c.Lines.map((l) => ({ ...l, UnitPrice: wireNumberOf(l.UnitPrice, digits), TaxRate: taxRatePercentOf(l.TaxRate) })),
        }),
      ) as OrderContentRequest;
      assert.deepEqual(read(wire), { content: c, errors: {} });
    }),
  );
});
