import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { allOperations } from '../../src/operations.js';
import type { AnyOperation } from '../../src/wire/operation.js';
import { createTestApp, json, type TestApp } from '../helpers/test-app.js';
import { BACKENDS } from '../helpers/test-store.js';

const anonymous = { authorization: undefined };
const unescape = (html: string): string =>
  html.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&amp;/g, '&');
const pres = (html: string): string[] => [...html.matchAll(/<pre>([\s\S]*?)<\/pre>/g)].map((m) => unescape(m[1]!));

describe('/metadata: an HTML index of operations with routes and sample requests', () => {
  let t: TestApp;
  let ops: AnyOperation[];
  before(async () => {
    t = await createTestApp(BACKENDS[0]!);
    ops = allOperations(t.store, t.app.writes, t.config);
  });
  after(() => t.close());

  test('the index lists every operation with its routes and a link to its page', async () => {
    const res = await t.inject({ url: '/metadata', headers: anonymous });
    assert.equal(res.statusCode, 200);
    assert.match(String(res.headers['content-type']), /^text\/html/);
    for (const op of ops) {
      assert.ok(res.body.includes(`<a href="/json/metadata?op=${op.name}">${op.name}</a>`), op.name);
      for (const r of op.routes) assert.ok(res.body.includes(`<code>${r.method} ${r.path}</code>`), `${op.name} ${r.method} ${r.path}`);
    }
  });

  test('each operation page shows its routes, fields and a sample exchange whose JSON parses', async () => {
    for (const op of ops) {
      const res = await t.inject({ url: `/json/metadata?op=${op.name.toLowerCase()}`, headers: anonymous });
      assert.equal(res.statusCode, 200, op.name);
      const html = res.body;
      assert.ok(html.includes(`<h1>${op.name}</h1>`));
      for (const r of op.routes) assert.ok(html.includes(`${r.method} ${r.path}`), `${op.name}: ${r.path}`);
      assert.ok(html.includes(`/api/${op.name}`));
      for (const name of Object.keys(op.request.properties ?? {})) assert.ok(html.includes(`<td>${name}</td>`), `${op.name}.${name}`);
      const [request, response] = pres(html);
      assert.match(request!, new RegExp(`^${op.routes[0]!.method} /`), op.name);
      assert.match(request!, /\nAuthorization: Bearer <key>(\n|$)/);
      const requestBody = request!.split('\n\n')[1];
      if (requestBody !== undefined) assert.equal(typeof JSON.parse(requestBody), 'object', op.name);
      assert.match(response!, op.successStatus === 204 ? /^HTTP\/1\.1 204 No Content$/ : /^HTTP\/1\.1 20[012] /);
      const responseBody = response!.split('\n\n')[1];
      if (op.successStatus !== 204) JSON.parse(responseBody!);
    }
  });

  test('sample dates are written as the wire writes them: \\/Date(ms-0000)\\/', async () => {
    const html = (await t.inject({ url: '/json/metadata?op=ConfirmOrder', headers: anonymous })).body;
    const response = pres(html)[1]!;
    assert.match(response, /"ConfirmedAt": "\\\/Date\(1700000000000-0000\)\\\/"/);
  });

  test('an unknown operation is a 404 in the ResponseStatus shape', async () => {
    const res = await t.inject({ url: '/json/metadata?op=<script>', headers: anonymous });
    assert.equal(res.statusCode, 404);
    assert.equal(json(res).ResponseStatus.ErrorCode, 'NotFound');
    assert.doesNotMatch(res.body, /<script>/);
  });
});
