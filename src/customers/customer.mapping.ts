import type { CustomerRow } from '../store/database.js';
import { CUSTOMER_COLUMNS, type CustomerColumn, type CustomerData } from './customer.columns.js';
import type { Customer, UpsertCustomerRequest } from './customer.schemas.js';

export type { CustomerData } from './customer.columns.js';

// The mappers are written from the column table once, at load, as one object literal each: a
// literal gives every result its shape at once, where filling an object in a loop costs about 25
// times as much per row (a sync maps every row of the table). The names are the table's constants.
// eslint-disable-next-line @typescript-eslint/no-implied-eval -- the source is built from the column constants, never from input
const rowToCustomer = new Function(
  'r',
  `return { CustomerId: r.customer_id, ${CUSTOMER_COLUMNS.map(([f, c]) => `${f}: r.${c}`).join(', ')} };`,
) as (row: object) => Customer;
// eslint-disable-next-line @typescript-eslint/no-implied-eval -- the source is built from the column constants, never from input
const requestToData = new Function('r', 'orNull', `return { ${CUSTOMER_COLUMNS.map(([f, c]) => `${c}: orNull(r.${f})`).join(', ')} };`) as (
  req: object,
  orNull: (v: string | undefined) => string | null,
) => CustomerData;

const orNull = (v: string | undefined): string | null => (v === undefined || v === '' ? null : v);

/** Row → API shape: the 14 spec fields, nulls kept. */
export const toCustomer = (row: Pick<CustomerRow, 'customer_id' | CustomerColumn>): Customer => rowToCustomer(row);

/** Request → the 13 data columns; an absent or empty field is null. */
export const toCustomerData = (req: Omit<UpsertCustomerRequest, 'CustomerId'>): CustomerData => requestToData(req, orNull);
