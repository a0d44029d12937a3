import { Type } from '@sinclair/typebox';
import { routeRead } from '../store/read-replica.js';
import type { Store } from '../store/store.js';
import type { WriteDoor } from '../writes/write-door.js';
import { defineOperation, type AnyOperation } from '../wire/operation.js';
import { minWatermarkOf } from '../wire/read-your-writes.js';
import { defineCustomField, deleteCustomField, listDefinitions } from './customfield.definitions.js';
import { CustomFieldDefinitionSchema, CustomFieldNumberRequest, DefineCustomFieldRequest } from './customfield.schemas.js';

/** The operator's custom-field definition operations. */
export function definitionOperations(store: Store, writes: WriteDoor): AnyOperation[] {
  return [
    defineOperation({
      name: 'GetCustomFieldDefinitions',
      tag: 'Custom fields',
      summary: 'List every custom-field definition, by Sort then Number.',
      routes: [{ method: 'GET', path: '/customfields/' }],
      permission: 'all',
      request: Type.Object({}, { $id: 'GetCustomFieldDefinitions' }),
      response: Type.Array(CustomFieldDefinitionSchema),
      handle: (_req, call) => routeRead(store, minWatermarkOf(call, 'GetCustomFieldDefinitions'), listDefinitions),
    }),
    defineOperation({
      name: 'DefineCustomField',
      tag: 'Operator',
      summary: 'Create (201) or replace (200) a custom-field definition (operator).',
      description:
        'FieldType cannot change once the field has values, and an allowed value still chosen by a customer cannot be removed (409). ' +
        'AllowedValues: required for Select and MultiSelect, null for the other types.',
      routes: [{ method: 'PUT', path: '/customfields/{Number}' }],
      example: { Number: 1, Label: 'Newsletter', FieldType: 'Boolean', Sort: 1 },
      permission: 'admin',
      request: DefineCustomFieldRequest,
      response: CustomFieldDefinitionSchema,
      writeWatermark: true,
      otherSuccess: { 201: 'Created: no field had this Number.' },
      async handle(req, call) {
        const { definition, created } = await defineCustomField(writes, req);
        if (created) call.setStatus(201);
        return definition;
      },
    }),
    defineOperation({
      name: 'DeleteCustomField',
      tag: 'Operator',
      summary: 'Delete a custom-field definition and all its values (operator); 204.',
      routes: [{ method: 'DELETE', path: '/customfields/{Number}' }],
      example: { Number: 2 },
      notFound: 'No custom field with this Number.',
      permission: 'admin',
      request: CustomFieldNumberRequest,
      response: Type.Null(),
      successStatus: 204,
      writeWatermark: true,
      handle: (req) => deleteCustomField(writes, req.Number),
    }),
  ];
}
