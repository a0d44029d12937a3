import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { getResponseStatus, type ApiResult, type IReturn } from '@servicestack/client';
import { allOperations } from '../../src/operations.js';
import type { AnyOperation } from '../../src/wire/operation.js';
import { allBackends, leftOut } from '../helpers/test-store.js';
import { HAND_WRITTEN, scenarioContext } from './client-context.js';
import { CLIENT_FLAVOURS, expectedPrefix, makeClient, startServer, type RunningServer } from './client-server.js';
import { SCENARIOS, type ScenarioContext } from './scenarios.js';

type Thrown = { responseStatus?: { errorCode: string; message: string; errors: { fieldName: string; errorCode: string }[] } };

/** Sends and returns what the client threw; fails when it resolved. */
async function rejection(p: Promise<unknown>): Promise<Thrown> {
  try {
    const value = await p;
    assert.fail(`expected an error, the client resolved with ${JSON.stringify(value)?.slice(0, 200)}`);
  } catch (e) {
    if (e instanceof assert.AssertionError) throw e;
    return e as Thrown;
  }
}

const hasProperties = (op: AnyOperation): boolean => Object.keys(op.request.properties ?? {}).length > 0;

for (const backend of allBackends()) {
  describe(`@servicestack/client against a running server [${backend}]`, { skip: leftOut(backend) }, () => {
    let server: RunningServer;
    let ops: AnyOperation[];
    let ctx: ScenarioContext;
    before(async () => {
      server = await startServer(backend);
      ops = allOperations(server.t.store, server.t.app.writes, server.t.config);
      ctx = scenarioContext(server.baseUrl, server.t.keys.admin, HAND_WRITTEN);
    });
    after(() => server.close());

    test('every operation of the table has a client scenario and a hand-written DTO', () => {
      assert.ok(ops.length >= 3);
      for (const op of ops) {
        assert.ok(SCENARIOS[op.name], `add a client scenario for ${op.name} to test/clients/scenarios.ts`);
        assert.equal(typeof HAND_WRITTEN[op.name], 'function', `add a DTO class ${op.name} to test/clients/dtos.ts`);
        // Class fields are own properties (ES2022 class fields): the DTO must declare every request property.
        const declared = Object.keys(ctx.dto(op.name)).sort();
        assert.deepEqual(declared, Object.keys(op.request.properties ?? {}).sort(), `${op.name}: test/clients/dtos.ts is out of date`);
        if (!hasProperties(op)) continue;
        assert.ok(SCENARIOS[op.name]!.invalid, `${op.name} takes input: its scenario needs an invalid request`);
      }
    });

    for (const flavour of CLIENT_FLAVOURS) {
      test(`${flavour}: every operation succeeds and returns its typed response`, async (t) => {
        for (const op of ops) {
          await t.test(op.name, async () => {
            const scenario = SCENARIOS[op.name]!;
            const { init, facts = {} } = await scenario.valid(ctx);
            const c = makeClient(flavour, server.baseUrl, server.t.keys.admin);
            const res = await c.client.send(ctx.dto(op.name, init));
            scenario.check(res, init, facts);
            assert.ok([200, 201, 202, 204].includes(c.lastStatus()!), `status ${c.lastStatus()}`);
            if (op.successStatus !== undefined && op.successStatus !== 200) assert.equal(c.lastStatus(), op.successStatus);
            assert.ok(new URL(c.urls[0]!).pathname.startsWith(expectedPrefix(flavour) + op.name), c.urls[0]);
          });
        }
      });

      test(`${flavour}: validation failures read through responseStatus and fieldError()`, async (t) => {
        for (const op of ops.filter(hasProperties)) {
          await t.test(op.name, async () => {
            const bad = await SCENARIOS[op.name]!.invalid!(ctx);
            const c = makeClient(flavour, server.baseUrl, server.t.keys.admin);
            const api = (await c.client.api(ctx.dto(op.name, bad.init) as IReturn<unknown>)) as ApiResult<unknown>;
            assert.equal(c.lastStatus(), 400);
            assert.ok(api.failed && !api.succeeded);
            const fieldError = api.fieldError(bad.field);
            assert.ok(fieldError, `no field error for ${bad.field}: ${JSON.stringify(api.error)}`);
            assert.equal(fieldError.errorCode, bad.code);
            assert.ok((fieldError.message ?? '').length > 0);
            // send() throws the sanitized body; ServiceStack code reads it through responseStatus.
            const thrown = await rejection(c.client.send(ctx.dto(op.name, bad.init)));
            const status = getResponseStatus(thrown) as NonNullable<Thrown['responseStatus']>;
            assert.equal(status.errorCode, api.errorCode);
            assert.ok(status.errors.some((e) => e.fieldName.toLowerCase() === bad.field.toLowerCase()));
          });
        }
      });

      test(`${flavour}: 401 without a key, for every operation`, async (t) => {
        for (const op of ops) {
          await t.test(op.name, async () => {
            const c = makeClient(flavour, server.baseUrl);
            const thrown = await rejection(c.client.send(ctx.dto(op.name, {})));
            assert.equal(c.lastStatus(), 401);
            assert.equal(thrown.responseStatus?.errorCode, 'Unauthorized');
          });
        }
      });

      test(`${flavour}: 403 with a key (sent as Basic) that lacks the permission, for every operation`, async (t) => {
        for (const op of ops) {
          await t.test(op.name, async () => {
            const c = makeClient(flavour, server.baseUrl);
            if (op.permission === 'any') {
              // Needs no permission: a key with the fewest is answered.
              c.client.setCredentials(server.t.keys.adminOnly, '');
              await c.client.api(ctx.dto(op.name, {}));
              assert.equal(c.lastStatus(), 200);
              return;
            }
            c.client.setCredentials(op.permission === 'all' ? server.t.keys.adminOnly : server.t.keys.all, '');
            // The permission is checked before the request is read: any request of the operation will do.
            const api = await c.client.api(ctx.dto(op.name, {}));
            assert.equal(c.lastStatus(), 403);
            assert.equal(api.errorCode, 'Forbidden');
            assert.match(api.errorMessage, new RegExp(op.permission));
          });
        }
      });

      test(`${flavour}: sendOneWay runs every operation (204 on /json/oneway/)`, async (t) => {
        for (const op of ops) {
          await t.test(op.name, async () => {
            const { init } = await SCENARIOS[op.name]!.valid(ctx);
            const c = makeClient(flavour, server.baseUrl, server.t.keys.admin);
            await c.client.sendOneWay(ctx.dto(op.name, init));
            const oneWayPath = flavour === 'JsonServiceClient /json/reply' ? '/json/oneway/' : '/api/';
            assert.equal(new URL(c.urls[0]!).pathname, oneWayPath + op.name);
            if (oneWayPath === '/json/oneway/') assert.equal(c.lastStatus(), 204);
            else assert.ok([200, 201, 202, 204].includes(c.lastStatus()!));
          });
        }
      });

      test(`${flavour}: batches with sendAll, for every operation`, async (t) => {
        for (const op of ops) {
          await t.test(op.name, async () => {
            const scenario = SCENARIOS[op.name]!;
            const first = await scenario.valid(ctx);
            const second = await scenario.valid(ctx);
            const c = makeClient(flavour, server.baseUrl, server.t.keys.admin);
            const results = await c.client.sendAll([ctx.dto(op.name, first.init), ctx.dto(op.name, second.init)]);
            assert.equal(c.lastStatus(), 200);
            assert.ok(new URL(c.urls[0]!).pathname.endsWith(`${op.name}[]`), c.urls[0]);
            assert.ok(Array.isArray(results) && results.length === 2, JSON.stringify(results));
            scenario.check(results[0], first.init, first.facts ?? {});
            scenario.check(results[1], second.init, second.facts ?? {});
          });
        }
      });
    }
  });
}
