import { Type } from '@sinclair/typebox';
import { routeRead } from '../store/read-replica.js';
import type { Store } from '../store/store.js';
import { defineOperation, type AnyOperation, type OperationCall } from '../wire/operation.js';
import { minWatermarkOf } from '../wire/read-your-writes.js';
import type { WriteDoor } from '../writes/write-door.js';
import { definitionOperations } from './customfield.definition-operations.js';
import {
  CustomField,
  GetCustomerCustomFieldsRequest,
  PatchCustomerCustomFieldsRequest,
  SetCustomerCustomFieldRequest,
} from './customfield.schemas.js';
import { customFieldReader, writeCustomFields, type FieldsResult, type WriteOptions } from './customfield.service.js';

function writeOptions(call: OperationCall, unknownIsNotFound: boolean): WriteOptions {
  const ifMatch = call.header('if-match');
  return {
    mayWriteReadOnly: call.key.permissions.has('admin'),
    ...(unknownIsNotFound ? { unknownIsNotFound } : {}),
    ...(ifMatch !== undefined ? { ifMatch } : {}),
  };
}

function withETag<T>(call: OperationCall, result: FieldsResult, body: T): T {
  call.setHeader('ETag', result.etag);
  return body;
}

/** The custom-field operations: the spec's GetCustomerCustomFields, value writes and definitions. */
export function customFieldOperations(store: Store, writes: WriteDoor): AnyOperation[] {
  const read = customFieldReader();
  return [
    defineOperation({
      name: 'GetCustomerCustomFields',
      tag: 'Custom fields',
      summary: "Read a customer's custom fields: all, or those with the given numbers.",
      description:
        'Sorted by Sort, then Number. Numbers with no definition are left out. An unset Value is null; Value has the JSON type of its FieldType. ' +
        'POST reads too (body {CustomerId, CustomFieldNumbers}). The ETag header can be sent back as If-Match on a write.',
      routes: [
        { method: 'GET', path: '/customer/{CustomerId}/customfields/' },
        { method: 'GET', path: '/customer/{CustomerId}/customfields/{CustomFieldNumbers}' },
        { method: 'POST', path: '/customer/{CustomerId}/customfields/' },
      ],
      example: { CustomerId: 'C00000001', CustomFieldNumbers: [1] },
      notFound: 'No customer with this CustomerId.',
      permission: 'all',
      request: GetCustomerCustomFieldsRequest,
      response: Type.Array(CustomField),
      async handle(req, call) {
        const result = await routeRead(store, minWatermarkOf(call, 'GetCustomerCustomFields'), (s) =>
          read(s, req.CustomerId, req.CustomFieldNumbers),
        );
        return withETag(call, result, result.fields);
      },
    }),
    defineOperation({
      name: 'SetCustomerCustomField',
      tag: 'Custom fields',
      summary: 'Write one custom field of a customer ({Value}; null clears it).',
      description:
        'Read-only fields need the admin permission. Optional If-Match with the ETag of the last read (412 when the fields changed since).',
      routes: [{ method: 'PUT', path: '/customer/{CustomerId}/customfields/{Number}' }],
      example: { CustomerId: 'C00000001', Number: 1, Value: true },
      notFound: 'No customer with this CustomerId, or no field with this Number.',
      permission: 'all',
      request: SetCustomerCustomFieldRequest,
      response: CustomField,
      writeWatermark: true,
      async handle(req, call) {
        const entry = { number: req.Number, value: req.Value, numberField: 'Number', valueField: 'Value' };
        const result = await writeCustomFields(writes, req.CustomerId, [entry], writeOptions(call, true));
        return withETag(
          call,
          result,
          result.fields.find((f) => f.Number === req.Number),
        );
      },
    }),
    defineOperation({
      name: 'PatchCustomerCustomFields',
      tag: 'Custom fields',
      summary: 'Write several custom fields of a customer, all or nothing: [{Number, Value}].',
      description:
        'The body is the array itself or {Values: [...]}. Every bad entry is reported (Values[i].Value); nothing is written unless all are valid. ' +
        'Read-only fields need the admin permission. Optional If-Match (412 when the fields changed since). Answers all fields of the customer.',
      routes: [{ method: 'PATCH', path: '/customer/{CustomerId}/customfields/' }],
      example: { CustomerId: 'C00000001', Values: [{ Number: 1, Value: false }] },
      notFound: 'No customer with this CustomerId.',
      permission: 'all',
      arrayBody: 'Values',
      request: PatchCustomerCustomFieldsRequest,
      response: Type.Array(CustomField),
      writeWatermark: true,
      async handle(req, call) {
        const entries = req.Values.map((v, i) => ({
          number: v.Number,
          value: v.Value,
          numberField: `Values[${i}].Number`,
          valueField: `Values[${i}].Value`,
        }));
        const result = await writeCustomFields(writes, req.CustomerId, entries, writeOptions(call, false));
        return withETag(call, result, result.fields);
      },
    }),
    ...definitionOperations(store, writes),
  ];
}
