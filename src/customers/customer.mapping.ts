import type { CustomerRow } from '../store/database.js';
import { CUSTOMER_COLUMNS, type CustomerColumn, type CustomerData } from './customer.columns.js';
import type { Customer, UpsertCustomerRequest } from './customer.schemas.js';

export type { CustomerData } from './customer.columns.js';

// The mappers are written from the column table once, at load, as one object literal each: a
// literal gives every result its shape at once, where filling an object in a loop costs about 25
// times as much per row (a sync maps every row of the table). The names are the table's constants.
const rowToCustomer = new Function(
  'r',
  `return { CustomerId: r.customer_id, ${CUSTOMER_COLUMNS.map(([f, c]) => `${f}: r.${c}`).join(', ')} };`,
);
const requestToData = new Function('r', 'orNull', `return { ${CUSTOMER_COLUMNS.map(([f, c]) => `${c}: orNull(r.${f})`).join(', ')} };`);

const orNull = (v: string | undefined): string | null => (v === undefined || v === '' ? null : v);

/** Row → API shape: the 14 spec fields, nulls kept. */
export const toCustomer = (row: Pick<CustomerRow, 'customer_id' | CustomerColumn>): Customer => rowToCustomer(row) as Customer;

/** Request → the 13 data columns; an absent or empty field is null. */
export const toCustomerData = (req: Omit<UpsertCustomerRequest, 'CustomerId'>): CustomerData => requestToData(req, orNull) as CustomerData;
