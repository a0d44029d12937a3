import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Validator } from '@seriousme/openapi-schema-validator';
import type { TSchema } from '@sinclair/typebox';
import { requiredFields } from '../../src/docs/type-model.js';
import { allOperations } from '../../src/operations.js';
import type { AnyOperation } from '../../src/wire/operation.js';
import { createTestApp, json, type TestApp } from '../helpers/test-app.js';
import { BACKENDS, allBackends, leftOut } from '../helpers/test-store.js';
import { HAND_WRITTEN, scenarioContext } from '../clients/client-context.js';
import { makeClient, startServer, type RunningServer } from '../clients/client-server.js';
import { SCENARIOS } from '../clients/scenarios.js';
import { documentedType, DocumentValidator, expectedType, type Json } from './openapi-document.js';

const pathVariables = (path: string): string[] => [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!.toLowerCase());
const properties = (op: AnyOperation): [string, TSchema][] => Object.entries(op.request.properties ?? {}) as [string, TSchema][];
// Required: the schema's list plus the fields its validation rules require (REQUIRED_BY_RULES).
const required = (op: AnyOperation): Set<string> => requiredFields(op.request);

describe('GET /openapi.json', () => {
  let t: TestApp;
  let doc: Json;
  let ops: AnyOperation[];
  before(async () => {
    t = await createTestApp(BACKENDS[0]!);
    ops = allOperations(t.store, t.app.writes, t.config);
    const res = await t.inject({ url: '/openapi.json', headers: { authorization: undefined } });
    assert.equal(res.statusCode, 200, 'the document is public');
    assert.match(String(res.headers['content-type']), /^application\/json/);
    doc = json(res);
  });
  after(() => t.close());

  test('is a valid OpenAPI 3.1 document (@seriousme/openapi-schema-validator)', async () => {
    const validator = new Validator();
    const result = await validator.validate(structuredClone(doc));
    assert.deepEqual(result.errors, undefined);
    assert.equal(result.valid, true);
    assert.equal(validator.version, '3.1');
    assert.equal(doc.openapi, '3.1.0');
  });

  test('/openapi serves the same document', async () => {
    assert.deepEqual(json(await t.inject('/openapi')), doc);
  });

  test('every route of every operation is there, with a unique operationId, its tag and summary', () => {
    const ids = new Set<string>();
    for (const op of ops) {
      for (const route of op.routes) {
        const operation = doc.paths[route.path]?.[route.method.toLowerCase()];
        assert.ok(operation, `${route.method} ${route.path} (${op.name}) missing`);
        assert.ok(!ids.has(operation.operationId), `duplicate operationId ${operation.operationId}`);
        ids.add(operation.operationId);
        assert.ok(operation.operationId.startsWith(op.name));
        assert.deepEqual(operation.tags, [op.tag]);
        assert.equal(operation.summary, op.summary);
      }
      assert.ok(ids.has(op.name), `${op.name}: its first route carries the operation name as operationId`);
    }
    const documented = Object.values(doc.paths as Json).reduce((n: number, item: Json) => n + Object.keys(item).length, 0);
    assert.equal(documented, ops.reduce((n, op) => n + op.routes.length, 0), 'no route beyond the table');
  });

  test('every request field is documented with its type and whether it is required', () => {
    for (const op of ops) {
      for (const route of op.routes) {
        const operation = doc.paths[route.path][route.method.toLowerCase()];
        const params = (operation.parameters ?? []) as Json[];
        const inPath = pathVariables(route.path);
        const body = operation.requestBody?.content?.['application/json']?.schema;
        for (const [name, schema] of properties(op)) {
          const where = `${op.name} ${route.method} ${route.path} ${name}`;
          const param = params.find((p) => p.name.toLowerCase() === name.toLowerCase());
          if (inPath.includes(name.toLowerCase())) {
            assert.equal(param?.in, 'path', where);
            assert.equal(param.required, true, where);
            assert.equal(documentedType(param.schema, doc), expectedType(schema), where);
          } else if (route.method === 'GET' || route.method === 'DELETE') {
            assert.equal(param?.in, 'query', where);
            assert.equal(param.required, required(op).has(name), where);
            assert.equal(documentedType(param.schema, doc), expectedType(schema), where);
          } else if (op.arrayBody === name) {
            assert.equal(body.type, 'array', where);
            assert.equal(operation.requestBody.required, true, where);
          } else {
            assert.ok(body?.properties?.[name], `${where}: not in the request body`);
            assert.equal(documentedType(body.properties[name], doc), expectedType(schema), where);
            assert.equal((body.required ?? []).includes(name), required(op).has(name), where);
          }
        }
      }
    }
  });

  test("ConfirmOrder: the spec's seven required fields, and Amount and Name of a Payment, are required", () => {
    const body = doc.paths['/orders/{OrderId}/confirm'].post.requestBody.content['application/json'].schema;
    assert.deepEqual(
      [...body.required].sort(),
      ['CustomerCity', 'CustomerCountry', 'CustomerEMail', 'CustomerFirstName', 'CustomerLastName', 'CustomerPostalCode', 'CustomerStreet'],
    );
    assert.equal(body.properties.OrderId, undefined, 'the order id travels in the path');
    assert.deepEqual([...doc.components.schemas.OrderPayment.required].sort(), ['Amount', 'Name']);
    assert.doesNotMatch(JSON.stringify(doc), /x-required/);
  });

  test('responses: the success schema with an example that conforms to it, and the ResponseStatus error body', () => {
    const v = new DocumentValidator(doc);
    for (const op of ops) {
      for (const route of op.routes) {
        const responses = doc.paths[route.path][route.method.toLowerCase()].responses as Json;
        const status = String(op.successStatus ?? 200);
        assert.ok(responses[status], `${op.name}: no ${status} response`);
        const content = responses[status].content?.['application/json'];
        if (status === '204') assert.equal(content, undefined);
        else {
          assert.ok(content.example !== undefined, `${op.name}: no example`);
          const where = ['paths', route.path, route.method.toLowerCase(), 'responses', status, 'content', 'application/json', 'schema'];
          assert.deepEqual(v.check(content.example, ...where), [], `${op.name}: example does not conform`);
        }
        for (const code of ['400', '401', '403', 'default']) assert.match(responses[code].$ref, /^#\/components\/responses\//);
        const body = doc.paths[route.path][route.method.toLowerCase()].requestBody?.content?.['application/json'];
        if (body) {
          const where = ['paths', route.path, route.method.toLowerCase(), 'requestBody', 'content', 'application/json', 'schema'];
          assert.deepEqual(v.check(body.example, ...where), [], `${op.name}: request example does not conform`);
        }
      }
    }
    for (const name of ['BadRequest', 'Unauthorized', 'Forbidden', 'Error']) {
      const r = doc.components.responses[name].content['application/json'];
      assert.equal(r.schema.$ref, '#/components/schemas/ErrorResponse');
      assert.deepEqual(v.check(r.example, 'components', 'schemas', 'ErrorResponse'), [], name);
    }
  });

  test('a real error body conforms to the documented ErrorResponse', async () => {
    const v = new DocumentValidator(doc);
    const bad = await t.inject({ method: 'PUT', url: '/customer/x', payload: { Street: 'x'.repeat(300) } });
    assert.equal(bad.statusCode, 400);
    assert.deepEqual(v.check(json(bad), 'components', 'schemas', 'ErrorResponse'), []);
    const anonymous = await t.inject({ url: '/customer/', headers: { authorization: undefined } });
    assert.equal(anonymous.statusCode, 401);
    assert.deepEqual(v.check(json(anonymous), 'components', 'schemas', 'ErrorResponse'), []);
  });

  test('dates: every date field refers to WireDate, which documents the forms and accepts what the service writes', () => {
    const v = new DocumentValidator(doc);
    const wireDate = doc.components.schemas.WireDate;
    assert.match(wireDate.description, /\\\/Date\(/);
    assert.match(wireDate.description, /ISO 8601/);
    for (const sample of ['/Date(1700000000000-0000)/', '\\/Date(1700000000000)\\/', '2023-11-14T22:13:20.000Z', '2023-11-14']) {
      assert.deepEqual(v.check(sample, 'components', 'schemas', 'WireDate'), [], sample);
    }
    assert.notDeepEqual(v.check('yesterday', 'components', 'schemas', 'WireDate'), []);
    const text = JSON.stringify(doc);
    assert.doesNotMatch(text, /x-wire-date/);
    assert.ok((text.match(/#\/components\/schemas\/WireDate/g) ?? []).length >= 3);
  });

  test('security: Bearer and Basic schemes, required by every operation', () => {
    assert.deepEqual(doc.components.securitySchemes.bearerAuth, { type: 'http', scheme: 'bearer', description: doc.components.securitySchemes.bearerAuth.description });
    assert.equal(doc.components.securitySchemes.basicAuth.scheme, 'basic');
    assert.deepEqual(doc.security, [{ bearerAuth: [] }, { basicAuth: [] }]);
    for (const item of Object.values(doc.paths as Json)) for (const op of Object.values(item as Json)) assert.equal((op as Json).security, undefined);
  });
});

for (const backend of allBackends()) {
  describe(`responses of every operation conform to /openapi.json [${backend}]`, { skip: leftOut(backend) }, () => {
    let server: RunningServer;
    before(async () => {
      server = await startServer(backend);
    });
    after(() => server.close());

    test('success bodies validate against the documented schema of their route', async (t) => {
      const doc = (await (await fetch(`${server.baseUrl}/openapi.json`)).json()) as Json;
      const v = new DocumentValidator(doc);
      const ctx = scenarioContext(server.baseUrl, server.t.keys.admin, HAND_WRITTEN);
      for (const op of allOperations(server.t.store, server.t.app.writes, server.t.config)) {
        await t.test(op.name, async () => {
          const scenario = SCENARIOS[op.name];
          assert.ok(scenario, `add a client scenario for ${op.name}`);
          const { init } = await scenario.valid(ctx);
          const c = makeClient('JsonServiceClient /api', server.baseUrl, server.t.keys.admin);
          const body = await c.client.send(ctx.dto(op.name, init));
          const route = op.routes[0]!;
          const status = String(c.lastStatus());
          if (status === '204') return assert.equal(op.successStatus, 204);
          const documented = doc.paths[route.path][route.method.toLowerCase()].responses[status] ? status : '200';
          const where = ['paths', route.path, route.method.toLowerCase(), 'responses', documented, 'content', 'application/json', 'schema'];
          assert.deepEqual(v.check(JSON.parse(JSON.stringify(body)), ...where), []);
        });
      }
    });
  });
}
