import type { WriteDoor } from '../writes/write-door.js';
import { toCustomer, toCustomerData } from './customer.mapping.js';
import { customerRules } from './customer.rules.js';
import type { Customer, UpsertCustomerRequest } from './customer.schemas.js';
import { upsertCustomerWrite } from './customer.writes.js';

export { searchCustomers, MAX_IDENTIFIERS, type SearchResult } from './customer.search.js';

export { MAX_FIELD_LENGTH } from './customer.rules.js';

/** Creates or replaces a customer (operator route); its modification stamp moves. */
export async function upsertCustomer(writes: WriteDoor, req: UpsertCustomerRequest): Promise<Customer> {
  customerRules(req).throwIfAny();
  return toCustomer(await writes.run(upsertCustomerWrite, { customerId: req.CustomerId, data: toCustomerData(req) }));
}
