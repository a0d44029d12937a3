import type { FieldError } from '../errors.js';
import { parseWireDate } from '../wire/dates.js';
import { parseJsvList } from '../wire/jsv.js';
import { wireDate } from '../wire/serializer.js';
import { MAX_TEXT_LENGTH, type CustomFieldDefinition, type CustomFieldValue } from './customfield.types.js';

/** What a parse gives: the typed value, `null` (clears the field), or the reason it was refused. */
export type ParsedValue = CustomFieldValue | null | FieldError;

const INTEGER = /^[+-]?\d{1,16}$/;
const DECIMAL = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

const EXPECTED: Record<CustomFieldDefinition['FieldType'], string> = {
  Text: 'a string',
  Number: 'a whole number',
  Decimal: 'a number',
  Boolean: 'true or false',
  Date: 'a date',
  Select: 'one of the allowed values',
  MultiSelect: 'a list of allowed values',
};

/** True when a parse result is a refusal rather than a value. */
export function isFieldError(v: ParsedValue): v is FieldError {
  return v !== null && typeof v === 'object' && !Array.isArray(v) && 'errorCode' in v;
}

function typeMismatch(def: CustomFieldDefinition, fieldName: string): FieldError {
  return {
    errorCode: 'TypeMismatch',
    fieldName,
    message: `'${fieldName}' must be ${EXPECTED[def.FieldType]} (custom field ${def.Number} is of type ${def.FieldType}).`,
  };
}

function notAllowed(def: CustomFieldDefinition, fieldName: string, value: string): FieldError {
  const shown = value.length > 40 ? value.slice(0, 40) + '…' : value;
  return {
    errorCode: 'Enum',
    fieldName,
    message: `'${fieldName}' has a range of values which does not include '${shown}' (allowed: ${(def.AllowedValues ?? []).join(', ')}).`,
  };
}

function checkText(text: string, fieldName: string): ParsedValue {
  // NUL is never meaningful in text and the rest of the API refuses it too.
  if (text.includes('\u0000'))
    return { errorCode: 'InvalidCharacter', fieldName, message: `'${fieldName}' must not contain NUL characters.` };
  if (text.length <= MAX_TEXT_LENGTH) return text;
  return {
    errorCode: 'Length',
    fieldName,
    message: `The length of '${fieldName}' must be ${MAX_TEXT_LENGTH} characters or fewer. You entered ${text.length} characters.`,
  };
}

/** MultiSelect: every item allowed; duplicates collapse to their first occurrence. */
function checkChoices(def: CustomFieldDefinition, items: readonly unknown[], fieldName: string): ParsedValue {
  const allowed = def.AllowedValues ?? [];
  const out: string[] = [];
  for (const item of items) {
    if (typeof item !== 'string') return typeMismatch(def, fieldName);
    if (!allowed.includes(item)) return notAllowed(def, fieldName, item);
    if (!out.includes(item)) out.push(item);
  }
  return out;
}

/**
 * Parses the text form of a value, as CSV/JSONL imports, forms, query strings and the CLI carry it:
 * whole numbers, decimals (`1.5`, `-2e3`), `true`/`false`/`1`/`0`, any wire date form, a Select
 * value exactly as allowed, MultiSelect as `a,b` or `[a,"b,c"]`. Blank text means "no value" (null).
 * `fieldName` names the value in the error (default `cf.<Number>`, the import column).
 */
export function parseCustomFieldText(def: CustomFieldDefinition, text: string, fieldName = `cf.${def.Number}`): ParsedValue {
  const t = text.trim();
  if (t === '') return null;
  switch (def.FieldType) {
    case 'Text':
      return checkText(text, fieldName);
    case 'Number':
      return INTEGER.test(t) && Number.isSafeInteger(Number(t)) ? Number(t) : typeMismatch(def, fieldName);
    case 'Decimal':
      return DECIMAL.test(t) && Number.isFinite(Number(t)) ? Number(t) : typeMismatch(def, fieldName);
    case 'Boolean': {
      const b = t.toLowerCase();
      return b === 'true' || b === '1' ? true : b === 'false' || b === '0' ? false : typeMismatch(def, fieldName);
    }
    case 'Date':
      return parseWireDate(t) ?? typeMismatch(def, fieldName);
    case 'Select':
      return (def.AllowedValues ?? []).includes(t) ? t : notAllowed(def, fieldName, t);
    case 'MultiSelect':
      return checkChoices(def, parseJsvList(t), fieldName);
  }
}

/**
 * Checks a value sent as JSON: the JSON type of the field (`null` clears), or a non-blank string in
 * the text form (so forms and query strings can write every type). Text takes strings only.
 */
export function parseCustomFieldJson(def: CustomFieldDefinition, value: unknown, fieldName: string): ParsedValue {
  if (value === null) return null;
  if (typeof value === 'string') {
    if (def.FieldType === 'Text') return checkText(value, fieldName);
    return value.trim() === '' ? typeMismatch(def, fieldName) : parseCustomFieldText(def, value, fieldName);
  }
  switch (def.FieldType) {
    case 'Number':
      return typeof value === 'number' && Number.isSafeInteger(value) ? value : typeMismatch(def, fieldName);
    case 'Decimal':
      return typeof value === 'number' && Number.isFinite(value) ? value : typeMismatch(def, fieldName);
    case 'Boolean':
      return typeof value === 'boolean' ? value : typeMismatch(def, fieldName);
    case 'MultiSelect':
      return Array.isArray(value) ? checkChoices(def, value, fieldName) : typeMismatch(def, fieldName);
    default:
      return typeMismatch(def, fieldName);
  }
}

/** Stored form of a value: JSON text (dates as epoch ms). */
export const encodeValue = (value: CustomFieldValue): string => JSON.stringify(value);

/** A stored value → the response value: dates become wire dates, everything else stays as stored. */
export const toWireValue = (fieldType: string, v: unknown): unknown => (fieldType === 'Date' && typeof v === 'number' ? wireDate(v) : v);

/** Stored JSON text → the response value. */
export function decodeValue(fieldType: string, stored: string | null): unknown {
  return stored === null ? null : toWireValue(fieldType, JSON.parse(stored));
}
