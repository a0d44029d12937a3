import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { allOperations } from '../../src/operations.js';
import type { AnyOperation } from '../../src/wire/operation.js';
import { allBackends, leftOut } from '../helpers/test-store.js';
import { scenarioContext, type DtoModule } from './client-context.js';
import { makeClient, startServer, type RunningServer } from './client-server.js';
import { tempProject, type TempProject } from './compile-dtos.js';
import { SCENARIOS } from './scenarios.js';

// What an integrator writes against the downloaded dtos.ts. It must type-check under strict
// settings, and the @ts-expect-error lines prove the DTOs are typed (not `any`).
const USAGE = `import { JsonServiceClient, toDateTime } from '@servicestack/client';
import { ConfirmOrder, CreateOrder, Customer, CustomField, DefineCustomField, GetCustomerCustomFields, OrderPayment,
  SearchCustomers, SetCustomerCustomField, UpsertCustomer, type ConfirmOrderResponse } from './dtos.js';

export async function run(baseUrl: string, key: string): Promise<{ found: Customer[]; confirmed: ConfirmOrderResponse; fields: CustomField[] }> {
  const client = new JsonServiceClient(baseUrl);
  client.bearerToken = key;
  const saved: Customer = await client.send(new UpsertCustomer({ CustomerId: 'gen-1', FirstName: 'Gen', ExternalId: 'gen-ext' }));
  const found: Customer[] = await client.send(new SearchCustomers({ Identifiers: [saved.CustomerId], LastModifiedAfter: toDateTime(new Date(0)) }));
  const order = await client.send(new CreateOrder({ Note: 'generated' }));
  const confirmed = await client.send(new ConfirmOrder({
    OrderId: order.OrderId, CustomerFirstName: 'Gen', CustomerLastName: 'Erated', CustomerPostalCode: '1', CustomerCity: 'C',
    CustomerCountry: 'DE', CustomerStreet: 'S', CustomerEMail: 'gen@example.com', CustomerId: saved.CustomerId,
    Payment: new OrderPayment({ Amount: 5, Name: 'Cash' }),
  }));
  await client.send(new DefineCustomField({ Number: 77, Label: 'Size', FieldType: 'Number' }));
  await client.send(new SetCustomerCustomField({ CustomerId: saved.CustomerId, Number: 77, Value: 3 }));
  const fields = await client.send(new GetCustomerCustomFields({ CustomerId: saved.CustomerId, CustomFieldNumbers: [77] }));
  return { found, confirmed, fields };
}

// @ts-expect-error Identifiers is a string[]
export const wrongType = new SearchCustomers({ Identifiers: 5 });
// @ts-expect-error the response of SearchCustomers is Customer[], not a Customer
export const wrongResponse: Customer = new SearchCustomers().createResponse();
`;

interface Usage {
  run(
    baseUrl: string,
    key: string,
  ): Promise<{ found: Record<string, unknown>[]; confirmed: Record<string, unknown>; fields: Record<string, unknown>[] }>;
}

/** The DTO file without its header (which names the server and the time it was made). */
const withoutHeader = (text: string): string => text.slice(text.indexOf('*/') + 2);

// Compiling takes seconds: the first backend's download is compiled once, the others must match it.
let compiled: Promise<{ project: TempProject; text: string; diagnostics: string[]; dtos: DtoModule }> | undefined;
function compileOnce(text: string) {
  compiled ??= (async () => {
    const project = tempProject();
    project.write('dtos.ts', text);
    project.write('usage.ts', USAGE);
    const diagnostics = project.compile(['dtos.ts', 'usage.ts']);
    return { project, text, diagnostics, dtos: await project.import<DtoModule>('dtos.js') };
  })();
  return compiled;
}
after(() => compiled?.then((c) => c.project.remove()));

for (const backend of allBackends()) {
  describe(`/types/typescript compiled with tsc and used with JsonServiceClient [${backend}]`, { skip: leftOut(backend) }, () => {
    let server: RunningServer;
    let project: TempProject;
    let diagnostics: string[];
    let dtos: DtoModule;
    let ops: AnyOperation[];
    let downloaded: string;
    let first: string;
    before(async () => {
      server = await startServer(backend);
      ops = allOperations(server.t.store, server.t.app.writes, server.t.config);
      const res = await fetch(`${server.baseUrl}/types/typescript`);
      assert.equal(res.status, 200);
      downloaded = await res.text();
      ({ project, diagnostics, dtos, text: first } = await compileOnce(downloaded));
    });
    after(() => server.close());

    test('what this server serves is what was compiled', () => {
      assert.equal(withoutHeader(downloaded), withoutHeader(first));
      assert.match(downloaded, new RegExp(`BaseUrl: ${server.baseUrl.replace(/[.]/g, '\\.')}\n`));
    });

    test('the downloaded DTOs and code using them compile under strict tsc without errors', () => {
      assert.deepEqual(diagnostics, []);
    });

    test('every operation has a request class with getTypeName(), getMethod() and createResponse()', () => {
      for (const op of ops) {
        const Ctor = dtos[op.name] as new () => { getTypeName(): string; getMethod(): string; createResponse(): unknown };
        assert.equal(typeof Ctor, 'function', `${op.name} missing from /types/typescript`);
        const dto = new Ctor();
        assert.equal(dto.getTypeName(), op.name);
        assert.equal(dto.getMethod(), op.routes[0]!.method);
        const created = dto.createResponse();
        if ((op.response as { type?: string }).type === 'array') assert.ok(Array.isArray(created), op.name);
        else if (op.successStatus === 204) assert.equal(created, undefined, op.name);
        else assert.equal(typeof created, 'object', op.name);
      }
    });

    test('the compiled usage program runs against the server', async () => {
      const usage = await project.import<Usage>('usage.js');
      const { found, confirmed, fields } = await usage.run(server.baseUrl, server.t.keys.admin);
      assert.equal(found.length, 1);
      assert.equal(found[0]!.ExternalId, 'gen-ext');
      assert.equal(confirmed.Status, 'Confirmed');
      assert.equal(confirmed.CustomerId, 'gen-1');
      assert.deepEqual(
        fields.map((f) => [f.Number, f.Value]),
        [[77, 3]],
      );
    });

    test('every operation succeeds through JsonServiceClient with the generated DTOs, and 401 without a key', async (t) => {
      const ctx = scenarioContext(server.baseUrl, server.t.keys.admin, dtos);
      for (const op of ops) {
        await t.test(op.name, async () => {
          const scenario = SCENARIOS[op.name];
          assert.ok(scenario, `add a client scenario for ${op.name} to test/clients/scenarios.ts`);
          const { init, facts = {} } = await scenario.valid(ctx);
          const c = makeClient('JsonServiceClient /api', server.baseUrl, server.t.keys.admin);
          scenario.check(await c.client.send(ctx.dto(op.name, init)), init, facts);
          const anonymous = makeClient('JsonApiClient', server.baseUrl);
          await assert.rejects(anonymous.client.send(ctx.dto(op.name, init)));
          assert.equal(anonymous.lastStatus(), 401);
        });
      }
    });
  });
}
