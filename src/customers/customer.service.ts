import { FieldRules } from '../wire/field-rules.js';
import type { WriteDoor } from '../writes/write-door.js';
import { toCustomer, toCustomerData } from './customer.mapping.js';
import { CUSTOMER_FIELDS, type Customer, type UpsertCustomerRequest } from './customer.schemas.js';
import { upsertCustomerWrite } from './customer.writes.js';

export { searchCustomers, MAX_IDENTIFIERS, type SearchResult } from './customer.search.js';

export const MAX_FIELD_LENGTH = 255;

/** The upsert rules, shared with the import: CustomerId present, every field ≤ 255 characters. */
export function customerRules(req: Partial<Record<(typeof CUSTOMER_FIELDS)[number], unknown>>, rules = new FieldRules()): FieldRules {
  rules.notEmpty('CustomerId', req.CustomerId);
  for (const field of CUSTOMER_FIELDS) rules.maxLength(field, req[field], MAX_FIELD_LENGTH);
  return rules;
}

/** Creates or replaces a customer (operator route); its modification stamp moves. */
export async function upsertCustomer(writes: WriteDoor, req: UpsertCustomerRequest): Promise<Customer> {
  customerRules(req).throwIfAny();
  return toCustomer(await writes.run(upsertCustomerWrite, { customerId: req.CustomerId, data: toCustomerData(req) }));
}
