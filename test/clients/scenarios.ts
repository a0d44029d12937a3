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

async function newField(ctx: ScenarioContext, FieldType: string): Promise<number> {
  const n = ctx.fieldNumber();
  await ctx.admin.send(ctx.dto('DefineCustomField', { Number: n, Label: `Field ${n}`, FieldType }));
  return n;
}

const WIRE_DATE = /^\/Date\(\d+-0000\)\/$/;

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
    invalid: async (ctx) => ({ init: { OrderId: await newOrder(ctx), ...REQUIRED_CONFIRMATION, CustomerEMail: 'not-an-email' }, field: 'CustomerEMail', code: 'Email' }),
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
  CancelOrder: {
    valid: async (ctx) => ({ init: { OrderId: await newOrder(ctx) } }),
    check: (res, init) => {
      assert.equal((res as Row).OrderId, init.OrderId);
      assert.equal((res as Row).Status, 'Cancelled');
      assert.match((res as Row).CancelledAt as string, WIRE_DATE);
    },
    invalid: async () => ({ init: { OrderId: -5 }, field: 'OrderId', code: 'GreaterThan' }),
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
    invalid: async (ctx) => ({ init: { CustomerId: await newCustomer(ctx), Number: await newField(ctx, 'Number'), Value: 'forty-two' }, field: 'Value', code: 'TypeMismatch' }),
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
    invalid: async (ctx) => ({ init: { Number: ctx.fieldNumber(), Label: 'Colour', FieldType: 'Colourful' }, field: 'FieldType', code: 'Enum' }),
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
};
