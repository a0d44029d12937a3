import assert from 'node:assert/strict';
import { test } from 'node:test';
import { confirmationJson, sha256 } from '../../src/orders/order.mapping.js';
import type { ConfirmationData } from '../../src/orders/order.validation.js';

/** The definition: JSON with the keys of every object sorted, undefined values left out. */
function canonical(value: unknown): string {
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value).filter(([, v]) => v !== undefined).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

const sample = (): ConfirmationData => ({
  CustomerFirstName: 'Greta', CustomerLastName: 'Fischer', CustomerPostalCode: '80331', CustomerCity: 'München',
  CustomerCountry: 'DE', CustomerStreet: 'Hauptstraße', CustomerEMail: 'greta@example.org', CustomerIban: 'DE89370400440532013000',
  CustomerBic: 'COBADEFFXXX', ExternalCustomerId: 'X-1', Note: 'a "quoted" note', DeliveryDate: 1767225600000,
  Payment: { Type: 'PayPal', Name: 'Anzahlung', Amount: 49.95, Date: 1767225600000 },
});

test('a confirmation hashes as earlier versions stored it: retries of confirmations made before still match', () => {
  // The hash earlier versions stored for this data (sorted-key JSON, SHA-256).
  assert.equal(sha256(confirmationJson(sample())), 'de2f99ded09213167fd6cf3ead1cbdfa4ca3a0d7de08cf7ad0428b2bbedbf6a1');
});

test('the stored JSON has sorted keys at every level, whatever order the data was built in', () => {
  const fields = Object.entries(sample());
  for (let round = 0; round < 50; round++) {
    // Shuffled property order, some values undefined, optional parts left out.
    const shuffled = fields.map((f) => [Math.random(), f] as const).sort(([a], [b]) => a - b).map(([, f]) => f);
    const data = Object.fromEntries(shuffled.map(([k, v]) => [k, Math.random() < 0.2 ? undefined : v])) as ConfirmationData;
    if (data.Payment && round % 2 === 0) data.Payment = { Name: 'x', Amount: round, ReferenceNumber: undefined as unknown as string };
    const text = confirmationJson(data);
    assert.equal(text, canonical(data));
    assert.deepEqual(JSON.parse(text), JSON.parse(JSON.stringify(data)));
  }
});
