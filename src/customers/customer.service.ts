import { conflict } from '../errors.js';
import { isUniqueViolation } from '../store/unique-violation.js';
import type { Store } from '../store/store.js';
import { nextStamp } from '../store/sync-clock.js';
import { FieldRules } from '../wire/field-rules.js';
import { MAX_FIELD_LENGTH } from '../wire/limits.js';
import { customerRepository } from './customer.repository.js';
import { toCustomer, toCustomerData } from './customer.mapping.js';
import { CUSTOMER_FIELDS, type Customer, type UpsertCustomerRequest } from './customer.schemas.js';

export { searchCustomers, MAX_IDENTIFIERS, type SearchResult } from './customer.search.js';

const PG_DEADLOCK = '40P01';
const ATTEMPTS = 3;

/** The upsert rules, shared with the import: CustomerId present, every field ≤ 255 characters. */
export function customerRules(req: Partial<Record<(typeof CUSTOMER_FIELDS)[number], unknown>>, rules = new FieldRules()): FieldRules {
  rules.notEmpty('CustomerId', req.CustomerId);
  for (const field of CUSTOMER_FIELDS) rules.maxLength(field, req[field], MAX_FIELD_LENGTH);
  return rules;
}

/**
 * Creates or replaces a customer (operator route); its modification stamp moves. The row is written
 * before the stamp is taken, the order every customer writer keeps (store/sync-clock.ts), so that
 * this never waits for the clock while holding nothing another clock holder needs.
 */
export async function upsertCustomer(store: Store, req: UpsertCustomerRequest): Promise<Customer> {
  customerRules(req).throwIfAny();
  const data = toCustomerData(req);
  for (let attempt = 1; ; attempt++) {
    try {
      return await store.writeTransaction(async (trx) => {
        if (data.external_id !== null) {
          const holder = await customerRepository.findByExternalId(trx, data.external_id);
          if (holder && holder.customer_id !== req.CustomerId) throw externalIdTaken();
        }
        await customerRepository.writeData(trx, req.CustomerId, data, Date.now());
        const stamp = await nextStamp(store.dialect, trx);
        await customerRepository.touch(trx, [req.CustomerId], stamp);
        return toCustomer((await customerRepository.findById(trx, req.CustomerId))!);
      });
    } catch (err) {
      if (isUniqueViolation(err)) throw externalIdTaken();
      // A writer elsewhere that takes its locks in another order can still meet this one; PostgreSQL
      // then aborts one of the two, and retrying it is safe (the transaction changed nothing).
      if ((err as { code?: unknown }).code === PG_DEADLOCK && attempt < ATTEMPTS) continue;
      throw err;
    }
  }
}

function externalIdTaken() {
  return conflict('Another customer already has this ExternalId', 'ExternalIdTaken', 'ExternalId');
}
