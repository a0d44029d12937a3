import {
  customFieldColumn,
  type CustomFieldDefinition,
  type CustomFieldWrite,
  isFieldError,
  parseCustomFieldJson,
  parseCustomFieldText,
} from '../customfields/index.js';
import { FieldRules } from '../wire/field-rules.js';
import { compileValidator } from '../wire/request-validation.js';
import { toCustomerData, type CustomerData } from './customer.mapping.js';
import { CUSTOMER_FIELDS, UpsertCustomerRequest, type CustomerField } from './customer.schemas.js';
import type { ImportFormat } from '../bulk/import-read.js';

/** What a column of an import file holds: one of the 14 customer fields or a custom field's value. */
export type Column = { readonly field: CustomerField } | { readonly customField: number };

const BY_LOWER = new Map<string, CustomerField>(CUSTOMER_FIELDS.map((f) => [f.toLowerCase(), f]));

/** The column a name stands for: a spec field in any casing (as the API binds), or `cf.<Number>`. */
export function columnOf(name: string): Column | undefined {
  const field = BY_LOWER.get(name.trim().toLowerCase());
  if (field) return { field };
  const n = customFieldColumn(name);
  return n === undefined ? undefined : { customField: n };
}

/**
 * Problems of a CSV header, checked once for the whole file: unknown columns, custom fields with
 * no definition, repeated columns, and a missing CustomerId column.
 */
export function headerProblems(columns: readonly string[], definitions: ReadonlyMap<number, CustomFieldDefinition>): string[] {
  const problems: string[] = [];
  const seen = new Set<string>();
  for (const name of columns) {
    const column = columnOf(name);
    const key = column ? ('field' in column ? column.field : `cf.${column.customField}`) : name;
    if (!column) problems.push(`unknown column '${name}' (expected ${CUSTOMER_FIELDS.join(', ')} or cf.<Number>)`);
    else if ('customField' in column && !definitions.has(column.customField))
      problems.push(`column '${name}': custom field ${column.customField} is not defined`);
    if (seen.has(key)) problems.push(`column '${name}' appears twice`);
    seen.add(key);
  }
  if (!seen.has('CustomerId')) problems.push('no CustomerId column');
  return problems;
}

/** One valid row, ready to write. */
export interface ImportRow {
  readonly customerId: string;
  readonly data: CustomerData;
  readonly customFields: readonly CustomFieldWrite[];
}

function text(value: unknown): string | undefined | null {
  if (value === null || value === undefined) return undefined;
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return null;
}

/** A row passes the checks of `PUT /customer/{CustomerId}`'s request schema. */
const customerRules = compileValidator(UpsertCustomerRequest);

const columnsOfHeader = new WeakMap<readonly string[], ReadonlyArray<Column | undefined>>();

/** Columns of a record's names; a CSV file's records share one names array, looked up once. */
function columnsOf(names: readonly string[]): ReadonlyArray<Column | undefined> {
  let columns = columnsOfHeader.get(names);
  if (!columns) {
    columns = names.map(columnOf);
    columnsOfHeader.set(names, columns);
  }
  return columns;
}

/**
 * Checks one record with the rules of `PUT /customer/{CustomerId}` (CustomerId required, every field
 * ≤ 255 characters, no NUL) and custom-field values with the rules of their definitions (CSV cells
 * in their text form, JSON values typed). Returns the row, or one message per bad field.
 */
export function checkRow(
  names: readonly string[],
  values: readonly unknown[],
  format: ImportFormat,
  definitions: ReadonlyMap<number, CustomFieldDefinition>,
): ImportRow | string[] {
  const rules = new FieldRules();
  const req: Partial<Record<CustomerField, string>> = {};
  const columns = columnsOf(names);
  let custom: Array<{ number: number; raw: unknown; name: string }> | undefined;
  for (let i = 0; i < names.length; i++) {
    const column = columns[i];
    const name = names[i]!;
    const value = values[i];
    if (!column) {
      rules.fail(name, 'UnknownField', `unknown field '${name}'`);
    } else if ('customField' in column) {
      if (!definitions.has(column.customField)) rules.fail(name, 'UnknownCustomField', `custom field ${column.customField} is not defined`);
      else (custom ??= []).push({ number: column.customField, raw: value, name });
    } else {
      const s = text(value);
      if (s === null) rules.fail(column.field, 'TypeMismatch', `'${column.field}' must be a string`);
      else if (s !== undefined && s.includes('\u0000'))
        rules.fail(column.field, 'InvalidCharacter', `'${column.field}' must not contain NUL characters`);
      else if (s !== undefined) req[column.field] = s;
    }
  }
  customerRules(req, {}, rules);
  const customFields: CustomFieldWrite[] = [];
  for (const { number, raw, name } of custom ?? []) {
    const def = definitions.get(number)!;
    const parsed = format === 'jsonl' ? parseCustomFieldJson(def, raw ?? null, name) : parseCustomFieldText(def, String(raw ?? ''), name);
    if (isFieldError(parsed)) rules.fail(name, parsed.errorCode, parsed.message);
    else customFields.push({ customerId: req.CustomerId ?? '', number, value: parsed });
  }
  if (rules.errors.length > 0) return rules.errors.map((e) => `${e.fieldName}: ${e.message}`);
  return { customerId: req.CustomerId!, data: toCustomerData(req), customFields };
}
