/** The kinds of custom field; a field's kind fixes the JSON type of its values. */
export const FIELD_TYPES = ['Text', 'Number', 'Decimal', 'Boolean', 'Date', 'Select', 'MultiSelect'] as const;
export type FieldType = (typeof FIELD_TYPES)[number];

/** The kinds whose values are chosen from AllowedValues. */
export const SELECT_TYPES: readonly FieldType[] = ['Select', 'MultiSelect'];
export const isSelectType = (t: FieldType): boolean => SELECT_TYPES.includes(t);

/** Definition numbers and sort keys are 32-bit integers (a PostgreSQL `integer` column). */
export const INT32_MAX = 2_147_483_647;
export const INT32_MIN = -2_147_483_648;
export const isDefinitionNumber = (n: number): boolean => Number.isSafeInteger(n) && n >= 1 && n <= INT32_MAX;

/** Limits: Text values as every free string of the API; AllowedValues entries as names. */
export const MAX_TEXT_LENGTH = 1000;
export const MAX_LABEL_LENGTH = 255;
export const MAX_ALLOWED_VALUES = 1000;
/** Most numbers in one read or entries in one PATCH. */
export const MAX_NUMBERS = 1000;

/** A custom-field definition, in API terms. */
export interface CustomFieldDefinition {
  readonly Number: number;
  readonly Label: string;
  readonly FieldType: FieldType;
  readonly IsReadOnly: boolean;
  readonly AllowedValues: readonly string[] | null;
  readonly Sort: number;
}

/**
 * A stored value, typed by its field: Text/Select → string, Number/Decimal → number, Boolean →
 * boolean, Date → epoch milliseconds, MultiSelect → strings. `null` means unset.
 */
export type CustomFieldValue = string | number | boolean | readonly string[];
