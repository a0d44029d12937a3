import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { toDate, toDateTime, type IReturn } from '@servicestack/client';
import { allBackends, leftOut } from '../helpers/test-store.js';
import { makeClient, startServer, type RunningServer } from './client-server.js';
import {
  CancelOrder,
  ConfirmOrder,
  CreateOrder,
  DefineCustomField,
  GetCustomerCustomFields,
  GetOrder,
  OrderPayment,
  SearchCustomers,
  SetCustomerCustomField,
  UpsertCustomer,
  type CreateOrderResponse,
  type Customer,
} from './dtos.js';

type Thrown = { responseStatus: { errorCode: string; message: string; errors: { fieldName: string; errorCode: string }[] } };

async function thrown(p: Promise<unknown>): Promise<Thrown> {
  return p.then(
    (v) => assert.fail(`expected an error, got ${JSON.stringify(v)?.slice(0, 200)}`),
    (e: Thrown) => e,
  );
}

// The DTO of a client written for a camelCase (.NET Core style) ServiceStack deployment.
class customerCamel {
  public customerId!: string;
  public firstName!: string | null;
}
class SearchCustomersCamel implements IReturn<customerCamel[]> {
  public identifiers?: string[];
  public constructor(init?: Partial<SearchCustomersCamel>) {
    Object.assign(this, init);
  }
  public getTypeName() {
    return 'SearchCustomers';
  }
  public getMethod() {
    return 'GET';
  }
  public createResponse() {
    return new Array<customerCamel>();
  }
}

const IBAN = 'DE89370400440532013000';

