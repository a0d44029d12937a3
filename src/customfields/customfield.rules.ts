import type { FieldRule } from '../wire/request-schema.js';
import { FIELD_TYPES, MAX_ALLOWED_VALUES, MAX_LABEL_LENGTH, isSelectType, type FieldType } from './customfield.types.js';

// The rules of custom-field requests that a schema cannot express; customfield.schemas.ts attaches them.

/** A FieldType as sent (any case, surrounding blanks) in its canonical spelling; undefined when unknown. */
export const canonicalFieldType = (sent: unknown): FieldType | undefined =>
  typeof sent === 'string' ? FIELD_TYPES.find((t) => t.toLowerCase() === sent.trim().toLowerCase()) : undefined;

export const fieldType: FieldRule = (rules, field, value) => void rules.oneOf(field, canonicalFieldType(value) ?? value, FIELD_TYPES);

/** Select types need a non-empty list of distinct choices; the other types none. */
export const allowedValues: FieldRule = (rules, field, value, definition) => {
  const type = canonicalFieldType(definition.FieldType);
  if (type === undefined) return; // the FieldType error says enough
  const values = ((value ?? []) as string[]).map((v) => v.trim());
  if (!isSelectType(type)) {
    if (values.length > 0) rules.fail(field, 'Null', `'${field}' must be empty for a ${type} field.`);
    return;
  }
  rules.notEmpty(field, values).maxItems(field, values, MAX_ALLOWED_VALUES);
  values.forEach((v, i) => {
    const item = `${field}[${i}]`;
    rules.notEmpty(item, v).maxLength(item, v, MAX_LABEL_LENGTH);
    if (values.indexOf(v) !== i) rules.fail(item, 'Unique', `'${item}' repeats '${v.slice(0, 40)}'.`);
  });
};

/** A body CustomerId, when given, must name the customer of the path (ServiceStack DTOs carry both). */
export const customerIdOfPath: FieldRule = (rules, field, pathId, _request, ctx) => {
  const sent = ctx.bodyFields?.CustomerId;
  if (sent === undefined || sent === null || sent === '' || sent === pathId) return;
  rules.fail(field, 'Equal', `'${field}' must be equal to '${String(pathId).slice(0, 100)}' (the customer of the path).`);
};
