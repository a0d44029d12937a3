import type { ConfirmationData, PaymentData } from './order.validation.js';

// The names under which a confirmation, and the answer an Idempotency-Key replays, are stored.
// Declared here once, by hand, never derived from the API names: renaming an API field changes
// only the left side of a table, and the stored rows (and their hashes) stay as they are. A
// storage name never changes once released (migration 004 holds a frozen copy of these tables).

/** API name of a confirmation field → its storage name. */
export const CONFIRMATION_STORAGE_NAMES = {
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
} as const satisfies Record<keyof ConfirmationData, string>;

/** API name of a payment field → its storage name (inside `payment`). */
export const PAYMENT_STORAGE_NAMES = {
  Amount: 'amount',
  Name: 'name',
  Date: 'date',
  ReferenceNumber: 'reference_number',
  FinancialAccountNumber: 'financial_account_number',
  Type: 'type',
} as const satisfies Record<keyof PaymentData, string>;

/** API name of a confirmation's answer → its storage name (`idempotency_keys.response_body`). */
export const ANSWER_STORAGE_NAMES = {
  OrderId: 'order_id',
  OrderNumber: 'order_number',
  Status: 'status',
  CustomerId: 'customer_id',
  ConfirmedAt: 'confirmed_at',
} as const;

type Pairs = ReadonlyArray<readonly [api: string, stored: string]>;

// Sorted by storage name (UTF-16 code units, as JSON text compares): built once, as the stored
// text is made for every confirmation.
const byStoredName = (table: Readonly<Record<string, string>>): Pairs =>
  Object.entries(table).sort(([, a], [, b]) => (a < b ? -1 : a > b ? 1 : 0));
const CONFIRMATION_PAIRS = byStoredName(CONFIRMATION_STORAGE_NAMES);
const PAYMENT_PAIRS = byStoredName(PAYMENT_STORAGE_NAMES);

function toStored(from: Readonly<Record<string, unknown>>, pairs: Pairs): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [api, stored] of pairs) {
    const v = from[api];
    if (v === undefined) continue;
    out[stored] = api === 'Payment' ? toStored(v as Record<string, unknown>, PAYMENT_PAIRS) : v;
  }
  return out;
}

function fromStored(from: Readonly<Record<string, unknown>>, pairs: Pairs): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [api, stored] of pairs) {
    const v = from[stored];
    if (v === undefined) continue;
    out[api] = api === 'Payment' && v !== null ? fromStored(v as Record<string, unknown>, PAYMENT_PAIRS) : v;
  }
  return out;
}

/**
 * The confirmation as stored with the order: storage names, sorted at every level, so that equal
 * data gives equal text (its hash tells a retry from a different request). One native stringify.
 */
export function storedConfirmationJson(data: ConfirmationData): string {
  return JSON.stringify(toStored(data, CONFIRMATION_PAIRS));
}

/** A stored confirmation's text back in API names. */
export function parseStoredConfirmation(text: string): ConfirmationData {
  return fromStored(JSON.parse(text) as Record<string, unknown>, CONFIRMATION_PAIRS) as ConfirmationData;
}

const ANSWER_PAIRS: Pairs = Object.entries(ANSWER_STORAGE_NAMES);

/** An answer (API names) in storage names, in the order of ANSWER_STORAGE_NAMES. */
export const toStoredAnswer = (answer: Readonly<Record<keyof typeof ANSWER_STORAGE_NAMES, unknown>>): Record<string, unknown> =>
  toStored(answer, ANSWER_PAIRS);

/** A stored answer back in API names, in the order of ANSWER_STORAGE_NAMES (the wire's order). */
export const fromStoredAnswer = (stored: unknown): Record<string, unknown> => fromStored(stored as Record<string, unknown>, ANSWER_PAIRS);
