import assert from 'node:assert/strict';
import type { IReturn, JsonServiceClient } from '@servicestack/client';

type Init = Record<string, unknown>;
type Row = Record<string, unknown>;
export interface Valid {
  readonly init: Init;
  readonly facts?: Row;
}

/** What a scenario may use: an admin client for setup and a DTO factory (hand-written or generated). */
export interface ScenarioContext {
  readonly admin: JsonServiceClient;
  /** A request DTO instance of the named operation. */
  dto(name: string, init?: Init): IReturn<unknown>;
  unique(prefix: string): string;
  /** A custom-field number not used before in this process. */
  fieldNumber(): number;
}

/** One operation, exercised through a client: a request that succeeds and one that fails validation. */
export interface Scenario {
  /** Prepares data (through the admin client) and returns a request that succeeds (and facts for the check). */
  valid(ctx: ScenarioContext): Promise<Valid>;
  /** Asserts the response of that request (what the client resolved with). */
  check(response: unknown, init: Init, facts: Row): void;
  /** A request refused with 400 and the field error it names; absent only for operations without input. */
  invalid?: (ctx: ScenarioContext) => Promise<{ init: Init; field: string; code: string }>;
}

const REQUIRED_CONFIRMATION: Init = {
  CustomerFirstName: 'Jane',
  CustomerLastName: 'Doe',
  CustomerPostalCode: '50667',
  CustomerCity: 'Köln',
  CustomerCountry: 'DE',
  CustomerStreet: 'Domkloster',
  CustomerEMail: 'jane@example.com',
};

async function newCustomer(ctx: ScenarioContext): Promise<string> {
  const id = ctx.unique('cust');
  await ctx.admin.send(ctx.dto('UpsertCustomer', { CustomerId: id, FirstName: 'Ann' }));
  return id;
}

async function newOrder(ctx: ScenarioContext): Promise<number> {
  const created = (await ctx.admin.send(ctx.dto('CreateOrder', { OrderNumber: ctx.unique('ORD') }))) as Row;
  return created.OrderId as number;
}

/** A confirmed order, to record payments and refunds of. */
async function confirmedOrder(ctx: ScenarioContext): Promise<number> {
  const OrderId = await newOrder(ctx);
  await ctx.admin.send(ctx.dto('ConfirmOrder', { OrderId, ...REQUIRED_CONFIRMATION, ExternalCustomerId: ctx.unique('ext') }));
  return OrderId;
}

/** A confirmed order of two lines (3 and 1 units), to ship and take back. */
async function confirmedOrderWithLines(ctx: ScenarioContext): Promise<number> {
  const line = (Sku: string, Quantity: number) => ({ Sku, Name: Sku, Quantity, UnitPrice: 10, TaxRate: 19 });
  const created = (await ctx.admin.send(
    ctx.dto('CreateOrder', { OrderNumber: ctx.unique('ORD'), Lines: [line('A', 3), line('B', 1)] }),
  )) as Row;
  const OrderId = created.OrderId as number;
  await ctx.admin.send(ctx.dto('ConfirmOrder', { OrderId, ...REQUIRED_CONFIRMATION, ExternalCustomerId: ctx.unique('ext') }));
  return OrderId;
}

async function newField(ctx: ScenarioContext, FieldType: string): Promise<number> {
  const n = ctx.fieldNumber();
  await ctx.admin.send(ctx.dto('DefineCustomField', { Number: n, Label: `Field ${n}`, FieldType }));
  return n;
}

/**
 * A registered webhook endpoint. Its URL is accepted (the host does not resolve) and it takes only
 * `customer.erased`, so it gets no deliveries beyond the ones a scenario replays to it: the
 * EraseCustomer scenario removes these endpoints before it erases (removeScenarioWebhooks).
 */
async function newWebhook(ctx: ScenarioContext): Promise<Row> {
  return (await ctx.admin.send(
    ctx.dto('CreateWebhook', { Url: WEBHOOK_URL, Events: ['customer.erased'], Description: ctx.unique('hook') }),
  )) as Row;
}

/**
 * Removes the endpoints the webhook scenarios registered. Each erasure would otherwise queue a
 * delivery to every one of them, and each attempt at a host that does not resolve is a DNS lookup:
 * a few erasures among many such endpoints are a burst of lookups that slows the whole server down.
 */
