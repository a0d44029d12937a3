import { recordAuditWrite } from '../audit/audit.service.js';
import { DATA_COLUMNS } from '../customers/customer.columns.js';
import { customerRepository } from '../customers/customer.repository.js';
import { CUSTOMER_FIELDS } from '../customers/customer.schemas.js';
import { customFieldRepository } from '../customfields/customfield.repository.js';
import { customerNotFound } from '../errors.js';
import { decodeEventData, encodeEventData } from '../events/event-json.js';
import { eventRepository } from '../events/event.repository.js';
import { erasedConfirmationJson, erasedConfirmationView } from '../orders/order.erasure.js';
import { sha256 } from '../orders/order.mapping.js';
import { orderRepository } from '../orders/order.repository.js';
import type { EventRow } from '../store/database.js';
import { defineWrite, type Unit } from '../writes/unit.js';

export interface ErasureAnswer {
  readonly CustomerId: string;
  /** Epoch ms. */
  readonly ErasedAt: number;
}

/** An event's payload without the customer's personal data (design.md, "Privacy"). */
function erasedEventData(row: EventRow): string {
  const data = decodeEventData(row.data) as Record<string, unknown>;
  if (row.type === 'customer.created' || row.type === 'customer.updated') {
    for (const f of CUSTOMER_FIELDS) if (f !== 'CustomerId' && f in data) data[f] = null;
  } else if (row.type.startsWith('order.') && data.Confirmation !== undefined) {
    data.Confirmation = erasedConfirmationView(data.Confirmation as Record<string, unknown> | null);
  }
  return encodeEventData(data);
}

/** Scrubs the customer's orders; answers whether anything changed. */
async function eraseOrders(unit: Unit, customerId: string): Promise<boolean> {
  let changed = false;
  for (const o of await orderRepository.personalDataOfCustomer(unit.db, customerId)) {
    const confirmation = o.confirmation === null ? null : erasedConfirmationJson(o.confirmation);
    if (confirmation === o.confirmation && o.note === null) continue;
    // The hash of the data it replaced would still tell the data to whoever guesses it: rehash.
    await orderRepository.replaceConfirmation(unit.db, o.order_id, confirmation, confirmation === null ? null : sha256(confirmation));
    unit.touch('order', String(o.order_id));
    changed = true;
  }
  return changed;
}

/** Scrubs the payloads of the customer's events; answers whether anything changed. */
async function eraseEvents(unit: Unit, customerId: string): Promise<boolean> {
  let changed = false;
  for (const e of await eventRepository.ofCustomer(unit.db, customerId)) {
    const data = erasedEventData(e);
    if (data === e.data) continue;
    await eventRepository.replaceData(unit.db, e.sequence, data);
    changed = true;
  }
  return changed;
}

/**
 * Erases a customer's personal data in one transaction: the customer's 13 data fields, its
 * custom-field values, the personal fields of its orders' confirmations (and their notes) and of
 * its events' payloads. Accounting fields stay. The customer's row is locked first, so a
 * confirmation racing the erasure either lands before it (and is erased) or after it (new data).
 * The customer and its changed orders get a new stamp and `customer.erased` is emitted, so every
 * feed shows the erasure. Finding nothing left to erase, it answers the earlier erasure's time
 * and changes nothing (erasing again is idempotent).
 */
export const eraseCustomerWrite = defineWrite('customer.erase', async (unit, input: { customerId: string; keyId: string; now: number }): Promise<ErasureAnswer> => {
  const { customerId } = input;
  const row = await customerRepository.findForUpdate(unit.sql, unit.db, customerId);
  if (!row) throw customerNotFound(customerId);
  await recordAuditWrite.run(unit, { keyId: input.keyId, action: 'customer.erase', resourceType: 'customer', resourceIds: [customerId] });
  const customerHeld = DATA_COLUMNS.some((c) => row[c] !== null);
  const values = await customFieldRepository.deleteAllValues(unit.db, customerId);
  const orders = await eraseOrders(unit, customerId);
  const events = await eraseEvents(unit, customerId);
  if (!customerHeld && values === 0 && !orders && !events && row.erased_at != null) return { CustomerId: customerId, ErasedAt: Number(row.erased_at) };
  await customerRepository.blank(unit.db, customerId, input.now);
  if (values > 0) await customFieldRepository.bumpVersion(unit.sql, unit.db, customerId);
  unit.touch('customer', customerId);
  unit.emit({ type: 'customer.erased', customerId });
  return { CustomerId: customerId, ErasedAt: input.now };
});

export const privacyWrites = [eraseCustomerWrite];
