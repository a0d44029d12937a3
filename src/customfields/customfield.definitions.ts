import { conflict, notFound } from '../errors.js';
import type { Executor, Store } from '../store/store.js';
import { FieldRules } from '../wire/field-rules.js';
import { defineWrite } from '../writes/unit.js';
import type { WriteDoor } from '../writes/write-door.js';
import { toDefinition, toDefinitionRow } from './customfield.mapping.js';
import { customFieldRepository as repo } from './customfield.repository.js';
import type { DefineCustomFieldRequest } from './customfield.schemas.js';
import {
  FIELD_TYPES, INT32_MAX, INT32_MIN, MAX_ALLOWED_VALUES, MAX_LABEL_LENGTH, isDefinitionNumber, isSelectType,
  type CustomFieldDefinition, type FieldType,
} from './customfield.types.js';

function between(rules: FieldRules, field: string, value: number | undefined, min: number, max: number): void {
  if (value !== undefined && (value < min || value > max)) {
    rules.fail(field, 'InclusiveBetween', `'${field}' must be between ${min} and ${max}. You entered ${value}.`);
  }
}

/** Throws a 404 unless the number can name a definition (1 … 2147483647). */
export function checkNumber(number: number): void {
  if (!isDefinitionNumber(number)) throw notFound(`Custom field ${number} is not defined`);
}

function checkAllowedValues(rules: FieldRules, type: FieldType | undefined, values: readonly string[]): void {
  if (type === undefined) return; // the FieldType error says enough
  if (!isSelectType(type)) {
    if (values.length > 0) rules.fail('AllowedValues', 'Null', `'AllowedValues' must be empty for a ${type} field.`);
    return;
  }
  rules.notEmpty('AllowedValues', values);
  rules.maxItems('AllowedValues', values, MAX_ALLOWED_VALUES);
  values.forEach((v, i) => {
    const field = `AllowedValues[${i}]`;
    rules.notEmpty(field, v).maxLength(field, v, MAX_LABEL_LENGTH);
    if (values.indexOf(v) !== i) rules.fail(field, 'Unique', `'${field}' repeats '${v.slice(0, 40)}'.`);
  });
}

/** Validates a definition request; returns the definition it describes (FieldType in its canonical case). */
export function validateDefinition(req: DefineCustomFieldRequest): CustomFieldDefinition {
  const rules = new FieldRules();
  between(rules, 'Number', req.Number, 1, INT32_MAX);
  rules.notEmpty('Label', req.Label).maxLength('Label', req.Label, MAX_LABEL_LENGTH);
  const type = FIELD_TYPES.find((t) => t.toLowerCase() === req.FieldType?.trim().toLowerCase());
  rules.notEmpty('FieldType', req.FieldType).oneOf('FieldType', type ?? req.FieldType, FIELD_TYPES);
  const allowed = (req.AllowedValues ?? []).map((v) => v.trim());
  checkAllowedValues(rules, type, allowed);
  between(rules, 'Sort', req.Sort, INT32_MIN, INT32_MAX);
  rules.throwIfAny();
  return {
    Number: req.Number,
    Label: req.Label!.trim(),
    FieldType: type!,
    IsReadOnly: req.IsReadOnly ?? false,
    AllowedValues: isSelectType(type!) ? allowed : null,
    Sort: req.Sort ?? 0,
  };
}

/** The choices still stored somewhere among those a new definition drops. */
async function removedInUse(trx: Executor, old: CustomFieldDefinition, next: CustomFieldDefinition): Promise<string[]> {
  const removed = (old.AllowedValues ?? []).filter((v) => !(next.AllowedValues ?? []).includes(v));
  if (removed.length === 0) return [];
  const used = new Set<string>();
  for (const text of await repo.distinctValues(trx, old.Number)) {
    const v: unknown = JSON.parse(text);
    for (const choice of Array.isArray(v) ? v : [v]) used.add(String(choice));
  }
  return removed.filter((v) => used.has(v));
}

/** Every definition, by Sort then Number. */
export async function listDefinitions(store: Store): Promise<CustomFieldDefinition[]> {
  return (await repo.listDefinitions(store.reader)).map(toDefinition);
}

/**
 * Creates or replaces a definition. Refused (409) when it would change the type of a field that
 * has values, or drop a choice that some customer has chosen.
 */
export const defineFieldWrite = defineWrite('customfield.define', async (unit, next: CustomFieldDefinition): Promise<boolean> => {
  const row = await repo.findDefinitionForUpdate(unit.sql, unit.db, next.Number);
  const old = row ? toDefinition(row) : undefined;
  if (old && old.FieldType !== next.FieldType && (await repo.hasValues(unit.db, next.Number))) {
    throw conflict(`Custom field ${next.Number} has values: its FieldType stays ${old.FieldType}`, 'FieldTypeImmutable', 'FieldType');
  }
  if (old && old.FieldType === next.FieldType) {
    const inUse = await removedInUse(unit.db, old, next);
    if (inUse.length > 0) {
      throw conflict(`Allowed values still in use cannot be removed: ${inUse.join(', ')}`, 'AllowedValueInUse', 'AllowedValues');
    }
  }
  await repo.saveDefinition(unit.db, toDefinitionRow(next, Date.now()));
  await repo.bumpDefinitionsVersion(unit.db);
  return !old;
});

/**
 * Deletes a definition and every value of it. Customers that had a value get a new custom-field
 * version and modification stamp, so ETags and the sync feed show the change. Their rows are
 * locked (by the version bump) before the stamp is taken; the stamp and the deletes, which must
 * still see the values to find those customers, run once it is taken (set-based: a field may have
 * values for millions of customers).
 */
export const deleteFieldWrite = defineWrite('customfield.delete', async (unit, number: number): Promise<void> => {
  const row = await repo.findDefinitionForUpdate(unit.sql, unit.db, number);
  if (!row) throw notFound(`Custom field ${number} is not defined`);
  const remove = async (): Promise<void> => {
    await repo.deleteValuesOfField(unit.db, number);
    await repo.deleteDefinition(unit.db, number);
    await repo.bumpDefinitionsVersion(unit.db);
  };
  if (!(await repo.hasValues(unit.db, number))) return remove();
  await repo.bumpCustomersWithValues(unit.db, number);
  unit.onStamp(async (stamp) => {
    await repo.stampCustomersWithValues(unit.db, number, stamp);
    await remove();
  });
});

export const definitionWrites = [defineFieldWrite, deleteFieldWrite];

/** Validates and saves a definition; tells whether it was new. */
export async function defineCustomField(writes: WriteDoor, req: DefineCustomFieldRequest): Promise<{ definition: CustomFieldDefinition; created: boolean }> {
  const definition = validateDefinition(req);
  return { definition, created: await writes.run(defineFieldWrite, definition) };
}

/** Deletes a definition with its values (404 when there is none). */
export async function deleteCustomField(writes: WriteDoor, number: number): Promise<void> {
  checkNumber(number);
  await writes.run(deleteFieldWrite, number);
}
