import { externalIdTaken } from '../errors.js';
import { isUniqueViolation } from '../store/unique-violation.js';
import type { Store } from '../store/store.js';
import { nextStamp } from '../store/sync-clock.js';
import { customerRepository } from './customer.repository.js';
import { toCustomer, toCustomerData } from './customer.mapping.js';
import type { Customer, UpsertCustomerRequest } from './customer.schemas.js';

export { searchCustomers, MAX_IDENTIFIERS, type SearchResult } from './customer.search.js';

const PG_DEADLOCK = '40P01';
const ATTEMPTS = 3;

/**
 * Creates or replaces a customer (operator route); its modification stamp moves. The row is written
 * before the stamp is taken, the order every customer writer keeps (store/sync-clock.ts), so that
 * this never waits for the clock while holding nothing another clock holder needs.
 */
export async function upsertCustomer(store: Store, req: UpsertCustomerRequest): Promise<Customer> {
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
