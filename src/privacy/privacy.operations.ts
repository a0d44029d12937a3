import { Type } from '@sinclair/typebox';
import { Customer } from '../customers/index.js';
import { CustomField } from '../customfields/index.js';
import { EventSchema } from '../events/index.js';
import { auditBankRead, bankDataFor, OrderFeedItem } from '../orders/index.js';
import type { Store } from '../store/store.js';
import { NAME_LENGTH } from '../wire/request-schema.js';
import { defineOperation, type AnyOperation } from '../wire/operation.js';
import { WireDate } from '../wire/schema-types.js';
import { wireDate } from '../wire/serializer.js';
import type { WriteDoor } from '../writes/unit.js';
import { eraseCustomer, exportCustomerData } from './privacy.service.js';

const CustomerPath = (name: string) =>
  Type.Object(
    { CustomerId: Type.String({ minLength: 1, maxLength: NAME_LENGTH, description: 'Id of the customer (path).' }) },
    { $id: name },
  );

export const CustomerDataExport = Type.Object(
  {
    Customer,
    CustomFields: Type.Array(CustomField),
    Orders: Type.Array(OrderFeedItem, { description: 'Bank data in full only for a key with the permission bank.' }),
    Events: Type.Array(EventSchema),
  },
  { $id: 'CustomerDataExport' },
);

export const EraseCustomerResponse = Type.Object({ CustomerId: Type.String(), ErasedAt: WireDate() }, { $id: 'EraseCustomerResponse' });

const NOT_FOUND = 'No customer with this CustomerId.';

/** A customer's data, exported and erased (operator; GDPR Art. 15, 17, 20). */
export function privacyOperations(store: Store, writes: WriteDoor): AnyOperation[] {
  return [
    defineOperation({
      name: 'ExportCustomerData',
      tag: 'Privacy',
      summary: 'Everything held about a customer: the customer, its custom fields, orders and events (operator).',
      description:
        'Bank data in full only with the permission bank. Each export is in the audit log (customer.export; bank.read for unmasked bank data).',
      routes: [{ method: 'GET', path: '/customer/{CustomerId}/export' }],
      permission: 'admin',
      request: CustomerPath('ExportCustomerData'),
      response: CustomerDataExport,
      example: { CustomerId: 'C00000001' },
      notFound: NOT_FOUND,
      handle: (req, call) => {
        const bank = bankDataFor(call.key);
        return exportCustomerData(store, writes, req.CustomerId, {
          keyId: call.key.id,
          bank,
          auditBankRead: (orders) => auditBankRead(writes, call.key.id, bank, orders),
        });
      },
    }),
    defineOperation({
      name: 'EraseCustomer',
      tag: 'Privacy',
      summary: "Erase a customer's personal data (operator); accounting fields stay. Erasing again answers the same.",
      description:
        "In one transaction: the customer's fields but CustomerId become null, its custom-field values are deleted, its orders' confirmations " +
        'and its events lose every personal field; amounts, dates, methods and numbers stay. Feeds show the change, and customer.erased is emitted.',
      routes: [{ method: 'POST', path: '/customer/{CustomerId}/erase' }],
      permission: 'admin',
      request: CustomerPath('EraseCustomer'),
      response: EraseCustomerResponse,
      example: { CustomerId: 'C00000001' },
      notFound: NOT_FOUND,
      writeWatermark: true,
      handle: async (req, call) => {
        const a = await eraseCustomer(store, writes, req.CustomerId, call.key.id, (message) => call.log.warn(message));
        return { CustomerId: a.CustomerId, ErasedAt: wireDate(a.ErasedAt)! };
      },
    }),
  ];
}
