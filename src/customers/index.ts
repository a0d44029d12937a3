/**
 * The customers module as the rest of the service sees it: its operations and writes, the rows it
 * stamps, its events' payloads, the customer an order confirmation names, and what an erasure asks of it.
 */
export type { CustomerAddress } from './customer.columns.js';
export { customerOfConfirmation } from './customer.confirmation.js';
export { eraseCustomerRow, erasedCustomerEventData, lockCustomerToErase, PERSONAL_CUSTOMER_COLUMNS } from './customer.erasure.js';
export { customerEventSource } from './customer.events.js';
export { exportCustomers } from './customer.export.js';
export { importCustomers } from './customer.import.js';
export { customerOperations } from './customer.operations.js';
import { customerRepository } from './customer.repository.js';
/** Moves the modification stamp of customers: the write door calls it once per transaction. */
export const stampCustomers = customerRepository.touch;
export { Customer } from './customer.schemas.js';
export { demoCustomer, seedCustomers } from './customer.seed.js';
export { findCustomer } from './customer.service.js';
export { customerWrites } from './customer.writes.js';
