import type { EventSource } from '../events/index.js';
import type { CustomerRow } from '../store/database.js';
import { toCustomer } from './customer.mapping.js';
import { customerRepository } from './customer.repository.js';

/** A customer's created and updated events hold the customer as the API shows it. */
export const customerEventSource: EventSource<string> = {
  async read(db, customerIds) {
    return new Map((await customerRepository.findMany(db, customerIds)).map((c) => [c.customer_id, c]));
  },
  eventData(row) {
    const customer = row as CustomerRow;
    return { data: toCustomer(customer), customerId: customer.customer_id };
  },
};
