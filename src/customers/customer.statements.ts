import { placeholders, textsByShape } from '../store/statement-texts.js';
import { ADDRESS_COLUMNS, ROW_COLUMNS, SYNC_COLUMNS, type CustomerAddress } from './customer.columns.js';

/**
 * Customer statements written once by hand (run with db.run: `?` placeholders) for the hot
 * paths: an order confirmation's customer write, the stamp of every write, the identifier search.
 * Texts that depend on a shape (columns present, list length) are kept per shape.
 */

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

/** `update customers set <columns> = ? … where customer_id = ?`, returning the row as written (none: no such customer). */
export const updateAddressSql = textsByShape((columns: string) => {
  // No column at all still has to tell whether the customer exists.
  const set =
    columns === ''
      ? 'customer_id = customer_id'
      : columns
          .split(',')
          .map((c) => `${c} = ?`)
          .join(', ');
  return `update customers set ${set} where customer_id = ? returning ${ROW_COLUMNS.join(', ')}`;
});

/**
 * Inserts a customer (id, external id, the columns, modified_at, created_at), or writes the columns
 * of the one holding that external id; returns the row as written.
 */
export const upsertByExternalIdSql = textsByShape((columns: string) => {
  const list = columns === '' ? [] : columns.split(',');
  const insert = ['customer_id', 'external_id', ...list, 'modified_at', 'created_at', 'custom_fields_version'];
  const values = [...insert.slice(0, -1).map(() => '?'), '0'];
  // `excluded` holds the values the insert proposed: the same ones, without binding them twice.
  const update = list.length === 0 ? ['external_id = excluded.external_id'] : list.map((c) => `${c} = excluded.${c}`);
  return (
    `insert into customers (${insert.join(', ')}) values (${values.join(', ')})` +
    ` on conflict (external_id) do update set ${update.join(', ')} returning ${ROW_COLUMNS.join(', ')}`
  );
});

/** Every column of the customers with n ids (the outbox reads changed customers). */
export const findManySql = textsByShape(
  (n: number) => `select ${ROW_COLUMNS.join(', ')} from customers where customer_id in (${placeholders(n)})`,
  600,
);

/** `update customers set modified_at = ? where customer_id in (?, …)` for n ids. */
export const touchSql = textsByShape((n: number) => `update customers set modified_at = ? where customer_id in (${placeholders(n)})`, 600);

/**
 * The identifier search: the committed watermark and the customers matching any of n identifiers
 * (as id or external id) stamped at or below it, optionally strictly after a lower bound, read
 * together. One statement reads one snapshot on both backends (SQLite's read transaction,
 * PostgreSQL's statement snapshot under READ COMMITTED), so this is the "watermark first, then only
 * rows ≤ it" rule of store/sync-clock.ts in one round trip; the LEFT JOIN from the single clock row
 * keeps the watermark when nothing matches. The stamp conditions are written as `modified_at + 0`,
 * which no index matches, so that the planners cannot pick a range scan of the sync-order index
 * (they do without statistics, or when LastModifiedAfter looks selective): the only indexable
 * conditions are the two unique-index lookups, at most 2,000 rows, sorted in memory.
 * Shape: `<n>:<1 with a lower bound | 0>`.
 */
export const identifierSearchSql = textsByShape((shape: string) => {
  const [n, lower] = shape.split(':');
  const ids = placeholders(Number(n));
  return (
    `select ${SYNC_COLUMNS.map((c) => `c.${c}`).join(', ')}, w.last_stamp as sync_watermark from sync_clock w left join customers c` +
    ` on (c.customer_id in (${ids}) or c.external_id in (${ids})) and c.modified_at + 0 <= w.last_stamp` +
    (lower === '1' ? ' and c.modified_at + 0 > ?' : '') +
    ' where w.id = 1 order by c.modified_at, c.customer_id'
  );
}, 130);