async function removeScenarioWebhooks(ctx: ScenarioContext): Promise<void> {
  for (const endpoint of (await ctx.admin.send(ctx.dto('ListWebhooks'))) as Row[]) {
    if (endpoint.Url === WEBHOOK_URL) await ctx.admin.send(ctx.dto('DeleteWebhook', { Id: endpoint.Id }));
  }
}

/** A new API key with `all` only (revoking it never touches the key the scenarios run with). */
async function newKey(ctx: ScenarioContext): Promise<Row> {
  return (await ctx.admin.send(ctx.dto('CreateKey', { Name: ctx.unique('key'), Permissions: ['all'] }))) as Row;
}

/** The newest event of the feed (after a change made for it). */
async function newestEvent(ctx: ScenarioContext): Promise<Row> {
  await newCustomer(ctx);
  let last: Row | undefined;
  for (;;) {
    const page = (await ctx.admin.send(
      ctx.dto('GetEvents', { After: (last?.Sequence as number | undefined) ?? 0, Take: 10_000 }),
    )) as Row[];
    if (page.length === 0) return last!;
    last = page.at(-1)!;
  }
}

const WIRE_DATE = /^\/Date\(\d+-0000\)\/$/;
const WEBHOOK_URL = 'https://erp.example.com/hooks/ordergate';
const ENDPOINT_FIELDS = ['Id', 'Url', 'Events', 'Description', 'Enabled', 'DisabledReason', 'CreatedAt'];
const KEY_FIELDS = ['Id', 'Name', 'Permissions', 'CreatedAt', 'RevokedAt', 'LastUsedAt'];

