import type { CustomerRow } from '../store/database.js';
import { CUSTOMER_COLUMNS, type CustomerData } from './customer.columns.js';
import type { Customer, UpsertCustomerRequest } from './customer.schemas.js';

export type { CustomerData } from './customer.columns.js';

/** Row → API shape: the 14 spec fields, nulls kept. */
export function toCustomer(row: CustomerRow): Customer {
  const customer: Record<string, string | null> = { CustomerId: row.customer_id };
  for (const [field, column] of CUSTOMER_COLUMNS) customer[field] = row[column];
  return customer as Customer;
}

const orNull = (v: string | undefined): string | null => (v === undefined || v === '' ? null : v);

/** Request → the 13 data columns; an absent or empty field is null. */
export function toCustomerData(req: Omit<UpsertCustomerRequest, 'CustomerId'>): CustomerData {
  const data: Record<string, string | null> = {};
  for (const [field, column] of CUSTOMER_COLUMNS) data[column] = orNull(req[field]);
  return data as CustomerData;
}
