import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import type { Kysely } from 'kysely';
import { keyId } from '../../src/auth/key.model.js';
import { MIGRATIONS } from '../../src/store/migrate.js';
import type { TestApp } from '../helpers/test-app.js';

// The stored form of the releases before migration 004, written here by hand (not by the
// service's code), so that tests can plant rows as those releases left them.

/** Their confirmation text: the API's names, keys of every object sorted, undefined values left out. */
export function oldConfirmationText(value: unknown): string {
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${oldConfirmationText(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

const sha256 = (text: string): string => createHash('sha256').update(text, 'utf8').digest('hex');

/** Confirmation data as validation leaves it (dates in ms, IBAN without spaces), API names. */
export const OLD_DATA = {
  CustomerSalutation: 'Frau',
  CustomerFirstName: 'Erika',
  CustomerLastName: 'Mustermann',
  CustomerPostalCode: '50667',
  CustomerCity: 'Köln',
  CustomerCountry: 'DE',
  CustomerStreet: 'Domkloster',
  CustomerStreetNumber: '4',
  CustomerCompany: '',
  CustomerCompany2: 'c/o "Dom"',
  AdditionToAddress: '',
  DeliveryAddressSalutation: 'Herr',
  DeliveryAddressFirstName: 'Max',
  DeliveryAddressLastName: 'Mustermann',
  DeliveryAddressPostalCode: '10115',
  DeliveryAddressCity: 'Berlin',
  DeliveryAddressCountry: 'DE',
  DeliveryAddressStreet: 'Invalidenstraße',
  DeliveryAddressStreetNumber: '1',
  DeliveryAddressCompany: '',
  AdditionToDeliveryAddress: '',
  CustomerIban: 'DE89370400440532013000',
  CustomerBic: 'COBADEFFXXX',
  CustomerSepaMandateReference: 'MANDATE-1',
  CustomerSepaMandateDate: 1700000000000,
  AccountHolderName: 'Erika Mustermann',
  CustomerEMail: 'erika@example.com',
  Note: 'Bitte klingeln',
  PaymentMethod: 'SEPA',
  ShippingMethod: 'DHL',
  DeliveryDate: 1700600000000,
  OrderNumber: 'SHOP-1',
  MediaCode: 'NEWSLETTER',
  ExternalCustomerId: 'old-ext',
  Payment: {
    Amount: 19.99,
    Name: 'Anzahlung',
    Date: 1709287200000,
    ReferenceNumber: 'R-1',
    FinancialAccountNumber: '1200',
    Type: 'PayPal',
  },
} as const;

/** OLD_DATA as a client sends it: the same request, dates in the wire's form. */
export function oldDataBody(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  const date = (ms: number): string => `\\/Date(${ms})\\/`;
  return {
    ...OLD_DATA,
    CustomerSepaMandateDate: date(OLD_DATA.CustomerSepaMandateDate),
    DeliveryDate: date(OLD_DATA.DeliveryDate),
    Payment: { ...OLD_DATA.Payment, Date: date(OLD_DATA.Payment.Date) },
    ...overrides,
  };
}

export interface PlantedOrder {
  readonly orderId: number;
  readonly orderNumber: string;
  readonly customerId: string;
  readonly confirmedAt: number;
  /** The Idempotency-Key its confirmation was sent with (by the admin test key). */
  readonly key: string;
}

/**
 * Takes the store back to the release before migration 004: every later migration is undone
 * (newest first) and 004 and those are no longer recorded as applied. 004 itself is not undone:
 * rows are planted in the old form by hand, and 004 leaves rows already in the new form as they are.
 */
export async function rewindBefore004(app: TestApp): Promise<void> {
  const later = Object.keys(MIGRATIONS)
    .filter((name) => name > '004-stored-names')
    .sort()
    .reverse();
  for (const name of later) await MIGRATIONS[name]!.down!(app.store.db as Kysely<unknown>);
  await app.store.db
    .deleteFrom('schema_migrations' as never)
    .where('name' as never, 'in', ['004-stored-names', ...later] as never)
    .execute();
}

/**
 * Confirms an open order as an earlier release did: the order row with the old JSON and hash, and
 * a done Idempotency-Key row whose answer and request hash are in the old form too.
 */
export async function plantOldConfirmation(app: TestApp, orderId: number, suffix: string): Promise<PlantedOrder> {
  const customerId = `old-customer-${suffix}`;
  const confirmedAt = 1_700_000_123_000;
  const now = Date.now();
  const db = app.store.db;
  await db
    .insertInto('customers')
    .values({
      customer_id: customerId,
      external_id: `old-ext-${suffix}`,
      first_name: 'Erika',
      modified_at: now,
      created_at: now,
      custom_fields_version: 0,
    })
    .execute();
  const text = oldConfirmationText(OLD_DATA);
  const hash = sha256(text);
  const order = await db
    .updateTable('orders')
    .set({ status: 'Confirmed', customer_id: customerId, confirmed_at: confirmedAt, confirmation: text, confirmation_hash: hash })
    .where('order_id', '=', orderId)
    .returning('order_number')
    .executeTakeFirstOrThrow();
  const key = `old-key-${suffix}`;
  const answer = {
    OrderId: orderId,
    OrderNumber: order.order_number,
    Status: 'Confirmed',
    CustomerId: customerId,
    ConfirmedAt: confirmedAt,
  };
  await db
    .insertInto('idempotency_keys')
    .values({
      api_key_id: keyId(app.keys.admin),
      idempotency_key: key,
      operation: 'ConfirmOrder',
      request_hash: sha256(`${orderId}\n${hash}`),
      state: 'done',
      response_status: 200,
      response_body: JSON.stringify(answer),
      created_at: now,
    })
    .execute();
  return { orderId, orderNumber: order.order_number, customerId, confirmedAt, key };
}

/** The exact wire text a confirmation of a planted order answered before, and must answer still. */
export const plantedAnswerText = (p: PlantedOrder): string =>
  `{"OrderId":${p.orderId},"OrderNumber":${JSON.stringify(p.orderNumber)},"Status":"Confirmed",` +
  `"CustomerId":${JSON.stringify(p.customerId)},"ConfirmedAt":"\\/Date(${p.confirmedAt}-0000)\\/"}`;

export async function orderRow(app: TestApp, orderId: number) {
  return app.store.db.selectFrom('orders').selectAll().where('order_id', '=', orderId).executeTakeFirstOrThrow();
}

export async function keyRow(app: TestApp, key: string) {
  return app.store.db
    .selectFrom('idempotency_keys')
    .selectAll()
    .where('api_key_id', '=', keyId(app.keys.admin))
    .where('idempotency_key', '=', key)
    .executeTakeFirstOrThrow();
}

/**
 * After migration 004, a planted order behaves as it did before it: stored as an order confirmed
 * now with the same data (`control`) is, shown the same, a retry with the same body answers the
 * first 200, its Idempotency-Key replays the first answer, and a different body is still refused.
 */
export async function assertConvertedAndUnchanged(app: TestApp, p: PlantedOrder, control: number): Promise<void> {
  const row = await orderRow(app, p.orderId);
  const controlRow = await orderRow(app, control);
  assert.equal(row.confirmation, controlRow.confirmation, 'stored as the service stores the same data now');
  assert.equal(row.confirmation_hash, controlRow.confirmation_hash);
  assert.equal(row.confirmation_hash, sha256(row.confirmation ?? ''));
  assert.deepEqual(JSON.parse((await keyRow(app, p.key)).response_body ?? 'null'), {
    order_id: p.orderId,
    order_number: p.orderNumber,
    status: 'Confirmed',
    customer_id: p.customerId,
    confirmed_at: p.confirmedAt,
  });

  const view = JSON.parse((await app.inject(`/orders/${p.orderId}`)).body);
  const controlView = JSON.parse((await app.inject(`/orders/${control}`)).body);
  assert.deepEqual(view.Confirmation, controlView.Confirmation);
  assert.equal(view.Confirmation.CustomerIban, 'DE89********3000');
  assert.equal(view.CustomerId, p.customerId);

  const confirmIt = (body: Record<string, unknown>, headers: Record<string, string> = {}) =>
    app.inject({ method: 'POST', url: `/orders/${p.orderId}/confirm`, payload: body, headers });
  const retry = await confirmIt(oldDataBody());
  assert.equal(retry.statusCode, 200, retry.body);
  assert.equal(retry.body, plantedAnswerText(p));
  const replay = await confirmIt(oldDataBody(), { 'idempotency-key': p.key });
  assert.equal(replay.statusCode, 200, replay.body);
  assert.equal(replay.headers['idempotent-replayed'], 'true');
  assert.equal(replay.body, plantedAnswerText(p));
  assert.equal((await confirmIt(oldDataBody({ CustomerCity: 'Bonn' }))).statusCode, 409);
  assert.equal((await confirmIt(oldDataBody({ CustomerCity: 'Bonn' }), { 'idempotency-key': p.key })).statusCode, 422);
}
