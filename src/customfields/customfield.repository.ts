import { CompiledQuery, sql, type Kysely } from 'kysely';
import type { CustomFieldDefRow, Database } from '../store/database.js';
import { lockRows } from '../store/dialect-sql.js';
import type { Dialect, Executor } from '../store/store.js';

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

/**
 * The customer, each defined field (all, or the given numbers) and the customer's value of it, in
 * one indexed query: no row means no such customer; a row with a null number means no field.
 */
function fieldsQuery(db: Executor, customerId: string, numbers?: readonly number[]) {
  return db
    .selectFrom('customers as c')
    .leftJoin('custom_field_defs as d', (j) => {
      if (!numbers) return j.onTrue();
      return numbers.length > 0 ? j.on('d.number', 'in', [...numbers]) : j.on(sql<boolean>`1 = 0`);
    })
    .leftJoin('custom_field_values as v', (j) => j.onRef('v.customer_id', '=', 'c.customer_id').onRef('v.number', '=', 'd.number'))
    .select([
      'c.custom_fields_version as version',
      'c.created_at',
      'd.number',
      'd.label',
      'd.field_type',
      'd.is_read_only',
      'd.allowed_values',
      'd.sort',
      'v.value',
    ])
    .where('c.customer_id', '=', customerId)
    .orderBy('d.sort')
    .orderBy('d.number');
}

/**
 * Reads all fields of a customer with SQL compiled once per store: the hot read path only binds
 * the customer id.
 */
export function compiledFieldReader(db: Kysely<Database>): (reader: Kysely<Database>, customerId: string) => Promise<FieldRow[]> {
  let sqlText: string | undefined;
  return async (reader, customerId) => {
    sqlText ??= fieldsQuery(db, '').compile().sql;
    const result = await reader.executeQuery<FieldRow>(CompiledQuery.raw(sqlText, [customerId]));
    return result.rows;
  };
}

/** All SQL about custom-field definitions and values. */
export const customFieldRepository = {
  readFields(db: Executor, customerId: string, numbers?: readonly number[]): Promise<FieldRow[]> {
    return fieldsQuery(db, customerId, numbers).execute() as Promise<FieldRow[]>;
  },

  listDefinitions(db: Executor): Promise<CustomFieldDefRow[]> {
    return db.selectFrom('custom_field_defs').selectAll().orderBy('sort').orderBy('number').execute();
  },

  /** The given definitions, locked against change until the transaction ends. */
  definitionsForWrite(db: Executor, dialect: Dialect, numbers: readonly number[]): Promise<CustomFieldDefRow[]> {
    if (numbers.length === 0) return Promise.resolve([]);
    return lockRows(dialect, db.selectFrom('custom_field_defs').selectAll().where('number', 'in', [...numbers]), 'share').execute();
  },

  /** Every definition, locked against change until the transaction ends (imports). */
  allDefinitionsForWrite(db: Executor, dialect: Dialect): Promise<CustomFieldDefRow[]> {
    return lockRows(dialect, db.selectFrom('custom_field_defs').selectAll(), 'share').execute();
  },

  /** One definition, locked for change until the transaction ends. */
  findDefinitionForUpdate(db: Executor, dialect: Dialect, number: number): Promise<CustomFieldDefRow | undefined> {
    return lockRows(dialect, db.selectFrom('custom_field_defs').selectAll().where('number', '=', number), 'update').executeTakeFirst();
  },

  async saveDefinition(db: Executor, row: CustomFieldDefRow): Promise<void> {
    const { number: _n, ...rest } = row;
    await db.insertInto('custom_field_defs').values(row).onConflict((oc) => oc.column('number').doUpdateSet(rest)).execute();
  },

  async deleteDefinition(db: Executor, number: number): Promise<void> {
    await db.deleteFrom('custom_field_defs').where('number', '=', number).execute();
  },

  async hasValues(db: Executor, number: number): Promise<boolean> {
    const row = await db.selectFrom('custom_field_values').select('number').where('number', '=', number).limit(1).executeTakeFirst();
    return row !== undefined;
  },

  /** The distinct stored values of a field (few for select fields: one per choice or combination). */
  async distinctValues(db: Executor, number: number): Promise<string[]> {
    const rows = await db.selectFrom('custom_field_values').select('value').distinct().where('number', '=', number).execute();
    return rows.map((r) => r.value);
  },

  async customersWithValues(db: Executor, number: number): Promise<string[]> {
    const rows = await db.selectFrom('custom_field_values').select('customer_id').where('number', '=', number).execute();
    return rows.map((r) => r.customer_id);
  },

  async deleteValuesOfField(db: Executor, number: number): Promise<void> {
    await db.deleteFrom('custom_field_values').where('number', '=', number).execute();
  },

  /** Bumps a customer's custom-field version (taking its row lock); undefined when there is no such customer. */
  bumpVersion(db: Executor, customerId: string): Promise<VersionRow | undefined> {
    return db
      .updateTable('customers')
      .set((eb) => ({ custom_fields_version: eb('custom_fields_version', '+', 1) }))
      .where('customer_id', '=', customerId)
      .returning(['custom_fields_version', 'created_at'])
      .executeTakeFirst();
  },

  async bumpVersions(db: Executor, customerIds: readonly string[]): Promise<void> {
    if (customerIds.length === 0) return;
    await db
      .updateTable('customers')
      .set((eb) => ({ custom_fields_version: eb('custom_fields_version', '+', 1) }))
      .where('customer_id', 'in', [...customerIds])
      .execute();
  },

  async upsertValues(db: Executor, customerId: string, values: ReadonlyArray<{ number: number; value: string }>, now: number): Promise<void> {
    if (values.length === 0) return;
    await db
      .insertInto('custom_field_values')
      .values(values.map((v) => ({ customer_id: customerId, number: v.number, value: v.value, updated_at: now })))
      .onConflict((oc) => oc.columns(['customer_id', 'number']).doUpdateSet((eb) => ({ value: eb.ref('excluded.value'), updated_at: eb.ref('excluded.updated_at') })))
      .execute();
  },

  async deleteValues(db: Executor, customerId: string, numbers: readonly number[]): Promise<void> {
    if (numbers.length === 0) return;
    await db.deleteFrom('custom_field_values').where('customer_id', '=', customerId).where('number', 'in', [...numbers]).execute();
  },
};
