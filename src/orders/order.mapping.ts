import { createHash } from 'node:crypto';
import { wireDate, type WireDateValue } from '../wire/serializer.js';
import type { CustomerAddress, StoredOrder } from './order.repository.js';
import { CONFIRMATION_TEXT_FIELDS } from './order.schemas.js';
import type { ConfirmationData, PaymentData } from './order.validation.js';

/** What a confirmation answers (and an Idempotency-Key replays); dates in epoch ms. */
export interface ConfirmAnswer {
  readonly OrderId: number;
  readonly OrderNumber: string;
  readonly Status: 'Confirmed';
  readonly CustomerId: string;
  readonly ConfirmedAt: number;
}

export const toConfirmResponse = (a: ConfirmAnswer) => ({ ...a, ConfirmedAt: wireDate(a.ConfirmedAt) as WireDateValue });

export const answerOf = (order: StoredOrder): ConfirmAnswer => ({
  OrderId: order.order_id,
  OrderNumber: order.order_number,
  Status: 'Confirmed',
  CustomerId: order.customer_id ?? '',
  ConfirmedAt: order.confirmed_at ?? 0,
});

// Property names of a confirmation, sorted as JSON text is compared (by UTF-16 code units).
const DATA_KEYS = [...CONFIRMATION_TEXT_FIELDS, 'CustomerSepaMandateDate', 'DeliveryDate', 'Payment'].sort() as Array<keyof ConfirmationData>;
const PAYMENT_KEYS = (['Amount', 'Name', 'Date', 'ReferenceNumber', 'FinancialAccountNumber', 'Type'] as const).slice().sort();

/**
 * The confirmation as JSON with its property names sorted at every level: equal data, equal text.
 * Stored with the order and hashed, so that retries compare by content; the text is the same as
 * earlier versions hashed, so their stored hashes still match. One native stringify of a sorted
 * copy, as this runs for every confirmation.
 */
export function confirmationJson(data: ConfirmationData): string {
  const sorted: Record<string, unknown> = {};
  for (const k of DATA_KEYS) {
    const v = data[k];
    if (v !== undefined) sorted[k] = k === 'Payment' ? sortedPayment(v as PaymentData) : v;
  }
  return JSON.stringify(sorted);
}

function sortedPayment(p: PaymentData): Record<string, unknown> {
  const sorted: Record<string, unknown> = {};
  for (const k of PAYMENT_KEYS) if (p[k] !== undefined) sorted[k] = p[k];
  return sorted;
}

export const sha256 = (text: string): string => createHash('sha256').update(text, 'utf8').digest('hex');

/** `DE89370400440532013000` → `DE89********3000`: country and check digits, then the last four. */
export function maskIban(iban: string): string {
  return iban.length <= 8 ? '*'.repeat(iban.length) : `${iban.slice(0, 4)}********${iban.slice(-4)}`;
}

const ADDRESS: ReadonlyArray<[keyof ConfirmationData, keyof CustomerAddress]> = [
  ['CustomerSalutation', 'salutation'], ['CustomerFirstName', 'first_name'], ['CustomerLastName', 'last_name'],
  ['CustomerPostalCode', 'postal_code'], ['CustomerCity', 'city'], ['CustomerCountry', 'country'], ['CustomerStreet', 'street'],
  ['CustomerStreetNumber', 'street_number'], ['CustomerCompany', 'company'], ['CustomerCompany2', 'company2'],
  ['AdditionToAddress', 'addition_to_address'],
];

/** The customer columns a confirmation sets: fields it carries overwrite, `""` clears, absent ones stay. */
export function addressOf(data: ConfirmationData): CustomerAddress {
  const out: Record<string, string | null> = {};
  for (const [field, column] of ADDRESS) {
    const v = data[field];
    if (typeof v === 'string') out[column] = v === '' ? null : v;
  }
  return out as CustomerAddress;
}

const orNull = <T>(v: T | undefined): T | null => (v === undefined ? null : v);

/** The stored confirmation as GET /orders/{OrderId} shows it: every field present, IBAN masked. */
export function toConfirmationView(json: string | null): Record<string, unknown> | null {
  if (json === null) return null;
  const data = JSON.parse(json) as ConfirmationData;
  const view: Record<string, unknown> = {};
  for (const f of CONFIRMATION_TEXT_FIELDS) view[f] = orNull(data[f]);
  if (typeof data.CustomerIban === 'string' && data.CustomerIban !== '') view.CustomerIban = maskIban(data.CustomerIban);
  view.CustomerSepaMandateDate = wireDate(data.CustomerSepaMandateDate);
  view.DeliveryDate = wireDate(data.DeliveryDate);
  const p = data.Payment;
  view.Payment = p
    ? { Amount: orNull(p.Amount), Name: orNull(p.Name), Date: wireDate(p.Date), ReferenceNumber: orNull(p.ReferenceNumber),
        FinancialAccountNumber: orNull(p.FinancialAccountNumber), Type: orNull(p.Type) }
    : null;
  return view;
}

export function toOrderView(order: StoredOrder) {
  return {
    OrderId: order.order_id,
    OrderNumber: order.order_number,
    Status: order.status,
    CustomerId: order.customer_id,
    CreatedAt: wireDate(order.created_at),
    ConfirmedAt: wireDate(order.confirmed_at),
    CancelledAt: wireDate(order.cancelled_at),
    Confirmation: toConfirmationView(order.confirmation),
  };
}