for (const backend of allBackends()) {
  describe(`spec operations through JsonServiceClient [${backend}]`, { skip: leftOut(backend) }, () => {
    let server: RunningServer;
    const admin = () => makeClient('JsonServiceClient /api', server.baseUrl, server.t.keys.admin);
    before(async () => {
      server = await startServer(backend);
    });
    after(() => server.close());

    test('SearchCustomers: identifiers match id or external id, dates travel as toDateTime(), the watermark syncs', async () => {
      const c = admin();
      await c.client.put(new UpsertCustomer({ CustomerId: 'sc-1', ExternalId: 'sc-ext-1', LastName: 'One' }));
      await c.client.put(new UpsertCustomer({ CustomerId: 'sc-2', LastName: 'Two' }));
      let watermark: string | null = null;
      c.client.responseFilter = (res) => void (watermark = res.headers.get('x-sync-watermark'));
      const found = await c.client.get(new SearchCustomers({ Identifiers: ['sc-ext-1', 'sc-2', 'nobody'] }));
      assert.deepEqual(found.map((x) => x.CustomerId).sort(), ['sc-1', 'sc-2']);
      assert.match(watermark ?? '', /^\/Date\(\d+-0000\)\/$/);
      const since = toDate(watermark!) as Date;
      assert.ok(Math.abs(since.getTime() - Date.now()) < 60_000);
      // A change after the watermark is all the next sync sees, with the date sent as the client writes it.
      await c.client.put(new UpsertCustomer({ CustomerId: 'sc-2', LastName: 'Two again' }));
      const next = await c.client.get(new SearchCustomers({ LastModifiedAfter: toDateTime(since) }));
      assert.deepEqual(
        next.map((x) => [x.CustomerId, x.LastName]),
        [['sc-2', 'Two again']],
      );
      // POST runs the same operation with a JSON body.
      const posted = await c.client.post(new SearchCustomers({ Identifiers: ['sc-1'] }));
      assert.equal(posted[0]?.ExternalId, 'sc-ext-1');
    });

    test('ConfirmOrder: a full confirmation with payment and dates; GetOrder shows it with the IBAN masked', async () => {
      const c = admin();
      const order = await c.client.post(new CreateOrder({ Note: 'spec' }));
      const delivery = new Date(Date.UTC(2024, 4, 17, 8, 30));
      const confirmed = await c.client.post(
        new ConfirmOrder({
          OrderId: order.OrderId,
          CustomerSalutation: 'Frau',
          CustomerFirstName: 'Erika',
          CustomerLastName: 'Mustermann',
          CustomerPostalCode: '10115',
          CustomerCity: 'Berlin',
          CustomerCountry: 'DE',
          CustomerStreet: 'Invalidenstraße',
          CustomerStreetNumber: '1',
          CustomerEMail: 'erika@example.com',
          CustomerIban: IBAN,
          CustomerBic: 'COBADEFFXXX',
          CustomerSepaMandateDate: toDateTime(new Date(Date.UTC(2024, 0, 2))),
          DeliveryDate: toDateTime(delivery),
          ExternalCustomerId: 'erp-4711',
          PaymentMethod: 'PayPal',
          Payment: new OrderPayment({ Amount: 99.95, Name: 'PayPal', Type: 'PayPal', Date: toDateTime(delivery) }),
        }),
      );
      assert.equal(confirmed.Status, 'Confirmed');
      assert.equal(confirmed.OrderNumber, order.OrderNumber);
      assert.ok(Math.abs((toDate(confirmed.ConfirmedAt) as Date).getTime() - Date.now()) < 60_000);
      const shown = await c.client.get(new GetOrder({ OrderId: order.OrderId }));
      assert.equal(shown.Status, 'Confirmed');
      assert.equal(shown.CustomerId, confirmed.CustomerId);
      const confirmation = shown.Confirmation as Record<string, unknown>;
      assert.equal(confirmation.CustomerIban, 'DE89********3000');
      assert.equal((toDate(confirmation.DeliveryDate as string) as Date).getTime(), delivery.getTime());
      assert.equal((confirmation.Payment as Record<string, unknown>).Amount, 99.95);
      const customer = await c.client.get(new SearchCustomers({ Identifiers: ['erp-4711'] }));
      assert.equal(customer[0]?.LastName, 'Mustermann');
    });

    test('ConfirmOrder: every problem at once in Errors, each readable with fieldError-style lookups', async () => {
      const c = admin();
      const order: CreateOrderResponse = await c.client.post(new CreateOrder({}));
      const api = await c.client.api(
        new ConfirmOrder({
          OrderId: order.OrderId,
          CustomerFirstName: 'Erika',
          CustomerEMail: 'nope',
          Payment: new OrderPayment({ Amount: 1.005 }),
        }),
      );
      assert.equal(c.lastStatus(), 400);
      for (const [field, code] of [
        ['CustomerLastName', 'NotEmpty'],
        ['customerpostalcode', 'NotEmpty'],
        ['CustomerEMail', 'Email'],
        ['Payment.Amount', 'ScalePrecision'],
        ['Payment.Name', 'NotEmpty'],
      ] as const) {
        assert.equal(api.fieldError(field)?.errorCode, code, `${field}: ${JSON.stringify(api.errors)}`);
      }
      assert.equal(api.fieldError('CustomerFirstName'), undefined);
      assert.equal(api.errorCode, api.errors[0]?.errorCode);
      const after = await c.client.get(new GetOrder({ OrderId: order.OrderId }));
      assert.equal(after.Status, 'Open');
    });

    test('ConfirmOrder: 404 for an unknown order, 409 for a cancelled one, read from responseStatus', async () => {
      const c = admin();
      const body = {
        CustomerFirstName: 'A',
        CustomerLastName: 'B',
        CustomerPostalCode: '1',
        CustomerCity: 'C',
        CustomerCountry: 'DE',
        CustomerStreet: 'S',
        CustomerEMail: 'a@b.de',
      };
      const missing = await thrown(c.client.post(new ConfirmOrder({ OrderId: 987654321, ...body })));
      assert.equal(c.lastStatus(), 404);
      assert.equal(missing.responseStatus.errorCode, 'NotFound');
      const order = await c.client.post(new CreateOrder({}));
      await c.client.post(new CancelOrder({ OrderId: order.OrderId }));
      const cancelled = await thrown(c.client.post(new ConfirmOrder({ OrderId: order.OrderId, ...body })));
      assert.equal(c.lastStatus(), 409);
      assert.ok(cancelled.responseStatus.message.length > 0);
    });

    test('GetCustomerCustomFields: typed values, selected numbers, the POST form, 404 for an unknown customer', async () => {
      const c = admin();
      await c.client.put(new UpsertCustomer({ CustomerId: 'cf-1' }));
      const types = { 501: 'Text', 502: 'Number', 503: 'Boolean', 504: 'Date', 505: 'MultiSelect' } as const;
      for (const [n, FieldType] of Object.entries(types)) {
        await c.client.put(
          new DefineCustomField({
            Number: Number(n),
            Label: `F${n}`,
            FieldType,
            Sort: Number(n),
            AllowedValues: FieldType === 'MultiSelect' ? ['a', 'b'] : null,
          }),
        );
      }
      const when = new Date(Date.UTC(2024, 1, 29));
      const values: Record<number, unknown> = { 501: 'text', 502: 7, 503: true, 504: toDateTime(when), 505: ['b'] };
      for (const [n, Value] of Object.entries(values))
        await c.client.put(new SetCustomerCustomField({ CustomerId: 'cf-1', Number: Number(n), Value }));
      const some = await c.client.get(new GetCustomerCustomFields({ CustomerId: 'cf-1', CustomFieldNumbers: [504, 502, 999] }));
      assert.deepEqual(
        some.map((f) => f.Number),
        [502, 504],
      );
      assert.equal(some[0]!.Value, 7);
      assert.equal((toDate(some[1]!.Value as string) as Date).getTime(), when.getTime());
      const all = await c.client.post(new GetCustomerCustomFields({ CustomerId: 'cf-1' }));
      assert.deepEqual(
        all.map((f) => f.Value),
        ['text', 7, true, some[1]!.Value, ['b']],
      );
      const unknown = await thrown(c.client.get(new GetCustomerCustomFields({ CustomerId: 'no-such-customer' })));
      assert.equal(c.lastStatus(), 404);
      assert.equal(unknown.responseStatus.errorCode, 'NotFound');
    });

    test('sendOneWay / sendAllOneWay with basePath = null post to /json/oneway/ and the writes happen', async () => {
      const c = makeClient('JsonServiceClient /json/reply', server.baseUrl, server.t.keys.admin);
      await c.client.sendOneWay(new UpsertCustomer({ CustomerId: 'ow-1', City: 'Aachen' }));
      await c.client.sendAllOneWay([new UpsertCustomer({ CustomerId: 'ow-2' }), new UpsertCustomer({ CustomerId: 'ow-3' })]);
      assert.deepEqual(
        c.urls.map((u) => new URL(u).pathname),
        ['/json/oneway/UpsertCustomer', '/json/oneway/UpsertCustomer[]'],
      );
      assert.deepEqual(c.statuses, [204, 204]);
      const found = await c.client.get(new SearchCustomers({ Identifiers: ['ow-1', 'ow-2', 'ow-3'] }));
      assert.deepEqual(found.map((x) => x.CustomerId).sort(), ['ow-1', 'ow-2', 'ow-3']);
      const refused = await thrown(c.client.sendOneWay(new UpsertCustomer({ CustomerId: 'ow-4', Street: 'x'.repeat(300) })));
      assert.equal(refused.responseStatus.errorCode, 'Length');
    });

    test('custom routes through get(url) and postToUrl(), as ServiceStack code also calls them', async () => {
      const c = admin();
      await c.client.put(new UpsertCustomer({ CustomerId: 'url-1', FirstName: 'Url' }));
      const rows = await c.client.get<Customer[]>('/customer/', { Identifiers: 'url-1' });
      assert.equal(rows[0]?.FirstName, 'Url');
      const order = await c.client.post(new CreateOrder({}));
      const confirmed = await c.client.postToUrl(
        `/orders/${order.OrderId}/confirm`,
        new ConfirmOrder({
          CustomerFirstName: 'A',
          CustomerLastName: 'B',
          CustomerPostalCode: '1',
          CustomerCity: 'C',
          CustomerCountry: 'DE',
          CustomerStreet: 'S',
          CustomerEMail: 'a@b.de',
        }),
      );
      assert.equal(confirmed.OrderId, order.OrderId);
      assert.equal(new URL(c.urls.at(-1)!).pathname, `/orders/${order.OrderId}/confirm`);
    });

    test('a DTO naming no operation → 405 NotImplementedException', async () => {
      const c = admin();
      class GetWeather implements IReturn<unknown> {
        public getTypeName() {
          return 'GetWeather';
        }
        public getMethod() {
          return 'GET';
        }
        public createResponse() {
          return {};
        }
      }
      const e = await thrown(c.client.get(new GetWeather()));
      assert.equal(c.lastStatus(), 405);
      assert.equal(e.responseStatus.errorCode, 'NotImplementedException');
    });

    test('camelCase: ?jsconfig=EmitCamelCaseNames:true serves clients whose DTOs are camelCase', async () => {
      const c = admin();
      await c.client.put(new UpsertCustomer({ CustomerId: 'camel-1', FirstName: 'Cam' }));
      const rows = await c.client.get(new SearchCustomersCamel({ identifiers: ['camel-1'] }), { jsconfig: 'EmitCamelCaseNames:true' });
      assert.equal(rows[0]?.customerId, 'camel-1');
      assert.equal(rows[0]?.firstName, 'Cam');
    });
  });
}
