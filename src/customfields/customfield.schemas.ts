import { Type, type Static } from '@sinclair/typebox';
import { CheckedLater, NAME_LENGTH, NotNull, withRules } from '../wire/request-schema.js';
import { Nullable } from '../wire/schema-types.js';
import { allowedValues, customerIdOfPath, fieldType } from './customfield.rules.js';
import { FIELD_TYPES, INT32_MAX, INT32_MIN, MAX_LABEL_LENGTH, MAX_NUMBERS } from './customfield.types.js';

const FieldTypeSchema = Type.Union(
  FIELD_TYPES.map((t) => Type.Literal(t)),
  { description: `Kind of the field; fixes the JSON type of Value: ${FIELD_TYPES.join(', ')}.` },
);

const ValueDescription =
  'Text, Select → string; Number → integer; Decimal → number; Boolean → boolean; Date → date in the wire date style; ' +
  'MultiSelect → array of strings; null when unset.';

/** The spec's CustomField: exactly these seven properties, all present. */
export const CustomField = Type.Object(
  {
    Number: Type.Integer({ description: 'Number of the custom field.' }),
    Label: Type.String(),
    IsReadOnly: Type.Boolean({ description: 'Writable only with the admin permission.' }),
    FieldType: FieldTypeSchema,
    // Unknown (no JSON type) also tells the serializer that a value may be a date.
    Value: Type.Unknown({ description: ValueDescription }),
    AllowedValues: Nullable(
      Type.Array(Type.String(), { description: 'The choices of Select and MultiSelect fields; null for the other types.' }),
    ),
    Sort: Type.Integer({ description: 'Fields are listed by Sort, then Number.' }),
  },
  { $id: 'CustomField', additionalProperties: false },
);
export type CustomField = Static<typeof CustomField>;

/** The customer of the path; a body CustomerId must name the same one. */
const PathCustomerId = () => Type.String({ description: 'Id of the customer (path).', maxLength: NAME_LENGTH });
const pathCustomerRule = { CustomerId: customerIdOfPath };

export const GetCustomerCustomFieldsRequest = withRules(
  Type.Object(
    {
      CustomerId: PathCustomerId(),
      CustomFieldNumbers: Type.Optional(
        Type.Array(Type.Integer(), {
          description:
            'Numbers of the fields to return (`1,3` or `[1,3]` in the path); all fields when omitted or empty. Numbers with no definition are left out.',
          maxItems: MAX_NUMBERS,
        }),
      ),
    },
    { $id: 'GetCustomerCustomFields' },
  ),
  pathCustomerRule,
);
export type GetCustomerCustomFieldsRequest = Static<typeof GetCustomerCustomFieldsRequest>;

const WriteValue = Type.Unknown({
  description: `The new value; null clears it. ${ValueDescription} Strings in the text form (as in imports) are accepted for every type.`,
});

// Value stays optional to the request pass: a missing Value is reported with the value's rules.
export const SetCustomerCustomFieldRequest = withRules(
  Type.Object(
    {
      CustomerId: PathCustomerId(),
      Number: NotNull(Type.Integer({ description: 'Number of the custom field (path).' })),
      Value: Type.Optional(WriteValue),
    },
    { $id: 'SetCustomerCustomField' },
  ),
  pathCustomerRule,
);
export type SetCustomerCustomFieldRequest = Static<typeof SetCustomerCustomFieldRequest>;

// A PATCH reports every bad entry at once, a missing Number among them (customfield.writes.ts).
export const CustomFieldValueEntry = Type.Object(
  { Number: CheckedLater(Type.Optional(Type.Integer())), Value: Type.Optional(WriteValue) },
  { $id: 'CustomFieldValueEntry' },
);

export const PatchCustomerCustomFieldsRequest = withRules(
  Type.Object(
    {
      CustomerId: PathCustomerId(),
      Values: Type.Array(CustomFieldValueEntry, {
        description: 'The values to write, all or nothing. The body may also be this array alone: `[{"Number":1,"Value":"x"}]`.',
        maxItems: MAX_NUMBERS,
      }),
    },
    { $id: 'PatchCustomerCustomFields' },
  ),
  pathCustomerRule,
);
export type PatchCustomerCustomFieldsRequest = Static<typeof PatchCustomerCustomFieldsRequest>;

/** A definition as the operator routes show it. */
export const CustomFieldDefinitionSchema = Type.Object(
  {
    Number: Type.Integer(),
    Label: Type.String(),
    FieldType: FieldTypeSchema,
    IsReadOnly: Type.Boolean(),
    AllowedValues: Nullable(Type.Array(Type.String())),
    Sort: Type.Integer(),
  },
  { $id: 'CustomFieldDefinition', additionalProperties: false },
);

export const DefineCustomFieldRequest = withRules(
  Type.Object(
    {
      Number: Type.Integer({ description: 'Number of the field (path), 1 to 2147483647.', minimum: 1, maximum: INT32_MAX }),
      Label: Type.String({ description: 'Label shown to users (required, ≤ 255 characters).', maxLength: MAX_LABEL_LENGTH }),
      // Any case and surrounding blanks are accepted (a rule, not a schema enum), and the DTOs keep a string.
      FieldType: Type.String({ description: `One of ${FIELD_TYPES.join(', ')} (required). Cannot change once the field has values.` }),
      IsReadOnly: Type.Optional(Type.Boolean({ description: 'Default false.' })),
      AllowedValues: Type.Optional(
        Nullable(
          Type.Array(Type.String(), {
            description:
              'Required, non-empty and without duplicates for Select and MultiSelect; null otherwise. A value in use cannot be removed.',
          }),
        ),
      ),
      Sort: Type.Optional(Type.Integer({ description: 'Default 0.', minimum: INT32_MIN, maximum: INT32_MAX })),
    },
    { $id: 'DefineCustomField' },
  ),
  { FieldType: fieldType, AllowedValues: allowedValues },
);
export type DefineCustomFieldRequest = Static<typeof DefineCustomFieldRequest>;

export const CustomFieldNumberRequest = Type.Object(
  { Number: Type.Integer({ description: 'Number of the field (path).' }) },
  { $id: 'DeleteCustomField' },
);
export type CustomFieldNumberRequest = Static<typeof CustomFieldNumberRequest>;
