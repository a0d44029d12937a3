import type { CustomerAddress } from './order.repository.js';

/** The customer columns a confirmation may write, in a fixed order (the order of the SQL texts). */
const ADDRESS_COLUMNS = [
  'salutation', 'first_name', 'last_name', 'postal_code', 'city', 'country', 'street', 'street_number',
  'company', 'company2', 'addition_to_address',
] as const satisfies ReadonlyArray<keyof CustomerAddress>;

/** The columns an address sets (absent ones keep their stored value) and their values, in that order. */
export function addressColumns(address: CustomerAddress): { columns: string; values: Array<string | null> } {
  const names: string[] = [];
  const values: Array<string | null> = [];
  for (const c of ADDRESS_COLUMNS) {
    const v = address[c];
    if (v === undefined) continue;
    names.push(c);
    values.push(v);
  }
  return { columns: names.join(','), values };
}

// One text per set of columns: at most 2^11, in practice a handful (the fields clients send).
const updates = new Map<string, string>();
const upserts = new Map<string, string>();

/** `update customers set <columns> = ? … where customer_id = ?`. */
export function updateCustomerSql(columns: string): string {
  let text = updates.get(columns);
  if (text === undefined) {
    // No column at all still has to tell whether the customer exists.
    const set = columns === '' ? 'customer_id = customer_id' : columns.split(',').map((c) => `${c} = ?`).join(', ');
    text = `update customers set ${set} where customer_id = ?`;
    updates.set(columns, text);
  }
  return text;
}

/**
 * Inserts a customer (id, external id, the columns, modified_at, created_at), or writes the columns
 * of the one holding that external id; returns the id of the row written.
 */
export function upsertCustomerSql(columns: string): string {
  let text = upserts.get(columns);
  if (text === undefined) {
    const list = columns === '' ? [] : columns.split(',');
    const insert = ['customer_id', 'external_id', ...list, 'modified_at', 'created_at', 'custom_fields_version'];
    const values = [...insert.slice(0, -1).map(() => '?'), '0'];
    // `excluded` holds the values the insert proposed: the same ones, without binding them twice.
    const update = list.length === 0 ? ['external_id = excluded.external_id'] : list.map((c) => `${c} = excluded.${c}`);
    text = `insert into customers (${insert.join(', ')}) values (${values.join(', ')})` +
      ` on conflict (external_id) do update set ${update.join(', ')} returning customer_id`;
    upserts.set(columns, text);
  }
  return text;
}
