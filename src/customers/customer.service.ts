import type { WriteDoor } from '../writes/write-door.js';
import { toCustomer, toCustomerData } from './customer.mapping.js';
import type { Customer, UpsertCustomerRequest } from './customer.schemas.js';
import { upsertCustomerWrite } from './customer.writes.js';

export { searchCustomers, MAX_IDENTIFIERS, type SearchResult } from './customer.search.js';

/** Creates or replaces a customer (operator route); its modification stamp moves. */
export async function upsertCustomer(writes: WriteDoor, req: UpsertCustomerRequest): Promise<Customer> {
  return toCustomer(await writes.run(upsertCustomerWrite, { customerId: req.CustomerId, data: toCustomerData(req) }));
}
