import type { Unit } from '../writes/unit.js';
import { DATA_COLUMNS, type CustomerColumn } from './customer.columns.js';
import { customerRepository } from './customer.repository.js';
import { CUSTOMER_FIELDS } from './customer.schemas.js';

/** The columns of a customer's row that hold personal data: an erasure sets every one to null. */
export const PERSONAL_CUSTOMER_COLUMNS: readonly CustomerColumn[] = DATA_COLUMNS;

/** A customer about to be erased: whether its row still holds personal data, and when it was erased before. */
export interface CustomerToErase {
  readonly holdsPersonalData: boolean;
  readonly erasedAt: number | null;
}

/**
 * Locks the customer's row until the transaction ends, so that a write racing the erasure either
 * lands before it (and is erased) or after it; undefined when there is no such customer.
 */
export async function lockCustomerToErase(unit: Unit, customerId: string): Promise<CustomerToErase | undefined> {
  const row = await customerRepository.findForUpdate(unit.db, customerId);
  if (!row) return undefined;
  return {
    holdsPersonalData: PERSONAL_CUSTOMER_COLUMNS.some((c) => row[c] !== null),
    erasedAt: row.erased_at == null ? null : Number(row.erased_at),
  };
}

/** Forgets the customer's personal data (its id and bookkeeping stay) and records when. */
export async function eraseCustomerRow(unit: Unit, customerId: string, now: number): Promise<void> {
  await customerRepository.blank(unit.db, customerId, now);
  unit.touch('customer', customerId);
}

/** A customer event's payload with its data fields null (the id stays). */
export function erasedCustomerEventData(type: string, data: Record<string, unknown>): Record<string, unknown> {
  if (type !== 'customer.created' && type !== 'customer.updated') return data;
  for (const f of CUSTOMER_FIELDS) if (f !== 'CustomerId' && f in data) data[f] = null;
  return data;
}
