import { allowedValueInUse, customFieldNotDefined, fieldTypeImmutable } from '../errors.js';
import type { Executor, Store } from '../store/store.js';
import { isTransactionConflict } from '../store/store-errors.js';
import { nextStamp } from '../store/sync-clock.js';
import { toDefinition, toDefinitionRow } from './customfield.mapping.js';
import { customFieldRepository as repo } from './customfield.repository.js';
import type { DefineCustomFieldRequest } from './customfield.schemas.js';
import { canonicalFieldType } from './customfield.rules.js';
import { isDefinitionNumber, isSelectType, type CustomFieldDefinition } from './customfield.types.js';

const ATTEMPTS = 5;

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
export async function defineCustomField(store: Store, req: DefineCustomFieldRequest): Promise<{ definition: CustomFieldDefinition; created: boolean }> {
  const next = definitionOf(req);
  return store.writeTransaction(async (trx) => {
    const row = await repo.findDefinitionForUpdate(trx, store.dialect, next.Number);
    const old = row ? toDefinition(row) : undefined;
    if (old && old.FieldType !== next.FieldType && (await repo.hasValues(trx, next.Number))) {
      throw fieldTypeImmutable(next.Number, old.FieldType);
    }
    if (old && old.FieldType === next.FieldType) {
      const inUse = await removedInUse(trx, old, next);
      if (inUse.length > 0) {
        throw allowedValueInUse(inUse);
      }
    }
    await repo.saveDefinition(trx, toDefinitionRow(next, Date.now()));
    await repo.bumpDefinitionsVersion(trx);
    return { definition: next, created: !old };
  });
}

/**
 * Deletes a definition and every value of it. Customers that had a value get a new custom-field
 * version and modification stamp, so ETags and the sync feed show the change. Their rows are
 * locked before the stamp is taken (store/sync-clock.ts). The rows are many and locked in no
 * particular order, so on PostgreSQL a group-commit transaction holding some of them can still
 * meet this one; the database then aborts one of the two, and an aborted delete runs again.
 */
export async function deleteCustomField(store: Store, number: number): Promise<void> {
  checkNumber(number);
  for (let attempt = 1; ; attempt++) {
    try {
      return await store.writeTransaction(async (trx) => {
        const row = await repo.findDefinitionForUpdate(trx, store.dialect, number);
        if (!row) throw customFieldNotDefined(number);
        if (await repo.hasValues(trx, number)) {
          await repo.bumpCustomersWithValues(trx, number);
          await repo.stampCustomersWithValues(trx, number, await nextStamp(store.dialect, trx));
        }
        await repo.deleteValuesOfField(trx, number);
        await repo.deleteDefinition(trx, number);
        await repo.bumpDefinitionsVersion(trx);
      });
    } catch (err) {
      if (isTransactionConflict(err) && attempt < ATTEMPTS) continue;
      throw err;
    }
  }
}
