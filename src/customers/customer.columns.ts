import type { CustomerRow } from '../store/database.js';
import type { CustomerField } from './customer.schemas.js';

/** The 13 data columns of a customer (all but the id and the bookkeeping columns). */
export type CustomerData = Omit<CustomerRow, 'customer_id' | 'modified_at' | 'created_at' | 'custom_fields_version' | 'erased_at'>;
export type CustomerColumn = keyof CustomerData;

/**
 * The one table of a customer's data: API field → column, in table order. Every mapping, column
 * list and statement about customers is derived from it.
 */
export const CUSTOMER_COLUMNS: ReadonlyArray<readonly [Exclude<CustomerField, 'CustomerId'>, CustomerColumn]> = [
  ['ExternalId', 'external_id'],
  ['Salutation', 'salutation'],
  ['FirstName', 'first_name'],
  ['LastName', 'last_name'],
  ['PostalCode', 'postal_code'],
  ['City', 'city'],
  ['Country', 'country'],
  ['Street', 'street'],
  ['StreetNumber', 'street_number'],
  ['Company', 'company'],
  ['Company2', 'company2'],
  ['AdditionToAddress', 'addition_to_address'],
  ['Quarter', 'quarter'],
];

/** The 13 data columns, in table order. */
export const DATA_COLUMNS: readonly CustomerColumn[] = CUSTOMER_COLUMNS.map(([, c]) => c);

/** A customer as the searches read it: the answer's columns and the stamp that orders it. */
export type SyncRow = Pick<CustomerRow, 'customer_id' | 'modified_at' | CustomerColumn>;
export const SYNC_COLUMNS: ReadonlyArray<keyof SyncRow> = ['customer_id', ...DATA_COLUMNS, 'modified_at'];

/**
 * Every column of the table. Statements name them instead of `*`: a prepared statement's result
 * may not change shape, and a migration adding a column while it is prepared would make it fail.
 */
export const ROW_COLUMNS: ReadonlyArray<keyof CustomerRow> = [...SYNC_COLUMNS, 'created_at', 'custom_fields_version', 'erased_at'];

/** The columns of a name and address (what an order confirmation writes): all but the ids and Quarter. */
export const ADDRESS_COLUMNS = DATA_COLUMNS.filter((c) => c !== 'external_id' && c !== 'quarter') as ReadonlyArray<AddressColumn>;
export type AddressColumn = Exclude<CustomerColumn, 'external_id' | 'quarter'>;
/** A name and address to write: absent columns keep their stored value. */
export type CustomerAddress = Partial<Pick<CustomerData, AddressColumn>>;
