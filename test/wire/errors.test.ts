import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { AddressInfo } from 'node:net';
import { Duplex } from 'node:stream';
import type { FastifyBaseLogger } from 'fastify';
import { clientErrorHandler } from '../../src/wire/framework-errors.js';
import { Type } from '@sinclair/typebox';
import { BACKENDS } from '../helpers/test-store.js';
import { bearer, createTestApp, describeEachBackend, describeOnce, json, type TestApp } from '../helpers/test-app.js';
import { rawRequest } from '../helpers/raw-http.js';
import { assertNoInternals, assertResponseStatus } from '../helpers/wire-asserts.js';
import { INTERNAL_ERROR_TEXT, wireTestOperations } from '../helpers/wire-test-operations.js';

const MIB = 1024 * 1024;

describeOnce(
  'error responses',
  (t) => {
    test('404 for an unknown route, any verb', async () => {
      for (const method of ['GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS'] as const) {
        const rs = assertResponseStatus(await t().inject({ method, url: '/no/such/route?x=1' }), 404, 'NotFound');
        assert.equal(rs.Message, `Handler for Request not found: ${method} /no/such/route`);
      }
    });

    test('405 for an unknown operation and for a verb a route does not serve', async () => {
      assertResponseStatus(await t().inject('/api/Nope'), 405, 'NotImplementedException');
      assertResponseStatus(await t().inject({ method: 'DELETE', url: '/customer/' }), 405, 'MethodNotAllowed');
    });

    test('406 for formats not served', async () => {
      assertResponseStatus(await t().inject('/customer/?format=xml'), 406, 'NotAcceptable');
    });

    test('413 for a body over 1 MiB, whatever its type; 1 MiB itself is read', async () => {
      const big = JSON.stringify({ Identifiers: ['x'.repeat(MIB)] });
      for (const type of ['application/json', 'text/plain', 'application/x-www-form-urlencoded']) {
        const payload = type.includes('form') ? `Identifiers=${'x'.repeat(MIB)}` : big;
        assertResponseStatus(
          await t().inject({ method: 'POST', url: '/customer/', headers: { 'content-type': type }, payload }),
          413,
          'RequestEntityTooLarge',
        );
      }
      assertResponseStatus(
        await t().inject({ method: 'POST', url: '/api/SearchCustomers[]', payload: `[${big}]` }),
        413,
        'RequestEntityTooLarge',
      );
      const fits = JSON.stringify({ Identifiers: ['x'.repeat(MIB - 100)] });
      assert.ok(Buffer.byteLength(fits) <= MIB);
      const res = await t().inject({ method: 'POST', url: '/customer/', headers: { 'content-type': 'application/json' }, payload: fits });
      assertResponseStatus(res, 400, 'Length', 'Identifiers[0]');
    });

    test('415 for a body type that is neither JSON nor a form', async () => {
      for (const type of ['application/xml', 'application/octet-stream', 'multipart/form-data; boundary=x', 'image/png']) {
        assertResponseStatus(
          await t().inject({ method: 'POST', url: '/customer/', headers: { 'content-type': type }, payload: '<a/>' }),
          415,
          'UnsupportedMediaType',
        );
      }
    });

    test('malformed JSON → 400 SerializationException, as application/json, text/plain or untyped', async () => {
      for (const payload of ['{', '{"Identifiers":', '{"a":}', 'nope', "{'a':1}", '{"a":1}}', '\u0000']) {
        for (const headers of [{ 'content-type': 'application/json' }, { 'content-type': 'text/plain' }, {}]) {
          const res = await t().inject({ method: 'POST', url: '/customer/', headers, payload });
          assertResponseStatus(res, 400, 'SerializationException');
        }
      }
      assertResponseStatus(
        await t().inject({ method: 'POST', url: '/api/SearchCustomers[]', payload: '[{' }),
        400,
        'SerializationException',
      );
    });

    test('a JSON body that is not an object on a non-batch route → 400 SerializationException', async () => {
      for (const payload of ['[1,2]', '[]', '42', '"text"', 'true']) {
        assertResponseStatus(
          await t().inject({ method: 'POST', url: '/customer/', headers: { 'content-type': 'application/json' }, payload }),
          400,
          'SerializationException',
        );
        assertResponseStatus(
          await t().inject({ method: 'PUT', url: '/customer/err-1', headers: { 'content-type': 'application/json' }, payload }),
          400,
          'SerializationException',
        );
        assertResponseStatus(
          await t().inject({ method: 'POST', url: '/api/SearchCustomers', headers: { 'content-type': 'application/json' }, payload }),
          400,
          'SerializationException',
        );
      }
      assert.deepEqual(json(await t().inject('/customer/?Identifiers=err-1')), []);
    });

    test('a __proto__ key in a JSON body is refused as malformed', async () => {
      const res = await t().inject({
        method: 'PUT',
        url: '/customer/err-2',
        headers: { 'content-type': 'application/json' },
        payload: '{"__proto__":{"admin":true},"City":"X"}',
      });
      assertResponseStatus(res, 400, 'SerializationException');
    });

    test('unbindable values → 400 SerializationException naming the field', async () => {
      assertResponseStatus(await t().inject('/customer/?Skip=ten'), 400, 'SerializationException', 'Skip');
    });

    test('a URL that cannot be decoded → 400 in the error shape', async () => {
      assertResponseStatus(await t().inject('/customer/%E0%A4%A'), 400, 'SerializationException');
      assertResponseStatus(await t().inject('/api/%ZZ'), 400, 'SerializationException');
    });

    test('401 and 403 carry the error body', async () => {
      const unauth = await t().inject({ url: '/customer/', headers: { authorization: 'Bearer nope' } });
      assertResponseStatus(unauth, 401, 'Unauthorized');
      assert.ok(unauth.headers['www-authenticate']);
      assertResponseStatus(await t().inject({ url: '/customer/', headers: bearer(t().keys.adminOnly) }), 403, 'Forbidden');
    });

    test('an unexpected error → 500 with a generic message; the details go to the log only', async () => {
      const res = await t().inject('/explode');
      const rs = assertResponseStatus(res, 500, 'InternalServerError');
      assert.equal(rs.Message, 'An unexpected error occurred');
      assert.ok(!res.body.includes('orders') && !res.body.includes('example.org'));
      const logged = t().logs.find((l) => l.includes('"level":50') && l.includes('unexpected error') && l.includes('into \\"orders\\"'));
      assert.ok(logged, 'the error and its stack are logged');
      assert.match(logged, /"stack":"Error: insert into/);
      assert.ok(!logged.includes('leaked.person@example.org') && !logged.includes('DE89370400440532013000'), logged);
      assert.ok(INTERNAL_ERROR_TEXT.includes('DE89370400440532013000'));
      const jsonp = await t().inject('/explode?callback=cb');
      assert.equal(jsonp.statusCode, 200);
      assert.match(jsonp.body, /^cb\(\{"ResponseStatus":\{"ErrorCode":"InternalServerError"/);
      assertNoInternals(jsonp.body);
    });
  },
  {},
  { extraOperations: wireTestOperations },
);

describe('Fastify schema validation errors', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp(BACKENDS[0]!);
    // A route validated by Fastify itself (as a plugin's route might be): its errors share the shape.
    t.app.post(
      '/schema-checked',
      { schema: { body: Type.Object({ Count: Type.Integer({ minimum: 1 }), Code: Type.String({ maxLength: 3 }) }) } },
      async () => ({ ok: true }),
    );
  });
  after(() => t.close());

  test('map to FluentValidation codes with a field name', async () => {
    const missing = assertResponseStatus(
      await t.inject({ method: 'POST', url: '/schema-checked', payload: { Code: 'a' } }),
      400,
      'NotNull',
      'Count',
    );
    assert.equal(missing.Errors.length, 1);
    assertResponseStatus(
      await t.inject({ method: 'POST', url: '/schema-checked', payload: { Count: 0, Code: 'a' } }),
      400,
      'GreaterThanOrEqual',
      'Count',
    );
    assertResponseStatus(
      await t.inject({ method: 'POST', url: '/schema-checked', payload: { Count: 1, Code: 'abcd' } }),
      400,
      'Length',
      'Code',
    );
    assertResponseStatus(
      await t.inject({ method: 'POST', url: '/schema-checked', payload: { Count: 'x', Code: 'a' } }),
      400,
      'SerializationException',
      'Count',
    );
  });
});

describe('errors over a real socket', () => {
  let t: TestApp;
  let port: number;
  before(async () => {
    t = await createTestApp(BACKENDS[0]!);
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    port = (t.app.server.address() as AddressInfo).port;
  });
  after(() => t.close());

  test('a JSON body with no Content-Type header at all binds', async () => {
    const body = '{"identifiers":["nobody"]}';
    const res = await rawRequest(
      port,
      `POST /customer/ HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${t.keys.all}\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n${body}`,
    );
    assert.equal(res.status, 200, res.body);
    assert.equal(res.body, '[]');
    assert.equal(res.headers['content-type'], 'application/json; charset=utf-8');
  });

  test('a request Node cannot parse → 400 in the error shape', async () => {
    for (const data of [
      'GARBAGE\r\n\r\n',
      'GET /customer/ HTTP/1.1\r\nHost: x\r\nContent-Length: abc\r\n\r\n',
      'GET / HTTP/1.1\r\nBad Header\r\n\r\n',
    ]) {
      const res = await rawRequest(port, data);
      assert.equal(res.status, 400, JSON.stringify(data));
      assert.equal(res.headers['content-type'], 'application/json; charset=utf-8');
      assert.deepEqual(JSON.parse(res.body), {
        ResponseStatus: { ErrorCode: 'BadRequest', Message: 'The request is not valid HTTP', Errors: [] },
      });
    }
  });

  test('headers over the size limit → 431 in the error shape', async () => {
    const res = await rawRequest(port, `GET /customer/ HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`);
    assert.equal(res.status, 431);
    assert.equal(JSON.parse(res.body).ResponseStatus.ErrorCode, 'RequestHeaderFieldsTooLarge');
  });
});

describe('the client error handler', () => {
  const answer = (code: string | undefined): string => {
    const written: string[] = [];
    const socket = new Duplex({
      read() {},
      write(chunk, _enc, cb) {
        written.push(String(chunk));
        cb();
      },
    });
    const handler = clientErrorHandler({ casing: 'pascal', dateStyle: 'wcf' });
    socket.on('error', () => undefined);
    handler.call({ log: { debug() {} } as unknown as FastifyBaseLogger }, Object.assign(new Error('x'), { code }), socket);
    assert.equal(socket.destroyed, code !== 'ECONNRESET', 'the connection is closed after the answer');
    return written.join('');
  };

  test('answers timeouts 408, oversized headers 431, the rest 400, all in the error shape', () => {
    for (const [code, status, errorCode] of [
      ['ERR_HTTP_REQUEST_TIMEOUT', 408, 'RequestTimeout'],
      ['ERR_HTTP_HEADERS_TIMEOUT', 408, 'RequestTimeout'],
      ['HPE_HEADER_OVERFLOW', 431, 'RequestHeaderFieldsTooLarge'],
      ['HPE_INVALID_METHOD', 400, 'BadRequest'],
      [undefined, 400, 'BadRequest'],
    ] as const) {
      const text = answer(code);
      assert.match(text, new RegExp(`^HTTP/1.1 ${status} `), String(code));
      assert.equal(JSON.parse(text.slice(text.indexOf('\r\n\r\n') + 4)).ResponseStatus.ErrorCode, errorCode);
    }
    assert.equal(answer('ECONNRESET'), '', 'a reset connection gets nothing');
  });
});

describeEachBackend('errors when the store is gone', (t) => {
  test('a request after the store closed → 503 ServiceUnavailable with Retry-After, no internals', async () => {
    assert.equal((await t().inject('/customer/?Identifiers=x')).statusCode, 200);
    // Gone as on shutdown: the app's write door (on SQLite its thread, with a connection of its own) and the store.
    await t().app.writes.close();
    await t().store.close();
    for (const opts of [
      { url: '/customer/?Identifiers=x' },
      { url: '/customer/' },
      { method: 'PUT' as const, url: '/customer/gone-1', payload: {} },
    ]) {
      // A key verified a moment ago may still be cached; an unknown one must reach the store.
      const res = await t().inject(opts);
      const rs = assertResponseStatus(res, 503, 'ServiceUnavailable');
      assert.equal(res.headers['retry-after'], '1');
      assert.doesNotMatch(rs.Message, /destroyed|pool|connection/i);
    }
    const fresh = await t().inject({ url: '/customer/', headers: bearer('og_not_cached_key_0123456789') });
    assertResponseStatus(fresh, 503, 'ServiceUnavailable');
    assertResponseStatus(await t().inject('/health/ready'), 503, 'ServiceUnavailable');
  });
});
