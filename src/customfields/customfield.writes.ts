import { customFieldNotDefined, customFieldsChanged, customerNotFound, readOnlyFields, type FieldError } from '../errors.js';
import { FieldRules } from '../wire/field-rules.js';
import { defineWrite } from '../writes/unit.js';
import { ifMatchAccepts } from './customfield.etag.js';
import { customFieldsETag, etagOf, toDefinition } from './customfield.mapping.js';
import { customFieldRepository as repo, type FieldRow } from './customfield.repository.js';
import { isDefinitionNumber, type CustomFieldDefinition } from './customfield.types.js';
import { encodeValue, isFieldError, parseCustomFieldJson } from './customfield.values.js';

/** One value to write, with the names its errors carry (`Value`, or `Values[2].Value` in a PATCH). */
export interface WriteEntry {
  readonly number: number | undefined;
  /** The sent value; `undefined` when the property was missing. */
  readonly value: unknown;
  readonly numberField: string;
  readonly valueField: string;
}

/** How to write; plain data, so that it can cross to the write thread. */
export interface WriteOptions {
  /** The caller holds `admin`, so read-only fields may be written. */
  readonly mayWriteReadOnly: boolean;
  /** The If-Match header: when it does not accept the ETag before the write → 412, nothing changes. */
  readonly ifMatch?: string;
  /** PUT on one field: an undefined field is a 404, not a field error. */
  readonly unknownIsNotFound?: boolean;
}

/** What a write answers: the customer's field rows after it (mapped by the caller) and the new ETag. */
export interface WrittenFields {
  readonly rows: FieldRow[];
  readonly etag: string;
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
      if (opts.unknownIsNotFound) throw customFieldNotDefined(e.number);
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
      out.readOnly.push({
        errorCode: 'ReadOnly',
        fieldName: e.valueField,
        message: `Custom field ${def.Number} is read-only: writing it needs the admin permission.`,
      });
    }
  }
  rules.throwIfAny();
  return out;
}

/**
 * Writes values of one customer, all or nothing, as one unit of work of the write door:
 * definitions checked (and held against change until commit), read-only rule, the customer's
 * version bumped (its row lock orders concurrent writers, so If-Match is checked against the
 * committed state), values stored; the door moves the customer's modification stamp.
 */
export const writeValuesWrite = defineWrite(
  'customfield.write-values',
  async (unit, input: { customerId: string; entries: readonly WriteEntry[]; opts: WriteOptions }): Promise<WrittenFields> => {
    const { customerId, entries, opts } = input;
    const trx = unit.db;
    const numbers = [...new Set(entries.map((e) => e.number).filter((n): n is number => n !== undefined && isDefinitionNumber(n)))];
    const rows = await repo.definitionsForWrite(trx, numbers);
    const planned = plan(entries, new Map(rows.map((r) => [r.number, toDefinition(r)])), opts);
    if (planned.readOnly.length > 0) throw readOnlyFields(planned.readOnly);
    const version = await repo.bumpVersion(trx, customerId);
    if (!version) throw customerNotFound(customerId);
    if (
      opts.ifMatch !== undefined &&
      !ifMatchAccepts(opts.ifMatch, customFieldsETag(version.created_at, version.custom_fields_version - 1))
    ) {
      throw customFieldsChanged();
    }
    await repo.upsertValues(trx, customerId, planned.upserts, Date.now());
    await repo.deleteValues(trx, customerId, planned.clears);
    unit.touch('customer', customerId);
    unit.emit({ type: 'customer.customfields_changed', customerId, numbers: [...planned.upserts.map((u) => u.number), ...planned.clears] });
    return { rows: await repo.readFields(trx, customerId), etag: etagOf(version) };
  },
);
