import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { TSchema } from '@sinclair/typebox';
import { allOperations } from '../../src/operations.js';
import type { AnyOperation } from '../../src/wire/operation.js';
import { describeEachBackend, json, type TestApp } from '../helpers/test-app.js';
import { storeDigest } from '../helpers/store-snapshot.js';

// design.md: `Note` ≤ 1,000 characters, every other string field ≤ 255. Custom-field text values
// follow the longer limit (docs/customfields.md); webhook URLs may be as long as URLs usually are
// (2,048), webhook ids and event ids are at most 100 characters; a refund's Reason is free text like
// a Note (up to 1,000 characters, as its schema says).
const LONGER: Record<string, number> = { Note: 1000, Value: 1000, Reason: 1000, Id: 100, 'EventIds[0]': 100 };
const limitOf = (path: string): number => LONGER[path.replace(/^.*\./, '')] ?? 255;

/** Every string a request can carry, as a path: `FirstName`, `Identifiers[0]`, `Payment.Name`, `Values[0].Value`. */
function stringFields(schema: TSchema, prefix = ''): string[] {
  const props = (schema as { properties?: Record<string, TSchema> }).properties ?? {};
  const out: string[] = [];
  for (const [name, s] of Object.entries(props)) {
    const path = prefix + name;
    const variants = [s, ...((s.anyOf as TSchema[] | undefined) ?? [])];
    for (const v of variants) {
      if (v.type === 'string' || (v.type === undefined && v.anyOf === undefined)) out.push(path);
      else if (v.type === 'object') out.push(...stringFields(v, `${path}.`));
      else if (v.type === 'array' && (v.items as TSchema | undefined)?.type === 'string') out.push(`${path}[0]`);
      else if (v.type === 'array' && (v.items as TSchema | undefined)?.type === 'object')
        out.push(...stringFields(v.items as TSchema, `${path}[0].`));
    }
  }
  return [...new Set(out)];
}

