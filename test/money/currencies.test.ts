import assert from 'node:assert/strict';
import { test } from 'node:test';
import { CURRENCY_CODES, isCurrencyCode, minorDigitsOf } from '../../src/money/index.js';

const intlDigits = (code: string): number =>
  new Intl.NumberFormat('en', { style: 'currency', currency: code }).resolvedOptions().maximumFractionDigits ?? NaN;

test('minor-unit digits: EUR 2, JPY 0, KWD 3, CLF 4; unknown and non-price codes have none', () => {
  assert.deepEqual(
    ['EUR', 'USD', 'JPY', 'KRW', 'KWD', 'BHD', 'CLF', 'UYW', 'HUF', 'IDR'].map(minorDigitsOf),
    [2, 2, 0, 0, 3, 3, 4, 4, 2, 2],
  );
  for (const code of ['ZZZ', 'eur', 'EU', 'EURO', '', 'XAU', 'XXX', 'XTS', 'XDR', 'HRK']) {
    assert.equal(minorDigitsOf(code), undefined, code);
    assert.equal(isCurrencyCode(code), false, code);
  }
  assert.equal(isCurrencyCode(978), false);
  assert.ok(CURRENCY_CODES.every((c) => /^[A-Z]{3}$/.test(c)));
  assert.equal(new Set(CURRENCY_CODES).size, CURRENCY_CODES.length);
});

// Why the table is kept by hand: what Intl (ICU's CLDR data) says, measured on the running Node.js.
test('Intl is not an ISO 4217 source: it takes any three letters, and gives display digits', () => {
  assert.equal(intlDigits('ZZZ'), 2, 'an unknown code is accepted, with 2 digits');
  assert.equal(intlDigits('JPY'), 0);
  assert.equal(intlDigits('KWD'), 3);
  assert.equal(intlDigits('CLF'), 4);
  const differ = CURRENCY_CODES.filter((c) => intlDigits(c) !== minorDigitsOf(c));
  // CLDR shows these without decimals (ISO: 2; IQD 3); the table keeps ISO's digits.
  assert.ok(
    ['HUF', 'IDR', 'COP', 'IQD'].every((c) => differ.includes(c)),
    differ.join(' '),
  );
  assert.ok(
    differ.every((c) => intlDigits(c) === 0),
    differ.join(' '),
  );
  const listed = new Set(Intl.supportedValuesOf('currency'));
  assert.equal(listed.has('CLF'), false, 'CLF is missing from Intl.supportedValuesOf');
  assert.equal(listed.has('UYW'), false);
  assert.equal(listed.has('HRK'), true, 'the withdrawn kuna is still listed');
});
