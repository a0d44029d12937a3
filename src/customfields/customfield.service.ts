import { AppError, notFound, type FieldError } from '../errors.js';
import { customerRepository } from '../customers/customer.repository.js';
import type { Store } from '../store/store.js';
import { nextStamp } from '../store/sync-clock.js';
import { FieldRules } from '../wire/field-rules.js';
import { customFieldsETag, etagOf, toCustomFields, toDefinition } from './customfield.mapping.js';
import { DefinitionCache, type DefinitionSet } from './customfield.definition-cache.js';
import { compiledValuesReader, customFieldRepository as repo, type FieldRow, type ValuesRow } from './customfield.repository.js';
import type { CustomField } from './customfield.schemas.js';
import { MAX_NUMBERS, isDefinitionNumber, type CustomFieldDefinition } from './customfield.types.js';
import { encodeValue, isFieldError, parseCustomFieldJson, toWireValue } from './customfield.values.js';

/** A customer's fields and the ETag of their current state. */
export interface FieldsResult {
  readonly fields: CustomField[];
  readonly etag: string;
}

/** One value to write, with the names its errors carry (`Value`, or `Values[2].Value` in a PATCH). */
export interface WriteEntry {
  readonly number: number | undefined;
  /** The sent value; `undefined` when the property was missing. */
  readonly value: unknown;
  readonly numberField: string;
  readonly valueField: string;
}

export interface WriteOptions {
  /** The caller holds `admin`, so read-only fields may be written. */
  readonly mayWriteReadOnly: boolean;
  /** If-Match: gets the ETag before the write; false → 412 and nothing changes. */
  readonly precondition?: (currentETag: string) => boolean;
  /** PUT on one field: an undefined field is a 404, not a field error. */
  readonly unknownIsNotFound?: boolean;
  /** PATCH: the name of the entry list, which must not be empty. */
  readonly entriesField?: string;
}

const noCustomer = (customerId: string): AppError => notFound(`Customer '${customerId.slice(0, 100)}' not found`);

function toResult(customerId: string, rows: readonly FieldRow[]): FieldsResult {
  const first = rows[0];
  if (!first) throw noCustomer(customerId);
  return { fields: toCustomFields(rows), etag: customFieldsETag(first.created_at, first.version) };
}

/** Stored values by number, from the hot read's aggregate. */
function valuesOf(vals: ValuesRow['vals']): Map<number, unknown> {
  const pairs = (typeof vals === 'string' ? JSON.parse(vals) : (vals ?? [])) as Array<[number, unknown]>;
  return new Map(pairs);
}

function assemble(defs: DefinitionSet, vals: ValuesRow['vals'], wanted: ReadonlySet<number> | undefined): CustomField[] {
  const values = valuesOf(vals);
  const out: CustomField[] = [];
  for (const d of defs.ordered) {
    if (wanted && !wanted.has(d.Number)) continue;
    const { Number: n, Label, IsReadOnly, FieldType, AllowedValues, Sort } = d;
    const v = values.get(n);
    out.push({ Number: n, Label, IsReadOnly, FieldType, Value: v === undefined ? null : toWireValue(FieldType, v), AllowedValues: AllowedValues as string[] | null, Sort });
  }
  return out;
}

/**
 * The read side, made once per store: all fields of a customer or those with the given numbers
 * (unknown numbers are left out; empty means all). One precompiled statement reads the values and
 * both versions; definitions come from memory while their version is current, and a read that
 * races a definition change falls back to one consistent join.
 */
export function customFieldReader(store: Store): (customerId: string, numbers?: readonly number[]) => Promise<FieldsResult> {
  const readValues = compiledValuesReader(store.db, store.dialect);
  const cache = new DefinitionCache();
  return async (customerId, numbers) => {
    const rules = new FieldRules();
    rules.notEmpty('CustomerId', customerId).maxItems('CustomFieldNumbers', numbers, MAX_NUMBERS);
    rules.throwIfAny();
    const wanted = numbers && numbers.length > 0 ? new Set(numbers) : undefined;
    const row = await readValues(store.reader, customerId);
    if (!row) throw noCustomer(customerId);
    const defs = await cache.at(store.reader, Number(row.defs_version));
    if (defs) return { fields: assemble(defs, row.vals, wanted), etag: customFieldsETag(row.created_at, row.version) };
    // Numbers outside the definition range cannot match, and PostgreSQL would refuse them as integers.
    const inRange = wanted && [...wanted].filter(isDefinitionNumber);
    return toResult(customerId, await repo.readFields(store.reader, customerId, inRange));
  };
}