function withValue(base: Record<string, unknown>, path: string, value: string): Record<string, unknown> {
  const copy = structuredClone(base);
  const parts = path.split(/\.|(?=\[)/);
  let target: Record<string, unknown> | unknown[] = copy;
  parts.forEach((part, i) => {
    const key: string | number = part.startsWith('[') ? Number(part.slice(1, -1)) : part;
    const last = i === parts.length - 1;
    const next = parts[i + 1];
    const holder = target as Record<string | number, unknown>;
    if (last) holder[key] = value;
    else {
      holder[key] ??= next?.startsWith('[') ? [] : {};
      target = holder[key] as Record<string, unknown>;
    }
  });
  return copy;
}

let serial = 0;
const unique = (p: string) => `${p}-${process.pid}-${++serial}`;

/** A registered webhook endpoint's Id (its URL's host does not resolve: accepted, never delivered to). */
async function webhook(t: TestApp): Promise<string> {
  const res = await t.inject({
    method: 'POST',
    url: '/webhooks',
    payload: { Url: 'https://erp.example.com/hooks/ordergate', Events: ['customer.erased'] },
  });
  assert.equal(res.statusCode, 201, res.body);
  return json<{ Id: string }>(res).Id;
}

/** A customer of its own, for a request that erases it. */
async function customer(t: TestApp): Promise<string> {
  const CustomerId = unique('limits-erase');
  assert.equal((await t.inject({ method: 'PUT', url: `/customer/${CustomerId}`, payload: { FirstName: 'x' } })).statusCode, 201);
  return CustomerId;
}

/** A confirmed order of its own, paid 1 by its confirmation's Payment; `withLine`: of one line, to ship. */
async function confirmedOrder(t: TestApp, withLine = false): Promise<number> {
  const request = await BASES.ConfirmOrder!(t);
  if (withLine) {
    const Lines = [{ Sku: 'S', Name: 'N', Quantity: 2, UnitPrice: 1, TaxRate: 19 }];
    const updated = await t.inject({ method: 'PUT', url: `/orders/${String(request.OrderId)}`, payload: { Lines } });
    assert.equal(updated.statusCode, 200, updated.body);
  }
  const res = await t.inject({ method: 'POST', url: `/orders/${String(request.OrderId)}/confirm`, payload: request });
  assert.equal(res.statusCode, 200, res.body);
  return request.OrderId as number;
}

/** A valid request of each operation that has string fields; a new operation must add one here. */
const BASES: Record<string, (t: TestApp) => Promise<Record<string, unknown>>> = {
  SearchCustomers: async () => ({ Identifiers: ['limits-c1'] }),
  UpsertCustomer: async () => ({ CustomerId: unique('limits'), FirstName: 'Ada' }),
  ConfirmOrder: async (t) => {
    const order = json<{ OrderId: number }>(await t.inject({ method: 'POST', url: '/orders', payload: {} }));
    return {
      OrderId: order.OrderId,
      CustomerFirstName: 'Ada',
      CustomerLastName: 'Lovelace',
      CustomerPostalCode: '10115',
      CustomerCity: 'Berlin',
      CustomerCountry: 'DE',
      CustomerStreet: 'Hauptstr.',
      CustomerEMail: 'ada@example.com',
      Payment: { Amount: 1, Name: 'Card' },
    };
  },
  CreateOrder: async () => ({}),
  UpdateOrder: async (t) => ({
    OrderId: json<{ OrderId: number }>(await t.inject({ method: 'POST', url: '/orders', payload: {} })).OrderId,
    Lines: [{ Sku: 'S', Name: 'N', Quantity: 1, UnitPrice: 1, TaxRate: 19 }],
    Shipping: { Name: 'DHL', Amount: 1, TaxRate: 19 },
  }),
  CreateOrderPayment: async (t) => ({
    OrderId: await confirmedOrder(t),
    Amount: 1,
    Type: 'PayPal',
    Name: 'Ada',
    ReferenceNumber: 'PP-1',
    Date: '2024-01-01',
  }),
  CreateOrderRefund: async (t) => ({
    OrderId: await confirmedOrder(t),
    Amount: 1,
    Reason: 'Damaged',
    ReferenceNumber: 'R-1',
    Date: '2024-01-01',
  }),
  CreateOrderShipment: async (t) => ({
    OrderId: await confirmedOrder(t, true),
    Carrier: 'DHL',
    TrackingNumber: '0034',
    TrackingUrl: 'https://t.example/0034',
    ShippedAt: '2024-01-01',
  }),
  CreateOrderReturn: async (t) => {
    const OrderId = await confirmedOrder(t, true);
    const shipped = await t.inject({ method: 'POST', url: `/orders/${OrderId}/shipments`, payload: {} });
    assert.equal(shipped.statusCode, 201, shipped.body);
    return { OrderId, Lines: [{ LineNumber: 1, Quantity: 1 }], Reason: 'Damaged', ReceivedAt: '2024-01-01' };
  },
  SearchOrders: async () => ({ OrderNumbers: ['limits-o1'], CustomerIds: ['limits-c1'], LastModifiedAfter: '2024-01-01' }),
  GetCustomerCustomFields: async () => ({ CustomerId: 'limits-c1' }),
  SetCustomerCustomField: async () => ({ CustomerId: 'limits-c1', Number: 9101, Value: 'v' }),
  PatchCustomerCustomFields: async () => ({ CustomerId: 'limits-c1', Values: [{ Number: 9101, Value: 'v' }] }),
  DefineCustomField: async () => ({ Number: 9200 + ++serial, Label: 'L', FieldType: 'Select', AllowedValues: ['a'] }),
  CreateWebhook: async () => ({ Url: 'https://erp.example.com/hooks/ordergate', Events: ['customer.erased'], Description: 'ERP' }),
  GetWebhook: async (t) => ({ Id: await webhook(t) }),
  UpdateWebhook: async (t) => ({ Id: await webhook(t), Url: 'https://erp.example.com/hooks/other', Description: 'ERP' }),
  DeleteWebhook: async (t) => ({ Id: await webhook(t) }),
  RotateWebhookSecret: async (t) => ({ Id: await webhook(t) }),
  TestWebhook: async (t) => ({ Id: await webhook(t) }),
  GetWebhookDeliveries: async (t) => ({ Id: await webhook(t), Take: 10 }),
  ReplayWebhook: async (t) => ({ Id: await webhook(t), EventIds: ['evt_00000000000000000000000000000000'] }),
  CreateKey: async () => ({ Name: 'limits-key', Permissions: ['all'] }),
  RevokeKey: async (t) => ({
    Id: json<{ Id: string }>(await t.inject({ method: 'POST', url: '/keys', payload: { Name: 'limits-revoked', Permissions: ['all'] } }))
      .Id,
  }),
  ExportCustomerData: async () => ({ CustomerId: 'limits-c1' }),
  EraseCustomer: async (t) => ({ CustomerId: await customer(t) }),
};

const send = (t: TestApp, op: AnyOperation, body: Record<string, unknown>) =>
  t.inject({ method: 'POST', url: `/api/${op.name}`, payload: body });

describeEachBackend('string length limits of every operation', (t) => {
  test('a string one over its limit is a 400 naming the field (Length when the limit itself is accepted), and changes nothing', async () => {
    assert.equal((await t().inject({ method: 'PUT', url: '/customer/limits-c1', payload: { FirstName: 'x' } })).statusCode, 201);
    assert.equal(
      (await t().inject({ method: 'PUT', url: '/customfields/9101', payload: { Label: 'T', FieldType: 'Text' } })).statusCode,
      201,
    );
    let checked = 0;
    let plain = 0;
    for (const op of allOperations(t().store, t().app.writes, t().config)) {
      const fields = stringFields(op.request);
      if (fields.length === 0) continue;
      const base = BASES[op.name];
      assert.ok(base, `${op.name} has string fields (${fields.join(', ')}): add a valid request to BASES`);
      for (const field of fields) {
        const limit = limitOf(field);
        const atLimit = await send(t(), op, withValue(await base(t()), field, 'x'.repeat(limit)));
        const body = withValue(await base(t()), field, 'x'.repeat(limit + 1));
        const before = await storeDigest(t().store);
        const over = await send(t(), op, body);
        const where = `${op.name}.${field} (${limit + 1} characters): ${over.statusCode} ${over.body.slice(0, 300)}`;
        assert.equal(await storeDigest(t().store), before, `${where}: the store changed`);
        checked++;
        assert.equal(over.statusCode, 400, where);
        const named = json(over).ResponseStatus.Errors.find(
          (e: { FieldName: string }) => e.FieldName.toLowerCase() === field.toLowerCase(),
        );
        assert.ok(named, `${where}: no error names the field`);
        if (atLimit.statusCode < 300) {
          plain++;
          assert.equal(named.ErrorCode, 'Length', where);
        }
      }
    }
    assert.ok(checked >= 60 && plain >= 40, `fields checked: ${checked}, plain text among them: ${plain}`);
  });
});
