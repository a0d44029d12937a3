import { createHash } from 'node:crypto';
import { sql, type Kysely } from 'kysely';

// Frozen once released. Stored JSON moves from the API's names to storage names: the confirmation
// kept with an order (`orders.confirmation`, and its hash `confirmation_hash`) and the answers an
// Idempotency-Key replays (`idempotency_keys.response_body`, and `request_hash`, which hashes the
// confirmation's hash). The tables below are a copy of src/orders/order.stored-form.ts as of this
// release, on purpose: a migration must not follow later changes to the application.

const CONFIRMATION: Readonly<Record<string, string>> = {
  CustomerId: 'customer_id',
  CustomerSalutation: 'customer_salutation',
  CustomerFirstName: 'customer_first_name',
  CustomerLastName: 'customer_last_name',
  CustomerPostalCode: 'customer_postal_code',
  CustomerCity: 'customer_city',
  CustomerCountry: 'customer_country',
  CustomerStreet: 'customer_street',
  CustomerStreetNumber: 'customer_street_number',
  CustomerCompany: 'customer_company',
  CustomerCompany2: 'customer_company2',
  AdditionToAddress: 'addition_to_address',
  DeliveryAddressSalutation: 'delivery_address_salutation',
  DeliveryAddressFirstName: 'delivery_address_first_name',
  DeliveryAddressLastName: 'delivery_address_last_name',
  DeliveryAddressPostalCode: 'delivery_address_postal_code',
  DeliveryAddressCity: 'delivery_address_city',
  DeliveryAddressCountry: 'delivery_address_country',
  DeliveryAddressStreet: 'delivery_address_street',
  DeliveryAddressStreetNumber: 'delivery_address_street_number',
  DeliveryAddressCompany: 'delivery_address_company',
  AdditionToDeliveryAddress: 'addition_to_delivery_address',
  CustomerIban: 'customer_iban',
  CustomerBic: 'customer_bic',
  CustomerSepaMandateReference: 'customer_sepa_mandate_reference',
  CustomerSepaMandateDate: 'customer_sepa_mandate_date',
  AccountHolderName: 'account_holder_name',
  CustomerEMail: 'customer_email',
  Note: 'note',
  PaymentMethod: 'payment_method',
  ShippingMethod: 'shipping_method',
  ExternalCustomerId: 'external_customer_id',
  OrderNumber: 'order_number',
  MediaCode: 'media_code',
  DeliveryDate: 'delivery_date',
  Payment: 'payment',
};
const PAYMENT: Readonly<Record<string, string>> = {
  Amount: 'amount',
  Name: 'name',
  Date: 'date',
  ReferenceNumber: 'reference_number',
  FinancialAccountNumber: 'financial_account_number',
  Type: 'type',
};
const ANSWER: Readonly<Record<string, string>> = {
  OrderId: 'order_id',
  OrderNumber: 'order_number',
  Status: 'status',
  CustomerId: 'customer_id',
  ConfirmedAt: 'confirmed_at',
};

const invert = (t: Readonly<Record<string, string>>): Record<string, string> =>
  Object.fromEntries(Object.entries(t).map(([a, b]) => [b, a]));

/** One direction of the renaming: the names, and which field holds the payment. */
interface Names {
  readonly confirmation: Readonly<Record<string, string>>;
  readonly payment: Readonly<Record<string, string>>;
  readonly paymentField: string;
  readonly answer: Readonly<Record<string, string>>;
  readonly answerOrderId: string;
}
const UP: Names = { confirmation: CONFIRMATION, payment: PAYMENT, paymentField: 'Payment', answer: ANSWER, answerOrderId: 'OrderId' };
const DOWN: Names = {
  confirmation: invert(CONFIRMATION),
  payment: invert(PAYMENT),
  paymentField: 'payment',
  answer: invert(ANSWER),
  answerOrderId: 'order_id',
};

