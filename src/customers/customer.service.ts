import { conflict } from '../errors.js';
import type { CustomerRow } from '../store/database.js';
import { isUniqueViolation } from '../store/unique-violation.js';
import type { Store } from '../store/store.js';
import { committedWatermark, nextStamp } from '../store/sync-clock.js';
import { FieldRules } from '../wire/field-rules.js';
import { customerRepository } from './customer.repository.js';
import { toCustomer, toCustomerData } from './customer.mapping.js';
import { CUSTOMER_FIELDS, type Customer, type SearchCustomersRequest, type UpsertCustomerRequest } from './customer.schemas.js';

export const MAX_IDENTIFIERS = 1000;
export const MAX_FIELD_LENGTH = 255;
const CHUNK = 1000;

export interface SearchResult {
  /** Pass it as the next LastModifiedAfter: no change committed after it can be missed. */
  readonly watermark: number;
  /** Every matching customer, in sync order, read in keyset chunks. */
  readonly customers: AsyncIterable<Customer> | Customer[];
}

export function validateSearch(req: SearchCustomersRequest): void {
  const rules = new FieldRules();
  rules.maxItems('Identifiers', req.Identifiers, MAX_IDENTIFIERS);
  for (const [i, id] of (req.Identifiers ?? []).entries()) rules.maxLength(`Identifiers[${i}]`, id, MAX_FIELD_LENGTH);
  rules.atLeast('Take', req.Take, 0);
  rules.atLeast('Skip', req.Skip, 0);
  rules.throwIfAny();
}

async function* keysetChunks(store: Store, base: { modifiedAfter?: number; modifiedAtMost: number }): AsyncGenerator<Customer> {
  let after: { modifiedAt: number; customerId: string } | undefined;
  for (;;) {
    const rows: CustomerRow[] = await customerRepository.search(store.reader, { ...base, after, limit: CHUNK });
    for (const row of rows) yield toCustomer(row);
    if (rows.length < CHUNK) return;
    const last = rows[rows.length - 1]!;
    after = { modifiedAt: last.modified_at, customerId: last.customer_id };
  }
}

/**
 * Customers matching the filters, in (modification stamp, id) order. The watermark is read first;
 * only rows stamped at or below it are returned (see store/sync-clock.ts for why that is safe).
 */
export async function searchCustomers(store: Store, req: SearchCustomersRequest): Promise<SearchResult> {
  validateSearch(req);
  const committed = await committedWatermark(store.reader);
  const modifiedAfter = req.LastModifiedAfter;
  const watermark = Math.max(committed, modifiedAfter ?? 0);
  const identifiers = req.Identifiers?.filter((s) => s !== '');
  const base = { modifiedAfter, modifiedAtMost: committed };
  if ((identifiers && identifiers.length > 0) || req.Take !== undefined || (req.Skip ?? 0) > 0) {
    const rows = await customerRepository.search(store.reader, { ...base, identifiers, limit: req.Take, offset: req.Skip });
    return { watermark, customers: rows.map(toCustomer) };
  }
  return { watermark, customers: keysetChunks(store, base) };
}

function validateUpsert(req: UpsertCustomerRequest): void {
  const rules = new FieldRules();
  rules.notEmpty('CustomerId', req.CustomerId);
  for (const field of CUSTOMER_FIELDS) rules.maxLength(field, req[field], MAX_FIELD_LENGTH);
  rules.throwIfAny();
}

/** Creates or replaces a customer (operator route); its modification stamp moves. */
export async function upsertCustomer(store: Store, req: UpsertCustomerRequest): Promise<Customer> {
  validateUpsert(req);
  const data = toCustomerData(req);
  try {
    return await store.writeTransaction(async (trx) => {
      if (data.external_id !== null) {
        const holder = await customerRepository.findByExternalId(trx, data.external_id);
        if (holder && holder.customer_id !== req.CustomerId) throw externalIdTaken();
      }
      const stamp = await nextStamp(store.dialect, trx);
      await customerRepository.upsert(trx, req.CustomerId, data, stamp);
      return toCustomer((await customerRepository.findById(trx, req.CustomerId))!);
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw externalIdTaken();
    throw err;
  }
}

function externalIdTaken() {
  return conflict('Another customer already has this ExternalId', 'ExternalIdTaken', 'ExternalId');
}
