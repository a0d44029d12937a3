import type { CustomerRow } from '../store/database.js';
import type { Customer, UpsertCustomerRequest } from './customer.schemas.js';

/** Row → API shape: the 14 spec fields, nulls kept. */
export function toCustomer(row: CustomerRow): Customer {
  return {
    CustomerId: row.customer_id,
    ExternalId: row.external_id,
    Salutation: row.salutation,
    FirstName: row.first_name,
    LastName: row.last_name,
    PostalCode: row.postal_code,
    City: row.city,
    Country: row.country,
    Street: row.street,
    StreetNumber: row.street_number,
    Company: row.company,
    Company2: row.company2,
    AdditionToAddress: row.addition_to_address,
    Quarter: row.quarter,
  };
}

/** The 13 data columns of a customer (all but the id and the bookkeeping columns). */
export type CustomerData = Omit<CustomerRow, 'customer_id' | 'modified_at' | 'created_at' | 'custom_fields_version'>;

const orNull = (v: string | undefined): string | null => (v === undefined || v === '' ? null : v);

export function toCustomerData(req: Omit<UpsertCustomerRequest, 'CustomerId'>): CustomerData {
  return {
    external_id: orNull(req.ExternalId),
    salutation: orNull(req.Salutation),
    first_name: orNull(req.FirstName),
    last_name: orNull(req.LastName),
    postal_code: orNull(req.PostalCode),
    city: orNull(req.City),
    country: orNull(req.Country),
    street: orNull(req.Street),
    street_number: orNull(req.StreetNumber),
    company: orNull(req.Company),
    company2: orNull(req.Company2),
    addition_to_address: orNull(req.AdditionToAddress),
    quarter: orNull(req.Quarter),
  };
}
