import { readOrderContent, type OrderContent } from '../money/index.js';
import { FieldRules } from '../wire/field-rules.js';

// The content of an imported order (Currency, PricesIncludeTax, Shipping, Lines), read from the
// record(s) that carry it and checked by the rules of `POST /orders`. JSON Lines give values as the
// API takes them; CSV gives text, one line per row, turned into numbers here. What the feed shows
// but an order does not take (LineNumber and the computed Net, Tax, Gross) is passed over: the
// service computes the amounts anew, and lines are numbered in the file's order.

/** A line's fields an import reads, by lower-case name. */
const LINE_FIELDS: ReadonlyMap<string, string> = new Map(
  ['Sku', 'Name', 'Quantity', 'UnitPrice', 'TaxRate', 'Discount'].map((f) => [f.toLowerCase(), f]),
);
const SHIPPING_FIELDS: ReadonlyMap<string, string> = new Map(['Name', 'Amount', 'TaxRate'].map((f) => [f.toLowerCase(), f]));
/** What the feed shows of a line and of the shipping that is computed: passed over. */
const LINE_COMPUTED = new Set(['linenumber', 'net', 'tax', 'gross']);
const SHIPPING_COMPUTED = new Set(['net', 'tax', 'gross']);
const TEXT_FIELDS = new Set(['Sku', 'Name']);

/** The CSV columns of a line and of the shipping that an import reads (lower case), and those it passes over. */
export const LINE_COLUMNS = [...LINE_FIELDS.keys()].map((f) => `lines.${f}`);
export const SHIPPING_COLUMNS = [...SHIPPING_FIELDS.keys()].map((f) => `shipping.${f}`);
export const COMPUTED_COLUMNS = [...[...LINE_COMPUTED].map((f) => `lines.${f}`), ...[...SHIPPING_COMPUTED].map((f) => `shipping.${f}`)];

/** A decimal number as CSV writes it (the export writes JavaScript's number text). */
const NUMBER = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;

/** The content cells of one record, as given (JSON values; CSV text, '' for an empty cell). */
export interface ContentCells {
  readonly csv: boolean;
  readonly currency?: unknown;
  readonly pricesIncludeTax?: unknown;
  /** JSON: the Shipping value; CSV: its `Shipping.*` cells by field name. */
  readonly shipping?: unknown;
  /** JSON: the Lines value; CSV: the row's `Lines.*` cells by field name (none when all are empty). */
  readonly lines?: unknown;
}

/** The order's content, or undefined with each bad field failed in `rules` (`Lines[2].Quantity`). */
export function readImportedContent(
  rules: FieldRules,
  order: ContentCells,
  lines: readonly unknown[],
  defaultCurrency: string,
): OrderContent | undefined {
  const checked = new FieldRules();
  const csv = order.csv;
  const currency = present(csv, order.currency);
  if (currency !== undefined && currency !== null) text(checked, 'Currency', currency);
  const request = {
    Currency: typeof currency === 'string' ? currency : undefined,
    PricesIncludeTax: flag(checked, csv, order.pricesIncludeTax),
    Shipping: shippingOf(checked, csv, order.shipping),
    Lines: lines.map((line, i) => lineOf(checked, csv, `Lines[${i}]`, line)),
  };
  const before = checked.errors.length;
  const content = readOrderContent(checked, request, defaultCurrency);
  // A line that is no object at all is one problem, not one per field it lacks.
  const whole = new Set(checked.errors.slice(0, before).map((e) => e.fieldName));
  for (const e of checked.errors) {
    const parent = e.fieldName.replace(/\.[^.[]+$/, '');
    if (parent === e.fieldName || !whole.has(parent)) rules.fail(e.fieldName, e.errorCode, e.message);
  }
  return rules.errors.length > 0 ? undefined : content;
}

/** The lines of a JSON record: its `Lines` array (none when absent or null). */
export function jsonLines(rules: FieldRules, value: unknown): readonly unknown[] {
  if (value === undefined || value === null) return [];
  if (Array.isArray(value)) return value;
  rules.fail('Lines', 'TypeMismatch', `'Lines' must be an array`);
  return [];
}

const present = (csv: boolean, value: unknown): unknown => (csv && value === '' ? undefined : value);

function text(rules: FieldRules, field: string, value: unknown): string | undefined {
  if (typeof value !== 'string') return void rules.fail(field, 'TypeMismatch', `'${field}' must be a string`);
  if (value.includes('\u0000')) return void rules.fail(field, 'InvalidCharacter', `'${field}' must not contain NUL characters`);
  return value;
}

function number(rules: FieldRules, csv: boolean, field: string, value: unknown): unknown {
  if (csv && typeof value === 'string') {
    if (NUMBER.test(value.trim())) return Number(value);
  } else if (typeof value === 'number') return value;
  rules.fail(field, 'TypeMismatch', `'${field}' must be a number`);
  return undefined;
}

function flag(rules: FieldRules, csv: boolean, value: unknown): boolean {
  const v = present(csv, value);
  if (v === undefined || v === null || v === true || v === false) return v === true;
  if (csv && typeof v === 'string' && /^(true|false)$/i.test(v.trim())) return v.trim().toLowerCase() === 'true';
  rules.fail('PricesIncludeTax', 'TypeMismatch', `'PricesIncludeTax' must be true or false`);
  return false;
}

/** The fields of an object (JSON) or of a row's cells (CSV) by the names the request takes; unknown ones failed. */
function fieldsOf(
  rules: FieldRules,
  csv: boolean,
  path: string,
  value: unknown,
  known: ReadonlyMap<string, string>,
  computed: ReadonlySet<string>,
): Record<string, unknown> | undefined {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    return void rules.fail(path, 'TypeMismatch', `'${path}' must be an object`);
  }
  const fields: Record<string, unknown> = {};
  for (const [name, raw] of Object.entries(value)) {
    const key = name.toLowerCase();
    const field = known.get(key);
    if (!field) {
      if (!computed.has(key)) rules.fail(`${path}.${name}`, 'UnknownField', `unknown field '${path}.${name}'`);
      continue;
    }
    const at = `${path}.${field}`;
    const v = present(csv, raw);
    if (v === undefined || v === null) continue;
    fields[field] = TEXT_FIELDS.has(field) ? text(rules, at, v) : number(rules, csv, at, v);
  }
  return fields;
}

function shippingOf(rules: FieldRules, csv: boolean, value: unknown): Record<string, unknown> | undefined {
  if (value === undefined || value === null) return undefined;
  const fields = fieldsOf(rules, csv, 'Shipping', value, SHIPPING_FIELDS, SHIPPING_COMPUTED);
  return fields && Object.keys(fields).length > 0 ? fields : undefined;
}

const lineOf = (rules: FieldRules, csv: boolean, path: string, value: unknown): Record<string, unknown> =>
  fieldsOf(rules, csv, path, value, LINE_FIELDS, LINE_COMPUTED) ?? {};
