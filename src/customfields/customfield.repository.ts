import type { CustomFieldDefRow } from '../store/database.js';
import { chunks } from '../store/statement-texts.js';
import type { DbHandle, HandleSql } from '../store/store.js';
import { BUMP_VERSION, VALUES_PER_INSERT, definitionsForWriteSql, fieldsSql, upsertValuesSql } from './customfield.statements.js';

/** One row of a customer's fields read: the customer's version, then one defined field (or nulls when none is). */
export interface FieldRow {
  version: number;
  created_at: number;
  number: number | null;
  label: string | null;
  field_type: string | null;
  is_read_only: number | null;
  allowed_values: string | null;
  sort: number | null;
  value: string | null;
}

/** A customer's custom-field state: what the ETag is made of. */
export interface VersionRow {
  custom_fields_version: number;
  created_at: number;
}

/** The hot read's one row: the customer's version, the definitions' version, and its stored values. */
export interface ValuesRow {
  version: number;
  created_at: number;
  defs_version: number;
  /** `[[number, value], …]`: JSON text (SQLite) or parsed (PostgreSQL); null or `[]` when none. */
  vals: string | unknown[] | null;
}

// The hot read, written once per backend (its aggregate differs), kept by the backend's aggregate.
const valuesTexts = new WeakMap<HandleSql['jsonPairsAgg'], string>();

export function valuesSql(db: HandleSql): string {
  let text = valuesTexts.get(db.jsonPairsAgg);
  if (text === undefined) {
    text =
      'select c.custom_fields_version as version, c.created_at,' +
      ' (select defs_version from custom_field_meta where id = 1) as defs_version,' +
      ` (select ${db.jsonPairsAgg('v.number', 'v.value')} from custom_field_values v where v.customer_id = c.customer_id) as vals` +
      ' from customers c where c.customer_id = ?';
    valuesTexts.set(db.jsonPairsAgg, text);
  }
  return text;
}

