import { randomUUID } from 'node:crypto';
import type { CustomerRow } from '../store/database.js';
import type { Unit } from '../writes/unit.js';
import type { CustomerAddress } from './customer.columns.js';
import { customerRepository } from './customer.repository.js';

/**
 * A new customer's id: a UUID version 7 (RFC 9562) — unique without coordination, so it cannot
 * collide with imported or seeded ids, and ordered by creation time, so new ids land at the end of
 * the primary-key index instead of on a random page of it.
 */
export function newCustomerId(now = Date.now()): string {
  // randomUUID draws from a pooled random buffer; its version-4 random bits supply the rest.
  const random = randomUUID();
  const time = now.toString(16).padStart(12, '0'); // 48-bit Unix time in ms
  return `${time.slice(0, 8)}-${time.slice(8, 12)}-7${random.slice(15, 18)}-${random.slice(19)}`;
}

/** How a confirmation names its customer (the request's CustomerId and ExternalCustomerId). */
export interface ConfirmingCustomer {
  readonly customerId?: string | null;
  readonly externalId?: string | null;
}

/**
 * The customer an order confirmation names: CustomerId → that customer; else ExternalCustomerId
 * matching an ExternalId → that customer; else a new one. Either way its name and address are
 * written from the confirmation, and its event is emitted. Undefined: no customer has that CustomerId.
 */
export async function customerOfConfirmation(
  unit: Unit,
  ref: ConfirmingCustomer,
  address: CustomerAddress,
  now: number,
): Promise<string | undefined> {
  let row: CustomerRow | undefined;
  let created = false;
  if (ref.customerId) {
    row = await customerRepository.updateAddress(unit.db, ref.customerId, address);
    if (!row) return undefined;
  } else {
    const newId = newCustomerId(now);
    row = await customerRepository.upsertByExternalId(unit.db, newId, ref.externalId || null, address, now);
    created = row.customer_id === newId;
  }
  unit.touch('customer', row.customer_id);
  unit.emit({ type: created ? 'customer.created' : 'customer.updated', customerId: row.customer_id, row });
  return row.customer_id;
}
