/** Privacy as the rest of the service sees it: a customer's data exported and erased. */
export { privacyWrites } from './privacy.erasure.js';
export { privacyOperations } from './privacy.operations.js';
export { eraseCustomer, exportCustomerData } from './privacy.service.js';