/** All SQL about custom-field definitions and values. */
export const customFieldRepository = {
  /** The hot read: a customer's stored values (aggregated into one JSON array) and both versions, in one statement over primary keys. */
  async readValues(db: DbHandle, customerId: string): Promise<ValuesRow | undefined> {
    return (await db.run<ValuesRow>(valuesSql(db), [customerId])).rows[0];
  },

  /** The customer's fields (every one, or those of the given numbers) and its values. */
  async readFields(db: DbHandle, customerId: string, numbers?: readonly number[]): Promise<FieldRow[]> {
    const text = fieldsSql(numbers ? numbers.length : 'all');
    return (await db.run<FieldRow>(text, [...(numbers ?? []), customerId])).rows;
  },

  listDefinitions(db: DbHandle): Promise<CustomFieldDefRow[]> {
    return db.selectFrom('custom_field_defs').selectAll().orderBy('sort').orderBy('number').execute();
  },

  /** Every definition (by Sort, Number) and the definitions' version, read in one statement. */
  async definitionsWithVersion(db: DbHandle): Promise<{ version: number; rows: CustomFieldDefRow[] }> {
    const rows = await db
      .selectFrom('custom_field_meta as m')
      .leftJoin('custom_field_defs as d', (j) => j.onTrue())
      .select(['m.defs_version', 'd.number', 'd.label', 'd.field_type', 'd.is_read_only', 'd.allowed_values', 'd.sort', 'd.updated_at'])
      .where('m.id', '=', 1)
      .orderBy('d.sort')
      .orderBy('d.number')
      .execute();
    const defs = rows.filter((r): r is typeof r & CustomFieldDefRow => r.number !== null);
    return { version: Number(rows[0]?.defs_version ?? 0), rows: defs };
  },

  /** Marks the definitions as changed for every process that caches them. */
  async bumpDefinitionsVersion(db: DbHandle): Promise<void> {
    await db
      .updateTable('custom_field_meta')
      .set((eb) => ({ defs_version: eb('defs_version', '+', 1) }))
      .where('id', '=', 1)
      .execute();
  },

  /** The given definitions, locked against change until the transaction ends. */
  async definitionsForWrite(db: DbHandle, numbers: readonly number[]): Promise<CustomFieldDefRow[]> {
    if (numbers.length === 0) return [];
    return (await db.run<CustomFieldDefRow>(definitionsForWriteSql(db, numbers.length), numbers)).rows;
  },

  /** Every definition, locked against change until the transaction ends (imports). */
  allDefinitionsForWrite(db: DbHandle): Promise<CustomFieldDefRow[]> {
    return db.lockRows(db.selectFrom('custom_field_defs').selectAll(), 'share').execute();
  },

  /** One definition, locked for change until the transaction ends. */
  findDefinitionForUpdate(db: DbHandle, number: number): Promise<CustomFieldDefRow | undefined> {
    return db.lockRows(db.selectFrom('custom_field_defs').selectAll().where('number', '=', number), 'update').executeTakeFirst();
  },

  async saveDefinition(db: DbHandle, row: CustomFieldDefRow): Promise<void> {
    const { number: _n, ...rest } = row;
    await db
      .insertInto('custom_field_defs')
      .values(row)
      .onConflict((oc) => oc.column('number').doUpdateSet(rest))
      .execute();
  },

  async deleteDefinition(db: DbHandle, number: number): Promise<void> {
    await db.deleteFrom('custom_field_defs').where('number', '=', number).execute();
  },

  async hasValues(db: DbHandle, number: number): Promise<boolean> {
    const row = await db.selectFrom('custom_field_values').select('number').where('number', '=', number).limit(1).executeTakeFirst();
    return row !== undefined;
  },

  /** The distinct stored values of a field (few for select fields: one per choice or combination). */
  async distinctValues(db: DbHandle, number: number): Promise<string[]> {
    const rows = await db.selectFrom('custom_field_values').select('value').distinct().where('number', '=', number).execute();
    return rows.map((r) => r.value);
  },

  /**
   * Gives every customer with a value of the field a new custom-field version, which locks their
   * rows (before the transaction takes its stamp: the lock order of store/sync-clock.ts). One
   * set-based statement, like `stampCustomersWithValues`: a field may have values for millions of
   * customers, and neither needs memory for them.
   */
  async bumpCustomersWithValues(db: DbHandle, number: number): Promise<void> {
    await db
      .updateTable('customers')
      .set((eb) => ({ custom_fields_version: eb('custom_fields_version', '+', 1) }))
      .where('customer_id', 'in', (eb) => eb.selectFrom('custom_field_values').select('customer_id').where('number', '=', number))
      .execute();
  },

  /** Moves the modification stamp of every customer with a value of the field. */
  async stampCustomersWithValues(db: DbHandle, number: number, stamp: number): Promise<void> {
    await db
      .updateTable('customers')
      .set({ modified_at: stamp })
      .where('customer_id', 'in', (eb) => eb.selectFrom('custom_field_values').select('customer_id').where('number', '=', number))
      .execute();
  },

  async deleteValuesOfField(db: DbHandle, number: number): Promise<void> {
    await db.deleteFrom('custom_field_values').where('number', '=', number).execute();
  },

  /** Bumps a customer's custom-field version (taking its row lock); undefined when there is no such customer. */
  async bumpVersion(db: DbHandle, customerId: string): Promise<VersionRow | undefined> {
    return (await db.run<VersionRow>(BUMP_VERSION, [customerId])).rows[0];
  },

  async bumpVersions(db: DbHandle, customerIds: readonly string[]): Promise<void> {
    if (customerIds.length === 0) return;
    await db
      .updateTable('customers')
      .set((eb) => ({ custom_fields_version: eb('custom_fields_version', '+', 1) }))
      .where('customer_id', 'in', [...customerIds])
      .execute();
  },

  async upsertValues(
    db: DbHandle,
    customerId: string,
    values: ReadonlyArray<{ number: number; value: string }>,
    now: number,
  ): Promise<void> {
    for (const slice of chunks(values, VALUES_PER_INSERT)) {
      const params: unknown[] = [];
      for (const v of slice) params.push(customerId, v.number, v.value, now);
      await db.run(upsertValuesSql(slice.length), params);
    }
  },

  /** Deletes every value of a customer; answers how many there were. */
  async deleteAllValues(db: DbHandle, customerId: string): Promise<number> {
    const res = await db.deleteFrom('custom_field_values').where('customer_id', '=', customerId).executeTakeFirst();
    return Number(res.numDeletedRows);
  },

  async deleteValues(db: DbHandle, customerId: string, numbers: readonly number[]): Promise<void> {
    if (numbers.length === 0) return;
    await db
      .deleteFrom('custom_field_values')
      .where('customer_id', '=', customerId)
      .where('number', 'in', [...numbers])
      .execute();
  },
};
