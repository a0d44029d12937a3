import { Type } from '@sinclair/typebox';
import { routeRead } from '../store/read-replica.js';
import type { Store } from '../store/store.js';
import type { WriteDoor } from '../writes/write-door.js';
import { formatWireDate } from '../wire/dates.js';
import { minWatermarkOf } from '../wire/read-your-writes.js';
import { SYNC_CURSOR_HEADER, SYNC_WATERMARK_HEADER } from '../wire/sync-cursor.js';
import { StreamedArray, defineOperation, type AnyOperation } from '../wire/operation.js';
import { Customer, SearchCustomersRequest, UpsertCustomerRequest } from './customer.schemas.js';
import { toCustomer } from './customer.mapping.js';
import { putCustomer, searchCustomers } from './customer.service.js';

/** The customer operations: the spec's SearchCustomers and the operator's upsert. */
export function customerOperations(store: Store, writes: WriteDoor): AnyOperation[] {
  return [
    defineOperation({
      name: 'SearchCustomers',
      tag: 'Customers',
      summary: 'Search customers by identifier or modification date; doubles as an incremental sync feed.',
      description:
        'Identifiers match CustomerId or ExternalId exactly (union). LastModifiedAfter is strict. Both filters combine with AND; ' +
        'neither returns every customer. Ordered by modification time, then CustomerId. The whole result is streamed unless Take/Skip page it. ' +
        'The X-Sync-Watermark response header is the LastModifiedAfter of the next sync. A page cut by Take carries X-Sync-Cursor: ' +
        'pass it as Cursor to continue right after the page.',
      routes: [
        { method: 'GET', path: '/customer/' },
        { method: 'POST', path: '/customer/' },
      ],
      example: { Take: 100 },
      permission: 'all',
      request: SearchCustomersRequest,
      response: Type.Array(Customer),
      async handle(req, call) {
        const result = await routeRead(store, minWatermarkOf(call, 'SearchCustomers'), (s) => searchCustomers(s, req));
        call.setHeader(SYNC_WATERMARK_HEADER, formatWireDate(result.watermark, call.dateStyle));
        if (result.cursor) call.setHeader(SYNC_CURSOR_HEADER, result.cursor);
        const customers = result.customers;
        return Array.isArray(customers) ? customers : new StreamedArray(() => customers, toCustomer);
      },
    }),
    defineOperation({
      name: 'UpsertCustomer',
      tag: 'Operator',
      summary: 'Create (201) or replace (200) a customer (operator).',
      routes: [{ method: 'PUT', path: '/customer/{CustomerId}' }],
      example: { CustomerId: 'C17', FirstName: 'Anna', LastName: 'Müller', ExternalId: 'ERP-17' },
      permission: 'admin',
      request: UpsertCustomerRequest,
      response: Customer,
      writeWatermark: true,
      otherSuccess: { 201: 'Created: no customer had this CustomerId.' },
      async handle(req, call) {
        const { customer, created } = await putCustomer(writes, req);
        if (created) call.setStatus(201);
        return customer;
      },
    }),
  ];
}
