import { FieldRules } from '../wire/field-rules.js';
import { CUSTOMER_FIELDS } from './customer.schemas.js';

export const MAX_FIELD_LENGTH = 255;

/** The upsert rules, shared with the import: CustomerId present, every field ≤ 255 characters. */
export function customerRules(req: Partial<Record<(typeof CUSTOMER_FIELDS)[number], unknown>>, rules = new FieldRules()): FieldRules {
  rules.notEmpty('CustomerId', req.CustomerId);
  for (const field of CUSTOMER_FIELDS) rules.maxLength(field, req[field], MAX_FIELD_LENGTH);
  return rules;
}
