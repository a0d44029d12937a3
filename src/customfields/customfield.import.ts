import { chunks } from '../store/statement-texts.js';
import type { DbHandle } from '../store/store.js';
import { toDefinition } from './customfield.mapping.js';
import { customFieldRepository as repo } from './customfield.repository.js';
import type { CustomFieldDefinition, CustomFieldValue } from './customfield.types.js';
import { encodeValue } from './customfield.values.js';

export { isFieldError, parseCustomFieldText, type ParsedValue } from './customfield.values.js';
export type { CustomFieldDefinition, CustomFieldValue } from './customfield.types.js';

const CUSTOM_FIELD_COLUMN = /^cf\.(\d{1,10})$/i;
const ROWS_PER_STATEMENT = 500;

/** `cf.3` → 3; undefined for any other column name. */
export function customFieldColumn(name: string): number | undefined {
  const m = CUSTOM_FIELD_COLUMN.exec(name.trim());
  return m ? Number(m[1]) : undefined;
}

/**
 * Every definition by number, for checking `cf.<Number>` columns. Inside a write transaction pass
 * `held`: the definitions are then held against change until it ends, so the values stored stay
 * valid for them.
 */
export async function customFieldDefinitions(db: DbHandle, held = false): Promise<Map<number, CustomFieldDefinition>> {
  const rows = held ? await repo.allDefinitionsForWrite(db) : await repo.listDefinitions(db);
  return new Map(rows.map((r) => [r.number, toDefinition(r)]));
}

/** One parsed value of one customer; null clears the field. */
export interface CustomFieldWrite {
  readonly customerId: string;
  readonly number: number;
  readonly value: CustomFieldValue | null;
}

/**
 * Stores values already checked with parseCustomFieldText, inside the caller's write transaction
 * (the customers must exist in it), and bumps each customer's custom-field version (its ETag).
 * The caller's unit of work touches the customers, as for any customer write.
 */
export async function storeCustomFieldValues(trx: DbHandle, writes: readonly CustomFieldWrite[]): Promise<void> {
  const now = Date.now();
  const byCustomer = new Map<string, { upserts: Array<{ number: number; value: string }>; clears: number[] }>();
  for (const w of writes) {
    const entry = byCustomer.get(w.customerId) ?? { upserts: [], clears: [] };
    if (w.value === null) entry.clears.push(w.number);
    else entry.upserts.push({ number: w.number, value: encodeValue(w.value) });
    byCustomer.set(w.customerId, entry);
  }
  for (const [customerId, { upserts, clears }] of byCustomer) {
    await repo.upsertValues(trx, customerId, upserts, now);
    await repo.deleteValues(trx, customerId, clears);
  }
  const customers = [...byCustomer.keys()];
  for (const slice of chunks(customers, ROWS_PER_STATEMENT)) await repo.bumpVersions(trx, slice);
}