interface Planned {
  readonly upserts: Array<{ number: number; value: string }>;
  readonly clears: number[];
  readonly readOnly: FieldError[];
}

/** Checks every entry against its definition; every bad entry is reported once, all together. */
function plan(entries: readonly WriteEntry[], defs: ReadonlyMap<number, CustomFieldDefinition>, opts: WriteOptions): Planned {
  const rules = new FieldRules();
  const seen = new Set<number>();
  const out: Planned = { upserts: [], clears: [], readOnly: [] };
  for (const e of entries) {
    if (e.number === undefined) {
      rules.fail(e.numberField, 'NotNull', `'${e.numberField}' must not be empty.`);
      continue;
    }
    const def = defs.get(e.number);
    if (!def) {
      if (opts.unknownIsNotFound) throw notFound(`Custom field ${e.number} is not defined`);
      rules.fail(e.numberField, 'UnknownCustomField', `'${e.numberField}': custom field ${e.number} is not defined.`);
      continue;
    }
    if (seen.has(e.number)) {
      rules.fail(e.numberField, 'Unique', `'${e.numberField}': custom field ${e.number} is given more than once.`);
      continue;
    }
    seen.add(e.number);
    if (e.value === undefined) {
      rules.fail(e.valueField, 'Required', `'${e.valueField}' is required; send null to clear the field.`);
      continue;
    }
    const parsed = parseCustomFieldJson(def, e.value, e.valueField);
    if (isFieldError(parsed)) rules.fail(parsed.fieldName, parsed.errorCode, parsed.message);
    else if (parsed === null) out.clears.push(e.number);
    else out.upserts.push({ number: e.number, value: encodeValue(parsed) });
    if (def.IsReadOnly && !opts.mayWriteReadOnly) {
      out.readOnly.push({ errorCode: 'ReadOnly', fieldName: e.valueField, message: `Custom field ${def.Number} is read-only: writing it needs the admin permission.` });
    }
  }
  rules.throwIfAny();
  return out;
}

/**
 * Writes values of one customer, all or nothing, in one transaction: definitions checked (and held
 * against change), read-only rule, the customer's version bumped (its row lock orders concurrent
 * writers, so If-Match is checked against the committed state), values stored, modification stamp
 * moved. Returns all the customer's fields after the write.
 */
export async function writeCustomFields(store: Store, customerId: string, entries: readonly WriteEntry[], opts: WriteOptions): Promise<FieldsResult> {
  const rules = new FieldRules();
  rules.notEmpty('CustomerId', customerId);
  if (opts.entriesField) rules.notEmpty(opts.entriesField, entries).maxItems(opts.entriesField, entries, MAX_NUMBERS);
  rules.throwIfAny();
  const numbers = entries.map((e) => e.number).filter((n): n is number => n !== undefined);
  if (opts.unknownIsNotFound && numbers.some((n) => !isDefinitionNumber(n))) throw notFound(`Custom field ${numbers[0]} is not defined`);
  return store.writeTransaction(async (trx) => {
    const rows = await repo.definitionsForWrite(trx, store.dialect, [...new Set(numbers.filter(isDefinitionNumber))]);
    const planned = plan(entries, new Map(rows.map((r) => [r.number, toDefinition(r)])), opts);
    if (planned.readOnly.length > 0) throw new AppError('forbidden', 'Forbidden', planned.readOnly[0]!.message, planned.readOnly);
    const version = await repo.bumpVersion(trx, customerId);
    if (!version) throw noCustomer(customerId);
    if (opts.precondition && !opts.precondition(customFieldsETag(version.created_at, version.custom_fields_version - 1))) {
      throw new AppError('precondition-failed', 'PreconditionFailed', 'The custom fields changed since they were read: read them again (If-Match does not match the current ETag)');
    }
    await repo.upsertValues(trx, customerId, planned.upserts, Date.now());
    await repo.deleteValues(trx, customerId, planned.clears);
    const stamp = await nextStamp(store.dialect, trx);
    await customerRepository.touch(trx, [customerId], stamp);
    const fields = toCustomFields(await repo.readFields(trx, customerId));
    return { fields, etag: etagOf(version) };
  });
}