/** Every operation of the table needs an entry here; the client suites fail for one that lacks it. */
export const SCENARIOS: Record<string, Scenario> = {
  SearchCustomers: {
    valid: async (ctx) => ({ init: { Identifiers: [await newCustomer(ctx)] } }),
    check: (res, init) => {
      const rows = res as Row[];
      assert.equal(rows.length, 1);
      assert.equal(rows[0]!.CustomerId, (init.Identifiers as string[])[0]);
      assert.equal(Object.keys(rows[0]!).length, 14);
    },
    invalid: async () => ({ init: { Take: -1 }, field: 'Take', code: 'GreaterThanOrEqual' }),
  },
  UpsertCustomer: {
    valid: async (ctx) => ({ init: { CustomerId: ctx.unique('up'), FirstName: 'Ann', City: 'Köln' } }),
    check: (res, init) => {
      assert.equal((res as Row).CustomerId, init.CustomerId);
      assert.equal((res as Row).City, 'Köln');
      assert.equal((res as Row).LastName, null);
    },
    invalid: async (ctx) => ({ init: { CustomerId: ctx.unique('up'), Street: 'x'.repeat(256) }, field: 'Street', code: 'Length' }),
  },
  ConfirmOrder: {
    valid: async (ctx) => ({
      init: {
        OrderId: await newOrder(ctx),
        ...REQUIRED_CONFIRMATION,
        ExternalCustomerId: ctx.unique('ext'),
        DeliveryDate: '/Date(1700000000000)/',
        Payment: { Amount: 12.5, Name: 'PayPal payment', Type: 'PayPal' },
      },
    }),
    check: (res, init) => {
      const r = res as Row;
      assert.equal(r.OrderId, init.OrderId);
      assert.equal(r.Status, 'Confirmed');
      assert.equal(typeof r.CustomerId, 'string');
      assert.match(r.ConfirmedAt as string, WIRE_DATE);
    },
    invalid: async (ctx) => ({
      init: { OrderId: await newOrder(ctx), ...REQUIRED_CONFIRMATION, CustomerEMail: 'not-an-email' },
      field: 'CustomerEMail',
      code: 'Email',
    }),
  },
  CreateOrder: {
    valid: async (ctx) => ({ init: { OrderNumber: ctx.unique('ORD'), Note: 'from a client test' } }),
    check: (res, init) => {
      assert.equal((res as Row).OrderNumber, init.OrderNumber);
      assert.equal((res as Row).Status, 'Open');
      assert.ok(((res as Row).OrderId as number) > 0);
    },
    invalid: async () => ({ init: { Note: 'x'.repeat(1001) }, field: 'Note', code: 'Length' }),
  },
  GetOrder: {
    valid: async (ctx) => ({ init: { OrderId: await newOrder(ctx) } }),
    check: (res, init) => {
      assert.equal((res as Row).OrderId, init.OrderId);
      assert.equal((res as Row).Status, 'Open');
      assert.match((res as Row).CreatedAt as string, WIRE_DATE);
      assert.equal((res as Row).Confirmation, null);
    },
    invalid: async () => ({ init: { OrderId: 0 }, field: 'OrderId', code: 'GreaterThan' }),
  },
  SearchOrders: {
    valid: async (ctx) => ({ init: { OrderIds: [await newOrder(ctx)], Statuses: ['Open'] } }),
    check: (res, init) => {
      const rows = res as Row[];
      assert.equal(rows.length, 1);
      assert.equal(rows[0]!.OrderId, (init.OrderIds as number[])[0]);
      assert.match(rows[0]!.LastModified as string, WIRE_DATE);
    },
    invalid: async () => ({ init: { Statuses: ['Shipped'] }, field: 'Statuses[0]', code: 'Enum' }),
  },
  UpdateOrder: {
    valid: async (ctx) => ({
      init: {
        OrderId: await newOrder(ctx),
        Currency: 'EUR',
        Lines: [{ Sku: 'PEN', Name: 'Pen', Quantity: 3, UnitPrice: 0.1, TaxRate: 19 }],
        Shipping: { Amount: 4.9, TaxRate: 19 },
      },
    }),
    check: (res, init) => {
      assert.equal((res as Row).OrderId, init.OrderId);
      assert.equal((res as Row).Currency, 'EUR');
      assert.deepEqual((res as Row).Totals, {
        Net: 5.2,
        Tax: 0.99,
        Gross: 6.19,
        Discount: 0,
        TaxBreakdown: [{ TaxRate: 19, Net: 5.2, Tax: 0.99 }],
      });
    },
    invalid: async (ctx) => ({
      init: { OrderId: await newOrder(ctx), Lines: [{ Sku: 'PEN', Name: 'Pen', Quantity: 1, UnitPrice: 0.105, TaxRate: 19 }] },
      field: 'Lines[0].UnitPrice',
      code: 'ScalePrecision',
    }),
  },
  CancelOrder: {
    valid: async (ctx) => ({ init: { OrderId: await newOrder(ctx) } }),
    check: (res, init) => {
      assert.equal((res as Row).OrderId, init.OrderId);
      assert.equal((res as Row).Status, 'Cancelled');
      assert.match((res as Row).CancelledAt as string, WIRE_DATE);
    },
    invalid: async () => ({ init: { OrderId: -5 }, field: 'OrderId', code: 'GreaterThan' }),
  },
  CreateOrderPayment: {
    valid: async (ctx) => ({ init: { OrderId: await confirmedOrder(ctx), Amount: 12.5, Type: 'PayPal', ReferenceNumber: 'PP-1' } }),
    check: (res, init) => {
      const r = res as Row;
      assert.equal(typeof r.PaymentId, 'number');
      assert.equal(r.OrderId, init.OrderId);
      assert.equal(r.Amount, 12.5);
      assert.equal(r.Name, null);
      assert.match(r.Date as string, WIRE_DATE);
    },
    invalid: async (ctx) => ({ init: { OrderId: await confirmedOrder(ctx), Amount: 0 }, field: 'Amount', code: 'GreaterThan' }),
  },
  CreateOrderRefund: {
    valid: async (ctx) => {
      const OrderId = await confirmedOrder(ctx);
      await ctx.admin.send(ctx.dto('CreateOrderPayment', { OrderId, Amount: 20 }));
      return { init: { OrderId, Amount: 7.5, Reason: 'Damaged' } };
    },
    check: (res, init) => {
      const r = res as Row;
      assert.equal(typeof r.RefundId, 'number');
      assert.equal(r.OrderId, init.OrderId);
      assert.equal(r.Amount, 7.5);
      assert.equal(r.Reason, 'Damaged');
    },
    invalid: async (ctx) => ({ init: { OrderId: await confirmedOrder(ctx), Amount: 1 }, field: 'Amount', code: 'LessThanOrEqual' }),
  },
  CreateOrderShipment: {
    valid: async (ctx) => ({
      init: {
        OrderId: await confirmedOrderWithLines(ctx),
        Lines: [{ LineNumber: 1, Quantity: 2 }],
        Carrier: 'DHL',
        TrackingUrl: 'https://t.example/1',
      },
    }),
    check: (res, init) => {
      const r = res as Row;
      assert.equal(typeof r.ShipmentId, 'number');
      assert.equal(r.OrderId, init.OrderId);
      assert.deepEqual(r.Lines, [{ LineNumber: 1, Quantity: 2 }]);
      assert.equal(r.Carrier, 'DHL');
      assert.equal(r.TrackingNumber, null);
      assert.match(r.ShippedAt as string, WIRE_DATE);
    },
    invalid: async (ctx) => ({
      init: { OrderId: await confirmedOrderWithLines(ctx), Lines: [{ LineNumber: 1, Quantity: 4 }] },
      field: 'Lines[0].Quantity',
      code: 'LessThanOrEqual',
    }),
  },
  CreateOrderReturn: {
    valid: async (ctx) => {
      const OrderId = await confirmedOrderWithLines(ctx);
      await ctx.admin.send(ctx.dto('CreateOrderShipment', { OrderId }));
      return { init: { OrderId, Lines: [{ LineNumber: 2, Quantity: 1 }], Reason: 'Wrong size' } };
    },
    check: (res, init) => {
      const r = res as Row;
      assert.equal(typeof r.ReturnId, 'number');
      assert.equal(r.OrderId, init.OrderId);
      assert.deepEqual(r.Lines, [{ LineNumber: 2, Quantity: 1 }]);
      assert.equal(r.Reason, 'Wrong size');
    },
    invalid: async (ctx) => ({
      init: { OrderId: await confirmedOrderWithLines(ctx), Lines: [{ LineNumber: 1, Quantity: 1 }] },
      field: 'Lines[0].Quantity',
      code: 'LessThanOrEqual',
    }),
  },
  GetCustomerCustomFields: {
    valid: async (ctx) => {
      const CustomerId = await newCustomer(ctx);
      const n = await newField(ctx, 'Text');
      await ctx.admin.send(ctx.dto('SetCustomerCustomField', { CustomerId, Number: n, Value: 'blue' }));
      return { init: { CustomerId, CustomFieldNumbers: [n] } };
    },
    check: (res, init) => {
      const rows = res as Row[];
      assert.equal(rows.length, 1);
      assert.equal(rows[0]!.Number, (init.CustomFieldNumbers as number[])[0]);
      assert.equal(rows[0]!.Value, 'blue');
      assert.equal(rows[0]!.FieldType, 'Text');
    },
    invalid: async () => ({ init: { CustomerId: '' }, field: 'CustomerId', code: 'NotEmpty' }),
  },
  SetCustomerCustomField: {
    valid: async (ctx) => ({ init: { CustomerId: await newCustomer(ctx), Number: await newField(ctx, 'Number'), Value: 42 } }),
    check: (res, init) => {
      assert.equal((res as Row).Number, init.Number);
      assert.equal((res as Row).Value, 42);
    },
    invalid: async (ctx) => ({
      init: { CustomerId: await newCustomer(ctx), Number: await newField(ctx, 'Number'), Value: 'forty-two' },
      field: 'Value',
      code: 'TypeMismatch',
    }),
  },
  PatchCustomerCustomFields: {
    valid: async (ctx) => {
      const n = await newField(ctx, 'Boolean');
      return { init: { CustomerId: await newCustomer(ctx), Values: [{ Number: n, Value: true }] } };
    },
    check: (res, init) => {
      const n = (init.Values as Row[])[0]!.Number;
      const row = (res as Row[]).find((r) => r.Number === n);
      assert.equal(row?.Value, true);
    },
    invalid: async (ctx) => ({
      init: { CustomerId: await newCustomer(ctx), Values: [{ Number: await newField(ctx, 'Boolean'), Value: 'perhaps' }] },
      field: 'Values[0].Value',
      code: 'TypeMismatch',
    }),
  },
  GetCustomFieldDefinitions: {
    valid: async (ctx) => ({ init: {}, facts: { defined: await newField(ctx, 'Date') } }),
    check: (res, _init, facts) => {
      const row = (res as Row[]).find((r) => r.Number === facts.defined);
      assert.equal(row?.FieldType, 'Date');
    },
  },
  DefineCustomField: {
    valid: async (ctx) => ({ init: { Number: ctx.fieldNumber(), Label: 'Colour', FieldType: 'Select', AllowedValues: ['red', 'blue'] } }),
    check: (res, init) => {
      assert.equal((res as Row).Number, init.Number);
      assert.deepEqual((res as Row).AllowedValues, ['red', 'blue']);
    },
    invalid: async (ctx) => ({
      init: { Number: ctx.fieldNumber(), Label: 'Colour', FieldType: 'Colourful' },
      field: 'FieldType',
      code: 'Enum',
    }),
  },
  GetAuditLog: {
    valid: async () => ({ init: { After: 0, Take: 10 } }),
    check: (res) => {
      assert.ok(Array.isArray(res));
      for (const e of res as Row[]) assert.deepEqual(Object.keys(e), ['Sequence', 'At', 'KeyId', 'Action', 'ResourceType', 'ResourceIds']);
    },
    invalid: async () => ({ init: { Take: 10001 }, field: 'Take', code: 'InclusiveBetween' }),
  },
  DeleteCustomField: {
    valid: async (ctx) => ({ init: { Number: await newField(ctx, 'Text') } }),
    check: (res) => assert.ok(res === undefined || res === null || res === '', `a void operation resolved with ${JSON.stringify(res)}`),
    invalid: async () => ({ init: { Number: 'first' }, field: 'Number', code: 'SerializationException' }),
  },
  GetEvents: {
    valid: async (ctx) => {
      const before = (await newestEvent(ctx)).Sequence as number;
      const CustomerId = await newCustomer(ctx);
      return { init: { After: before, Types: ['customer.created'], Take: 100 }, facts: { CustomerId } };
    },
    check: (res, init, facts) => {
      const rows = res as Row[];
      assert.ok(rows.length >= 1);
      for (const e of rows) {
        assert.deepEqual(Object.keys(e), ['Id', 'Type', 'Sequence', 'OccurredAt', 'Data']);
        assert.equal(e.Type, 'customer.created');
        assert.ok((e.Sequence as number) > (init.After as number));
        assert.match(e.Id as string, /^evt_/);
        assert.match(e.OccurredAt as string, WIRE_DATE);
      }
      assert.ok(
        rows.some((e) => (e.Data as Row).CustomerId === facts.CustomerId),
        'the new customer is in the feed',
      );
    },
    invalid: async () => ({ init: { Take: 10001 }, field: 'Take', code: 'InclusiveBetween' }),
  },
  CreateWebhook: {
    valid: async (ctx) => ({ init: { Url: WEBHOOK_URL, Events: ['customer.erased'], Description: ctx.unique('hook') } }),
    check: (res, init) => {
      const r = res as Row;
      assert.deepEqual(Object.keys(r), [...ENDPOINT_FIELDS, 'Secret']);
      assert.match(r.Id as string, /^wh_/);
      assert.match(r.Secret as string, /^whsec_/);
      assert.equal(r.Url, init.Url);
      assert.deepEqual(r.Events, init.Events);
      assert.equal(r.Description, init.Description);
      assert.equal(r.Enabled, true);
      assert.equal(r.DisabledReason, null);
      assert.match(r.CreatedAt as string, WIRE_DATE);
    },
    invalid: async () => ({ init: { Url: WEBHOOK_URL, Description: 'x'.repeat(256) }, field: 'Description', code: 'Length' }),
  },
  ListWebhooks: {
    valid: async (ctx) => ({ init: {}, facts: { Id: (await newWebhook(ctx)).Id } }),
    check: (res, _init, facts) => {
      const rows = res as Row[];
      const row = rows.find((r) => r.Id === facts.Id);
      assert.ok(row, 'the new endpoint is listed');
      for (const r of rows) assert.deepEqual(Object.keys(r), ENDPOINT_FIELDS, 'no Secret in the list');
    },
  },
  GetWebhook: {
    valid: async (ctx) => ({ init: { Id: (await newWebhook(ctx)).Id } }),
    check: (res, init) => {
      assert.deepEqual(Object.keys(res as Row), ENDPOINT_FIELDS);
      assert.equal((res as Row).Id, init.Id);
      assert.equal((res as Row).Url, WEBHOOK_URL);
      assert.deepEqual((res as Row).Events, ['customer.erased']);
    },
    invalid: async () => ({ init: { Id: '' }, field: 'Id', code: 'NotEmpty' }),
  },
  UpdateWebhook: {
    valid: async (ctx) => ({ init: { Id: (await newWebhook(ctx)).Id, Description: 'paused', Enabled: false } }),
    check: (res, init) => {
      const r = res as Row;
      assert.equal(r.Id, init.Id);
      assert.equal(r.Description, 'paused');
      assert.equal(r.Enabled, false);
      assert.equal(r.DisabledReason, 'Disabled');
    },
    invalid: async (ctx) => ({ init: { Id: (await newWebhook(ctx)).Id, Events: ['order.shipped'] }, field: 'Events[0]', code: 'Enum' }),
  },
  DeleteWebhook: {
    valid: async (ctx) => ({ init: { Id: (await newWebhook(ctx)).Id } }),
    check: (res) => assert.ok(res === undefined || res === null || res === '', `a void operation resolved with ${JSON.stringify(res)}`),
    invalid: async () => ({ init: { Id: 'x'.repeat(101) }, field: 'Id', code: 'Length' }),
  },
  RotateWebhookSecret: {
    valid: async (ctx) => {
      const created = await newWebhook(ctx);
      return { init: { Id: created.Id }, facts: { Secret: created.Secret } };
    },
    check: (res, init, facts) => {
      const r = res as Row;
      assert.equal(r.Id, init.Id);
      assert.match(r.Secret as string, /^whsec_/);
      assert.notEqual(r.Secret, facts.Secret, 'a new secret');
    },
    invalid: async () => ({ init: { Id: 'x'.repeat(101) }, field: 'Id', code: 'Length' }),
  },
  GetWebhookDeliveries: {
    valid: async (ctx) => {
      const { Id } = await newWebhook(ctx);
      const event = await newestEvent(ctx);
      await ctx.admin.send(ctx.dto('ReplayWebhook', { Id, EventIds: [event.Id] }));
      return { init: { Id, Take: 10 }, facts: { EventId: event.Id } };
    },
    check: (res, _init, facts) => {
      const rows = res as Row[];
      assert.ok(rows.length >= 1 && rows.length <= 10);
      for (const d of rows) {
        assert.deepEqual(Object.keys(d), ['EventId', 'Attempt', 'Status', 'ResponseCode', 'DurationMs', 'At', 'NextAttemptAt', 'Error']);
        assert.equal(d.EventId, facts.EventId, 'only the replayed event');
        assert.ok((d.Attempt as number) >= 1);
        assert.ok(['Pending', 'Failed'].includes(d.Status as string), `status ${String(d.Status)}`);
      }
    },
    invalid: async () => ({ init: { Id: 'wh_none', Take: 1001 }, field: 'Take', code: 'InclusiveBetween' }),
  },
  TestWebhook: {
    valid: async (ctx) => ({ init: { Id: (await newWebhook(ctx)).Id } }),
    check: (res) => {
      const r = res as Row;
      assert.deepEqual(Object.keys(r), ['EventId', 'Attempt', 'Status', 'ResponseCode', 'DurationMs', 'At', 'NextAttemptAt', 'Error']);
      assert.match(r.EventId as string, /^evt_/);
      // The scenarios' endpoint names a host that does not resolve: the attempt fails, with its reason.
      assert.deepEqual([r.Attempt, r.Status, r.ResponseCode, r.NextAttemptAt], [1, 'Failed', null, null]);
      assert.equal(typeof r.Error, 'string');
    },
    invalid: async () => ({ init: { Id: 'x'.repeat(101) }, field: 'Id', code: 'Length' }),
  },
  ReplayWebhook: {
    valid: async (ctx) => {
      const { Id } = await newWebhook(ctx);
      return { init: { Id, EventIds: [(await newestEvent(ctx)).Id] } };
    },
    check: (res, init) => {
      assert.equal((res as Row).Id, init.Id);
      assert.equal((res as Row).Queued, 1);
    },
    invalid: async () => ({ init: { Id: 'wh_none', After: -1 }, field: 'After', code: 'GreaterThanOrEqual' }),
  },
  ExportCustomerData: {
    valid: async (ctx) => {
      const CustomerId = await newCustomer(ctx);
      const n = await newField(ctx, 'Text');
      await ctx.admin.send(ctx.dto('SetCustomerCustomField', { CustomerId, Number: n, Value: 'blue' }));
      const OrderId = await newOrder(ctx);
      await ctx.admin.send(
        ctx.dto('ConfirmOrder', { OrderId, CustomerId, ...REQUIRED_CONFIRMATION, CustomerIban: 'DE89370400440532013000' }),
      );
      return { init: { CustomerId }, facts: { Number: n, OrderId } };
    },
    check: (res, init, facts) => {
      const r = res as Row;
      assert.deepEqual(Object.keys(r), ['Customer', 'CustomFields', 'Orders', 'Events']);
      assert.equal((r.Customer as Row).CustomerId, init.CustomerId);
      assert.equal((r.CustomFields as Row[]).find((f) => f.Number === facts.Number)?.Value, 'blue');
      const [order, ...others] = r.Orders as Row[];
      assert.equal(others.length, 0, "only the customer's own order");
      assert.equal(order?.OrderId, facts.OrderId);
      assert.equal(order?.Status, 'Confirmed');
      assert.equal((order?.Confirmation as Row).CustomerIban, 'DE89********3000', 'bank data masked without the permission bank');
      const events = r.Events as Row[];
      assert.ok(
        events.some((e) => e.Type === 'customer.created'),
        "the customer's events",
      );
      for (const e of events) assert.match(e.Id as string, /^evt_/);
    },
    invalid: async () => ({ init: { CustomerId: 'x'.repeat(256) }, field: 'CustomerId', code: 'Length' }),
  },
  EraseCustomer: {
    // A customer of its own: erasing is for good.
    valid: async (ctx) => {
      await removeScenarioWebhooks(ctx);
      const CustomerId = await newCustomer(ctx);
      await ctx.admin.send(ctx.dto('SetCustomerCustomField', { CustomerId, Number: await newField(ctx, 'Text'), Value: 'personal' }));
      return { init: { CustomerId } };
    },
    check: (res, init) => {
      assert.deepEqual(Object.keys(res as Row), ['CustomerId', 'ErasedAt']);
      assert.equal((res as Row).CustomerId, init.CustomerId);
      assert.match((res as Row).ErasedAt as string, WIRE_DATE);
    },
    invalid: async () => ({ init: { CustomerId: '' }, field: 'CustomerId', code: 'NotEmpty' }),
  },
  GetCurrentKey: {
    // The admin client's own key: the bootstrap-like key of the test server, with `all` and `admin`.
    valid: async () => ({ init: {} }),
    check: (res) => {
      const r = res as Row;
      assert.deepEqual(Object.keys(r), ['Id', 'Name', 'Permissions', 'CreatedAt', 'LastUsedAt']);
      assert.match(r.Id as string, /^og_/);
      assert.ok((r.Permissions as string[]).includes('admin'), 'the calling key is the admin client’s');
      assert.match(r.CreatedAt as string, WIRE_DATE);
    },
  },
  ListKeys: {
    valid: async (ctx) => ({ init: {}, facts: { Id: (await newKey(ctx)).Id } }),
    check: (res, _init, facts) => {
      const rows = res as Row[];
      assert.ok(
        rows.some((r) => r.Id === facts.Id),
        'the new key is listed',
      );
      for (const r of rows) assert.deepEqual(Object.keys(r), KEY_FIELDS, 'no Key in the list');
    },
  },
  CreateKey: {
    valid: async (ctx) => ({ init: { Name: ctx.unique('key'), Permissions: ['all'] } }),
    check: (res, init) => {
      const r = res as Row;
      assert.deepEqual(Object.keys(r), [...KEY_FIELDS, 'Key']);
      assert.match(r.Key as string, /^og_/);
      assert.equal(r.Id, (r.Key as string).slice(0, 12));
      assert.equal(r.Name, init.Name);
      assert.deepEqual(r.Permissions, ['all']);
      assert.match(r.CreatedAt as string, WIRE_DATE);
      assert.equal(r.RevokedAt, null);
    },
    invalid: async () => ({ init: { Name: 'x', Permissions: [] }, field: 'Permissions', code: 'NotEmpty' }),
  },
  RevokeKey: {
    valid: async (ctx) => ({ init: { Id: (await newKey(ctx)).Id } }),
    check: (res, init) => {
      assert.deepEqual(Object.keys(res as Row), KEY_FIELDS);
      assert.equal((res as Row).Id, init.Id);
      assert.match((res as Row).RevokedAt as string, WIRE_DATE);
    },
    invalid: async () => ({ init: { Id: '' }, field: 'Id', code: 'NotEmpty' }),
  },
};
