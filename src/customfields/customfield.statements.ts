import { placeholders, textsByShape } from '../store/statement-texts.js';
import type { HandleSql } from '../store/store.js';

/**
 * Custom-field statements written once by hand (run with DbHandle.run: `?` placeholders) for the
 * write of a customer's values: the definitions held, its version bumped, the values stored, its
 * fields read. Texts that depend on how many values they bind are kept per count.
 */

const DEFINITION_COLUMNS = 'number, label, field_type, is_read_only, allowed_values, sort, updated_at';
// Kept per backend, by its lock clause.
const definitionTexts = new WeakMap<HandleSql['lockClause'], (n: number) => string>();

/** The definitions with n numbers, held against change until the transaction ends (shared lock where rows are locked). */
export function definitionsForWriteSql(db: HandleSql, n: number): string {
  const { lockClause } = db;
  let texts = definitionTexts.get(lockClause);
  if (!texts) {
    texts = textsByShape(
      (count: number) =>
        `select ${DEFINITION_COLUMNS} from custom_field_defs where number in (${placeholders(count)})${lockClause('share')}`,
    );
    definitionTexts.set(lockClause, texts);
  }
  return texts(n);
}

/** Bumps a customer's custom-field version (taking its row lock) and answers the ETag's parts. */
export const BUMP_VERSION =
  'update customers set custom_fields_version = custom_fields_version + 1 where customer_id = ? returning custom_fields_version, created_at';

/** Most values one insert binds (a caller cuts longer lists). */
export const VALUES_PER_INSERT = 500;

/** Inserts n values of one customer (customer_id, number, value, updated_at each), replacing stored ones. */
export const upsertValuesSql = textsByShape(
  (n: number) =>
    `insert into custom_field_values (customer_id, number, value, updated_at) values (?, ?, ?, ?)${', (?, ?, ?, ?)'.repeat(n - 1)}` +
    ' on conflict (customer_id, number) do update set value = excluded.value, updated_at = excluded.updated_at',
  VALUES_PER_INSERT,
);

/**
 * The customer, each defined field (every one, or those of n numbers) and the customer's value of
 * it, in one indexed query: no row means no such customer; a row with a null number means no field.
 */
export const fieldsSql = textsByShape((fields: number | 'all') => {
  const defs = fields === 'all' ? 'true' : fields === 0 ? 'false' : `d.number in (${placeholders(fields)})`;
  return (
    'select c.custom_fields_version as version, c.created_at, d.number, d.label, d.field_type, d.is_read_only, d.allowed_values, d.sort, v.value' +
    ` from customers c left join custom_field_defs d on ${defs}` +
    ' left join custom_field_values v on v.customer_id = c.customer_id and v.number = d.number' +
    ' where c.customer_id = ? order by d.sort, d.number'
  );
});