// A name not in the table is kept: rows already renamed (or a field this copy does not know)
// come through unchanged, so a second run changes nothing.
function rename(
  value: Record<string, unknown>,
  names: Readonly<Record<string, string>>,
  nested?: [string, Readonly<Record<string, string>>],
) {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    out[names[k] ?? k] =
      nested && k === nested[0] && v !== null && typeof v === 'object' ? rename(v as Record<string, unknown>, nested[1]) : v;
  }
  return out;
}

/** JSON with the keys of every object sorted (UTF-16 code units), as the service writes it. */
function sortedJson(value: unknown): string {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return JSON.stringify(value);
  const keys = Object.keys(value).sort();
  return `{${keys.map((k) => `${JSON.stringify(k)}:${sortedJson((value as Record<string, unknown>)[k])}`).join(',')}}`;
}

const sha256 = (text: string): string => createHash('sha256').update(text, 'utf8').digest('hex');
const requestHash = (orderId: string, confirmationHash: string): string => sha256(`${orderId}\n${confirmationHash}`);

function renamedConfirmation(text: string, names: Names): { text: string; hash: string } {
  const renamed = sortedJson(rename(JSON.parse(text) as Record<string, unknown>, names.confirmation, [names.paymentField, names.payment]));
  return { text: renamed, hash: sha256(renamed) };
}

interface KeyRow {
  api_key_id: string;
  idempotency_key: string;
  request_hash: string;
  response_body: string;
}
interface OrderRow {
  order_id: number | string;
  confirmation: string;
  confirmation_hash: string | null;
}

/**
 * The stored answers, and their request hashes: those hash the order's confirmation hash, which
 * changes below. A key whose hash matched its order's confirmation before matches it after.
 * Runs before the orders are converted, while their old hashes can still be compared.
 */
async function convertKeys(db: Kysely<unknown>, names: Names): Promise<void> {
  const { rows } = await sql<KeyRow>`select api_key_id, idempotency_key, request_hash, response_body from idempotency_keys
    where operation = 'ConfirmOrder' and response_body is not null`.execute(db);
  for (const row of rows) {
    const body = JSON.parse(row.response_body) as unknown;
    if (body === null || typeof body !== 'object') continue;
    const orderId = String((body as Record<string, unknown>)[names.answerOrderId] ?? '');
    let hash = row.request_hash;
    const order = /^[1-9][0-9]*$/.test(orderId)
      ? (
          await sql<OrderRow>`select order_id, confirmation, confirmation_hash from orders
          where order_id = ${Number(orderId)} and confirmation is not null`.execute(db)
        ).rows[0]
      : undefined;
    if (order && hash === requestHash(orderId, order.confirmation_hash ?? '')) {
      hash = requestHash(orderId, renamedConfirmation(order.confirmation, names).hash);
    }
    const text = JSON.stringify(rename(body as Record<string, unknown>, names.answer));
    await sql`update idempotency_keys set response_body = ${text}, request_hash = ${hash}
      where api_key_id = ${row.api_key_id} and idempotency_key = ${row.idempotency_key}`.execute(db);
  }
}

const PAGE = 500;

/** Every stored confirmation renamed and hashed again, a page at a time (memory stays flat). */
async function convertOrders(db: Kysely<unknown>, names: Names): Promise<void> {
  for (let after = 0; ;) {
    const { rows } = await sql<OrderRow>`select order_id, confirmation, confirmation_hash from orders
      where confirmation is not null and order_id > ${after} order by order_id limit ${PAGE}`.execute(db);
    for (const row of rows) {
      const { text, hash } = renamedConfirmation(row.confirmation, names);
      await sql`update orders set confirmation = ${text}, confirmation_hash = ${hash} where order_id = ${row.order_id}`.execute(db);
    }
    if (rows.length < PAGE) return;
    after = Number(rows[rows.length - 1]!.order_id);
  }
}

export async function up(db: Kysely<unknown>): Promise<void> {
  await convertKeys(db, UP);
  await convertOrders(db, UP);
}

/** Back to the API's names, for a return to the release before this one. */
export async function down(db: Kysely<unknown>): Promise<void> {
  await convertKeys(db, DOWN);
  await convertOrders(db, DOWN);
}
