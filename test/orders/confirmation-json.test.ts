import assert from 'node:assert/strict';
import { test } from 'node:test';
import { sha256 } from '../../src/digest.js';
import { confirmationJson } from '../../src/orders/order.mapping.js';
import { ConfirmOrderRequest, OrderPayment } from '../../src/orders/order.schemas.js';
import { CONFIRMATION_STORAGE_NAMES, PAYMENT_STORAGE_NAMES, parseStoredConfirmation } from '../../src/orders/order.stored-form.js';
import type { ConfirmationData } from '../../src/orders/order.validation.js';
import { oldConfirmationText } from './old-stored-form.js';
import { seededRandom } from '../helpers/seeded-random.js';

/** The definition: JSON with the keys of every object sorted, undefined values left out. */
const canonical = oldConfirmationText;

/** Data in storage names, by the tables (undefined values left out, as the stored text does). */
function inStorageNames(data: ConfirmationData): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [api, stored] of Object.entries(CONFIRMATION_STORAGE_NAMES)) {
    const v = data[api as keyof ConfirmationData];
    if (v === undefined) continue;
    out[stored] =
      api !== 'Payment'
        ? v
        : Object.fromEntries(
            Object.entries(PAYMENT_STORAGE_NAMES)
              .map(([a, s]) => [s, (v as unknown as Record<string, unknown>)[a]])
              .filter(([, x]) => x !== undefined),
          );
  }
  return out;
}

const sample = (): ConfirmationData => ({
  CustomerFirstName: 'Greta',
  CustomerLastName: 'Fischer',
  CustomerPostalCode: '80331',
  CustomerCity: 'München',
  CustomerCountry: 'DE',
  CustomerStreet: 'Hauptstraße',
  CustomerEMail: 'greta@example.org',
  CustomerIban: 'DE89370400440532013000',
  CustomerBic: 'COBADEFFXXX',
  ExternalCustomerId: 'X-1',
  Note: 'a "quoted" note',
  DeliveryDate: 1767225600000,
  Payment: { Type: 'PayPal', Name: 'Anzahlung', Amount: 49.95, Date: 1767225600000 },
});

test('a confirmation is stored in storage names; its text and hash are pinned (retries of stored confirmations compare by them)', () => {
  const text = confirmationJson(sample());
  assert.equal(
    text,
    '{"customer_bic":"COBADEFFXXX","customer_city":"München","customer_country":"DE","customer_email":"greta@example.org",' +
      '"customer_first_name":"Greta","customer_iban":"DE89370400440532013000","customer_last_name":"Fischer","customer_postal_code":"80331",' +
      '"customer_street":"Hauptstraße","delivery_date":1767225600000,"external_customer_id":"X-1","note":"a \\"quoted\\" note",' +
      '"payment":{"amount":49.95,"date":1767225600000,"name":"Anzahlung","type":"PayPal"}}',
  );
  assert.equal(sha256(text), 'f828549bd70a2758184af1a644db81c8422f6aec7ed35cc5125bb1ba161dd167');
});

test('the old stored form that tests plant is the one releases before migration 004 wrote', () => {
  // The hash those releases stored for this data (API names, sorted-key JSON, SHA-256).
  assert.equal(sha256(oldConfirmationText(sample())), 'de2f99ded09213167fd6cf3ead1cbdfa4ca3a0d7de08cf7ad0428b2bbedbf6a1');
});

test('every field of the request has one storage name: distinct, snake_case, and the API name nowhere in the stored text', () => {
  const apiFields = Object.keys(ConfirmOrderRequest.properties)
    .filter((k) => k !== 'OrderId')
    .sort();
  assert.deepEqual(Object.keys(CONFIRMATION_STORAGE_NAMES).sort(), apiFields);
  assert.deepEqual(Object.keys(PAYMENT_STORAGE_NAMES).sort(), Object.keys(OrderPayment.properties).sort());
  for (const table of [CONFIRMATION_STORAGE_NAMES, PAYMENT_STORAGE_NAMES]) {
    const names = Object.values(table);
    assert.equal(new Set(names).size, names.length, 'distinct');
    for (const n of names) assert.match(n, /^[a-z][a-z0-9]*(_[a-z0-9]+)*$/);
  }
});

test('the stored text has sorted storage names at every level, whatever order the data was built in, and reads back as the data', (t) => {
  const random = seededRandom();
  random.report(t);
  const fields = Object.entries(sample());
  for (let round = 0; round < 50; round++) {
    // Shuffled property order, some values undefined, optional parts left out.
    const shuffled = fields
      .map((f) => [random.next(), f] as const)
      .sort(([a], [b]) => a - b)
      .map(([, f]) => f);
    const data = Object.fromEntries(shuffled.map(([k, v]) => [k, random.next() < 0.2 ? undefined : v])) as ConfirmationData;
    if (data.Payment && round % 2 === 0) data.Payment = { Name: 'x', Amount: round, ReferenceNumber: undefined as unknown as string };
    const text = confirmationJson(data);
    assert.equal(text, canonical(inStorageNames(data)));
    assert.deepEqual(parseStoredConfirmation(text), JSON.parse(JSON.stringify(data)));
  }
});
