/**
 * The custom-fields module as the rest of the service sees it: its operations and writes, the
 * definitions and values a customer import checks and stores, its CLI's definitions, and what an
 * erasure asks of it.
 */
export { defineCustomField, definitionWrites, deleteCustomField, listDefinitions } from './customfield.definitions.js';
export { eraseCustomFieldValuesOf, PERSONAL_CUSTOM_FIELD_TABLE } from './customfield.erasure.js';
export {
  customFieldColumn,
  customFieldDefinitions,
  isFieldError,
  parseCustomFieldText,
  storeCustomFieldValues,
  type CustomFieldDefinition,
  type CustomFieldWrite,
} from './customfield.import.js';
export { customFieldOperations } from './customfield.operations.js';
export { CustomField, DefineCustomFieldRequest } from './customfield.schemas.js';
export { customFieldReader } from './customfield.service.js';
export { FIELD_TYPES } from './customfield.types.js';
export { parseCustomFieldJson } from './customfield.values.js';
export { writeValuesWrite } from './customfield.writes.js';
