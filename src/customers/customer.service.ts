import type { DbHandle } from '../store/store.js';
import type { WriteDoor } from '../writes/write-door.js';
import { toCustomer, toCustomerData } from './customer.mapping.js';
import { customerRepository } from './customer.repository.js';
import type { Customer, UpsertCustomerRequest } from './customer.schemas.js';
import { upsertCustomerWrite } from './customer.writes.js';

export { searchCustomers, MAX_IDENTIFIERS, type SearchResult } from './customer.search.js';

/** Creates or replaces a customer (operator route); its modification stamp moves. */
export async function upsertCustomer(writes: WriteDoor, req: UpsertCustomerRequest): Promise<Customer> {
  return (await putCustomer(writes, req)).customer;
}

/** upsertCustomer, also telling whether the customer was created (PUT answers 201) or replaced (200). */
export async function putCustomer(writes: WriteDoor, req: UpsertCustomerRequest): Promise<{ customer: Customer; created: boolean }> {
  const { row, created } = await writes.run(upsertCustomerWrite, { customerId: req.CustomerId, data: toCustomerData(req) });
  return { customer: toCustomer(row), created };
}

/** A customer as the API shows it, or undefined when there is none. */
export async function findCustomer(db: DbHandle, customerId: string): Promise<Customer | undefined> {
  const row = await customerRepository.findById(db, customerId);
  return row && toCustomer(row);
}
