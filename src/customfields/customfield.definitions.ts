import { allowedValueInUse, customFieldNotDefined, fieldTypeImmutable } from '../errors.js';
import type { DbHandle, Store } from '../store/store.js';
import { defineWrite } from '../writes/unit.js';
import type { WriteDoor } from '../writes/write-door.js';
import { toDefinition, toDefinitionRow } from './customfield.mapping.js';
import { customFieldRepository as repo } from './customfield.repository.js';
import type { DefineCustomFieldRequest } from './customfield.schemas.js';
import { canonicalFieldType } from './customfield.rules.js';
import { isDefinitionNumber, isSelectType, type CustomFieldDefinition } from './customfield.types.js';

/** Throws a 404 unless the number can name a definition (1 … 2147483647). */
export function checkNumber(number: number): void {
  if (!isDefinitionNumber(number)) throw customFieldNotDefined(number);
}

/** The definition a validated request describes (its schema's rules checked it): FieldType in its canonical case. */
export function definitionOf(req: DefineCustomFieldRequest): CustomFieldDefinition {
  const type = canonicalFieldType(req.FieldType)!;
  const allowed = (req.AllowedValues ?? []).map((v) => v.trim());
  return {
    Number: req.Number,
    Label: req.Label.trim(),
    FieldType: type,
    IsReadOnly: req.IsReadOnly ?? false,
    AllowedValues: isSelectType(type) ? allowed : null,
    Sort: req.Sort ?? 0,
  };
}

/** The choices still stored somewhere among those a new definition drops. */
async function removedInUse(trx: DbHandle, old: CustomFieldDefinition, next: CustomFieldDefinition): Promise<string[]> {
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
  const row = await repo.findDefinitionForUpdate(unit.db, next.Number);
  const old = row ? toDefinition(row) : undefined;
  if (old && old.FieldType !== next.FieldType && (await repo.hasValues(unit.db, next.Number))) {
    throw fieldTypeImmutable(next.Number, old.FieldType);
  }
  if (old && old.FieldType === next.FieldType) {
    const inUse = await removedInUse(unit.db, old, next);
    if (inUse.length > 0) {
      throw allowedValueInUse(inUse);
    }
  }
  await repo.saveDefinition(unit.db, toDefinitionRow(next, Date.now()));
  await repo.bumpDefinitionsVersion(unit.db);
  unit.emit({ type: 'customfield.defined', definition: next });
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
  const row = await repo.findDefinitionForUpdate(unit.db, number);
  if (!row) throw customFieldNotDefined(number);
  unit.emit({ type: 'customfield.deleted', definition: toDefinition(row) });
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

/** Saves the definition a validated request describes; tells whether it was new. */
export async function defineCustomField(
  writes: WriteDoor,
  req: DefineCustomFieldRequest,
): Promise<{ definition: CustomFieldDefinition; created: boolean }> {
  const definition = definitionOf(req);
  return { definition, created: await writes.run(defineFieldWrite, definition) };
}

/** Deletes a definition with its values (404 when there is none). */
export async function deleteCustomField(writes: WriteDoor, number: number): Promise<void> {
  checkNumber(number);
  await writes.run(deleteFieldWrite, number);
}
