import type { Writable } from 'node:stream';
import { writeLines } from '../bulk/write-lines.js';
import type { Store } from '../store/store.js';
import { toCustomer } from './customer.mapping.js';
import { searchCustomers, type SearchResult } from './customer.search.js';

async function* jsonLines(customers: SearchResult['customers']): AsyncGenerator<string> {
  if (Array.isArray(customers)) {
    for (const customer of customers) yield JSON.stringify(customer);
    return;
  }
  for await (const rows of customers) for (const row of rows) yield JSON.stringify(toCustomer(row));
}

/**
 * Writes the customers (all, or those changed after `modifiedAfter`) as JSON Lines in sync order:
 * the 14 spec fields, as the API shows them. Returns the count and the sync watermark of the export.
 */
export async function exportCustomers(
  store: Store,
  out: Writable,
  modifiedAfter?: number,
): Promise<{ count: number; watermark: number; closed: boolean }> {
  const result = await searchCustomers(store, modifiedAfter === undefined ? {} : { LastModifiedAfter: modifiedAfter });
  const written = await writeLines(out, jsonLines(result.customers));
  return { ...written, watermark: result.watermark };
}
