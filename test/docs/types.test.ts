import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { TSchema } from '@sinclair/typebox';
import { requiredFields } from '../../src/docs/type-model.js';
import { allOperations } from '../../src/operations.js';
import type { AnyOperation } from '../../src/wire/operation.js';
import { createTestApp, json, type TestApp } from '../helpers/test-app.js';
import { BACKENDS } from '../helpers/test-store.js';

const anonymous = { authorization: undefined };
const properties = (op: AnyOperation): [string, TSchema][] => Object.entries(op.request.properties ?? {}) as [string, TSchema][];

/** ServiceStack's `[Route(path, "GET,POST")]`: one attribute per path, verbs joined. */
function routeAttributes(op: AnyOperation): string[] {
  const byPath = new Map<string, string[]>();
  for (const r of op.routes) byPath.set(r.path, [...(byPath.get(r.path) ?? []), r.method]);
  return [...byPath].map(([path, verbs]) => `[Route("${path}", "${verbs.join(',')}")]`);
}

/** The body of one C# class (between its braces), or undefined. */
function csClass(text: string, name: string): string | undefined {
  const start = text.indexOf(`public partial class ${name}\n`);
  if (start === -1) return undefined;
  const open = text.indexOf('{', start);
  return text.slice(open + 1, text.indexOf('\n    }', open));
}

describe('/types/csharp and /types/metadata', () => {
  let t: TestApp;
  let ops: AnyOperation[];
  before(async () => {
    t = await createTestApp(BACKENDS[0]!);
    ops = allOperations(t.store, t.app.writes, t.config);
  });
  after(() => t.close());

  test('C#: every operation is a request DTO with its [Route]s, IReturn<T> and every property', async () => {
    const res = await t.inject({ url: '/types/csharp', headers: anonymous });
    assert.equal(res.statusCode, 200, 'public, no key');
    assert.match(String(res.headers['content-type']), /^text\/plain/);
    const cs = res.body;
    assert.match(cs, /^\/\* Options:\n/);
    assert.match(cs, /\nBaseUrl: http:\/\/localhost(:80)?\n/);
    assert.match(cs, /using ServiceStack;/);
    assert.equal((cs.match(/\{/g) ?? []).length, (cs.match(/\}/g) ?? []).length, 'balanced braces');
    for (const op of ops) {
      const start = cs.indexOf(`public partial class ${op.name}\n`);
      assert.ok(start > 0, `${op.name} missing`);
      const header = cs.slice(cs.lastIndexOf('\n\n', start), start);
      for (const attr of routeAttributes(op)) assert.ok(header.includes(attr), `${op.name}: ${attr}`);
      const returns = cs.slice(start, cs.indexOf('{', start));
      assert.match(returns, op.successStatus === 204 ? /: IReturnVoid, I(Get|Post|Put|Patch|Delete)/ : /: IReturn<[A-Za-z<>]+>, I(Get|Post|Put|Patch|Delete)/);
      const body = csClass(cs, op.name)!;
      for (const [name] of properties(op)) assert.match(body, new RegExp(`public virtual [A-Za-z<>?, ]+ ${name} \\{ get; set; \\}`), `${op.name}.${name}`);
    }
    // Types a response names are declared too.
    for (const m of cs.matchAll(/IReturn<(?:List<)?([A-Za-z]+)>?>/g)) assert.ok(csClass(cs, m[1]!) !== undefined, `type ${m[1]} not declared`);
    assert.match(cs, /public virtual DateTime\? LastModifiedAfter \{ get; set; \}/);
    // Optional value types are nullable, so that an unset one is not sent as 0 or 0001-01-01.
    assert.match(csClass(cs, 'OrderPayment')!, /public virtual decimal Amount \{ get; set; \}/);
    assert.match(csClass(cs, 'OrderPayment')!, /public virtual DateTime\? Date \{ get; set; \}/);
    assert.match(csClass(cs, 'CustomField')!, /public virtual int Number \{ get; set; \}/);
  });

  test('metadata JSON: every operation with its routes, verbs, request properties and required flags', async () => {
    const res = await t.inject({ url: '/types/metadata', headers: anonymous });
    assert.equal(res.statusCode, 200);
    const meta = json(res);
    assert.deepEqual(meta.Operations.map((o: { Request: { Name: string } }) => o.Request.Name), ops.map((o) => o.name));
    for (const op of ops) {
      const m = meta.Operations.find((o: { Request: { Name: string } }) => o.Request.Name === op.name);
      assert.deepEqual(m.Routes, op.routes.map((r) => ({ Path: r.path, Verbs: r.method })));
      assert.deepEqual(m.RequiredPermissions, op.permission === 'any' ? [] : [op.permission]);
      assert.equal(m.Request.Properties.length, properties(op).length);
      for (const [name] of properties(op)) {
        const p = m.Request.Properties.find((x: { Name: string }) => x.Name === name);
        assert.ok(p, `${op.name}.${name}`);
        assert.equal(p.IsRequired === true, requiredFields(op.request).has(name), `${op.name}.${name} IsRequired`);
      }
      assert.equal(m.ReturnsVoid === true, op.successStatus === 204);
    }
    const typeNames = meta.Types.map((x: { Name: string }) => x.Name);
    for (const m of meta.Operations) if (m.Response && !/^(List|Dictionary)/.test(m.ReturnType.Type)) assert.ok(typeNames.includes(m.Response.Name), m.Response.Name);
    assert.ok(typeNames.includes('Customer'));
  });
});

describe('the API description follows the deployment: BASE_PATH and JSON_CASING=camel', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp(BACKENDS[0]!, { BASE_PATH: '/og', JSON_CASING: 'camel' });
  });
  after(() => t.close());

  test('everything is under the base path, public, and names properties in camelCase', async () => {
    for (const url of ['/openapi.json', '/types/typescript', '/types/csharp', '/types/metadata', '/metadata', '/docs']) {
      assert.equal((await t.inject({ url: `/og${url}`, headers: anonymous })).statusCode, 200, url);
      assert.equal((await t.inject({ url, headers: anonymous })).statusCode, 404, `${url} outside the base path`);
    }
    const doc = json(await t.inject({ url: '/og/openapi.json', headers: anonymous }));
    assert.deepEqual(doc.servers.map((s: { url: string }) => s.url), ['/og']);
    assert.ok(doc.components.schemas.Customer.properties.customerId);
    assert.ok(doc.components.schemas.ErrorResponse.properties.responseStatus);
    const ts = (await t.inject({ url: '/og/types/typescript', headers: anonymous })).body;
    assert.match(ts, /public customerId!: string;/);
    assert.match(ts, /BaseUrl: http:\/\/localhost(:80)?\/og\n/);
    const html = (await t.inject({ url: '/og/docs', headers: anonymous })).body;
    assert.match(html, /src="\/og\/docs\/static\/swagger-ui-bundle\.js"/);
  });

  test('and a camelCase response really has the documented names', async () => {
    await t.inject({ method: 'PUT', url: '/og/customer/camel-1', payload: { FirstName: 'C' } });
    const rows = json(await t.inject('/og/customer/?Identifiers=camel-1'));
    const doc = json(await t.inject({ url: '/og/openapi.json', headers: anonymous }));
    assert.deepEqual(Object.keys(rows[0]).sort(), Object.keys(doc.components.schemas.Customer.properties).sort());
  });
});
