import type { Unit } from '../writes/unit.js';
import { customFieldRepository } from './customfield.repository.js';

/** The table whose rows hold a customer's custom-field values: an erasure deletes them all. */
export const PERSONAL_CUSTOM_FIELD_TABLE = 'custom_field_values';

/**
 * Deletes the customer's custom-field values; answers how many went. Their version moves when any
 * did, so that a reader's ETag no longer matches.
 */
export async function eraseCustomFieldValuesOf(unit: Unit, customerId: string): Promise<number> {
  const values = await customFieldRepository.deleteAllValues(unit.db, customerId);
  if (values > 0) await customFieldRepository.bumpVersion(unit.db, customerId);
  return values;
}
