import { sha256 } from '../digest.js';
import type { OrderRow } from '../store/database.js';
import type { Unit } from '../writes/unit.js';
import { eraseRecordsOf } from './order-life.erasure.js';
import { orderRepository } from './order.repository.js';
import { CONFIRMATION_STORAGE_NAMES, PAYMENT_STORAGE_NAMES, parseStoredConfirmation, storedConfirmationJson } from './order.stored-form.js';
import type { ConfirmationData } from './order.validation.js';

type ConfirmationField = keyof typeof CONFIRMATION_STORAGE_NAMES;
type PaymentField = keyof typeof PAYMENT_STORAGE_NAMES;

/**
 * What an erasure does to a confirmation (docs/privacy.md, "What remains, and where"): a person's name, addresses,
 * contact, bank data and free text go; what accounting must keep stays. Every field is in one of
 * the two lists (a test checks it), so a new field needs a decision.
 */
export const PERSONAL_CONFIRMATION_FIELDS = [
  'CustomerSalutation',
  'CustomerFirstName',
  'CustomerLastName',
  'CustomerPostalCode',
  'CustomerCity',
  'CustomerStreet',
  'CustomerStreetNumber',
  'CustomerCompany',
  'CustomerCompany2',
  'AdditionToAddress',
  'DeliveryAddressSalutation',
  'DeliveryAddressFirstName',
  'DeliveryAddressLastName',
  'DeliveryAddressPostalCode',
  'DeliveryAddressCity',
  'DeliveryAddressStreet',
  'DeliveryAddressStreetNumber',
  'DeliveryAddressCompany',
  'AdditionToDeliveryAddress',
  'CustomerIban',
  'CustomerBic',
  'CustomerSepaMandateReference',
  'CustomerSepaMandateDate',
  'AccountHolderName',
  'CustomerEMail',
  'Note',
  'ExternalCustomerId',
] as const satisfies readonly ConfirmationField[];

/** Kept: the customer's id (the order keeps it too), countries, methods, dates and the order's number. */
export const KEPT_CONFIRMATION_FIELDS = [
  'CustomerId',
  'CustomerCountry',
  'DeliveryAddressCountry',
  'PaymentMethod',
  'ShippingMethod',
  'DeliveryDate',
  'MediaCode',
  'OrderNumber',
  'Payment',
] as const satisfies readonly ConfirmationField[];

export const PERSONAL_PAYMENT_FIELDS = ['Name', 'ReferenceNumber', 'FinancialAccountNumber'] as const satisfies readonly PaymentField[];
export const KEPT_PAYMENT_FIELDS = ['Amount', 'Type', 'Date'] as const satisfies readonly PaymentField[];

/** A stored confirmation with its personal fields removed (they read as null). */
export function erasedConfirmationJson(text: string): string {
  const data: Record<string, unknown> = { ...parseStoredConfirmation(text) };
  for (const f of PERSONAL_CONFIRMATION_FIELDS) delete data[f];
  const payment = data.Payment as Record<string, unknown> | null | undefined;
  if (payment) {
    const kept = { ...payment };
    for (const f of PERSONAL_PAYMENT_FIELDS) delete kept[f];
    data.Payment = kept;
  }
  return storedConfirmationJson(data as unknown as ConfirmationData);
}

/** A confirmation as the API shows it (an event's copy) with its personal fields null. */
export function erasedConfirmationView(view: Record<string, unknown> | null): Record<string, unknown> | null {
  if (view === null) return null;
  const out = { ...view };
  for (const f of PERSONAL_CONFIRMATION_FIELDS) if (f in out) out[f] = null;
  const payment = out.Payment as Record<string, unknown> | null | undefined;
  if (payment) {
    const kept = { ...payment };
    for (const f of PERSONAL_PAYMENT_FIELDS) if (f in kept) kept[f] = null;
    out.Payment = kept;
  }
  return out;
}

/**
 * The columns of an order's row that hold personal data: an erasure sets the note to null and
 * rewrites the confirmation (its stored and shown forms, and its hash) without the personal fields.
 */
export const PERSONAL_ORDER_COLUMNS = ['confirmation', 'confirmation_shown', 'confirmation_hash', 'note'] as const satisfies ReadonlyArray<
  keyof OrderRow
>;

/**
 * Scrubs the personal data of the customer's orders; answers whether anything changed, and the
 * customer's orders (every one holds a confirmation, erased or not).
 */
export async function eraseOrdersOf(unit: Unit, customerId: string): Promise<{ changed: boolean; orderIds: number[] }> {
  let changed = false;
  const orderIds: number[] = [];
  for (const o of await orderRepository.personalDataOfCustomer(unit.db, customerId)) {
    orderIds.push(Number(o.order_id));
    const confirmation = o.confirmation === null ? null : erasedConfirmationJson(o.confirmation);
    if (confirmation === o.confirmation && o.note === null) continue;
    // The hash of the data it replaced would still tell the data to whoever guesses it: rehash.
    await orderRepository.replaceConfirmation(unit.db, o.order_id, confirmation, confirmation === null ? null : sha256(confirmation));
    unit.touch('order', String(o.order_id));
    changed = true;
  }
  if (await eraseRecordsOf(unit, customerId)) changed = true;
  return { changed, orderIds };
}

/** The personal fields of the records of an order's life as the order shows them (order-life.erasure.ts's columns). */
const PERSONAL_RECORD_FIELDS = { Payments: ['Name', 'ReferenceNumber'], Refunds: ['ReferenceNumber'] } as const;

/** An order event's payload with its note, the personal fields of its confirmation and of its payments and refunds null. */
export function erasedOrderEventData(type: string, data: Record<string, unknown>): Record<string, unknown> {
  if (!type.startsWith('order.')) return data;
  if (data.Note !== undefined) data.Note = null;
  if (data.Confirmation !== undefined) {
    data.Confirmation = erasedConfirmationView(data.Confirmation as Record<string, unknown> | null);
  }
  for (const [list, fields] of Object.entries(PERSONAL_RECORD_FIELDS)) {
    const records = data[list];
    if (!Array.isArray(records)) continue;
    data[list] = records.map((r: Record<string, unknown>) => {
      const kept = { ...r };
      for (const f of fields) if (f in kept) kept[f] = null;
      return kept;
    });
  }
  return data;
}
