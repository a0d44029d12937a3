import { createHash } from 'node:crypto';
import type { Store } from '../../src/store/store.js';

const TABLES = ['customers', 'orders', 'idempotency_keys', 'custom_field_defs', 'custom_field_values', 'api_keys', 'sync_clock'] as const;

/**
 * A digest of every row of every table: equal digests mean an unchanged store. A key's last use
 * is left out: any request made with a key may note it (in the background), refused or not.
 */
export async function storeDigest(store: Store): Promise<string> {
  const hash = createHash('sha256');
  for (const table of TABLES) {
    const rows = await store.db.selectFrom(table).selectAll().execute();
    const lines = rows.map((r) => JSON.stringify(table === 'api_keys' ? { ...r, last_used_at: undefined } : r)).sort();
    hash.update(`${table}:${lines.length}\n${lines.join('\n')}\n`);
  }
  return hash.digest('hex');
}
