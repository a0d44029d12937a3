import assert from 'node:assert/strict';
import { test } from 'node:test';
import { describeOnce, json } from '../helpers/test-app.js';
import { assertResponseStatus } from '../helpers/wire-asserts.js';

const ids = (body: unknown): string[] => (body as { CustomerId: string }[]).map((c) => c.CustomerId).sort();

describeOnce('routes', (t) => {
  test('routes match case-insensitively, ignore a trailing slash and duplicate slashes; path values keep their case', async () => {
    for (const [i, url] of ['/customer/Route-A', '/CUSTOMER/Route-A/', '//customer//Route-A', '/Customer/Route-A//'].entries()) {
      const res = await t().inject({ method: 'PUT', url, payload: { City: url } });
      // The first PUT creates the customer, every other one reaches the same customer and replaces it.
      assert.equal(res.statusCode, i === 0 ? 201 : 200, `${url}: ${res.body}`);
      assert.equal(json(res).CustomerId, 'Route-A', url);
    }
    for (const url of ['/customer/', '/customer', '/CUSTOMER', '//customer//', '/Customer/?', '/customer?']) {
      const res = await t().inject(`${url}${url.endsWith('?') ? '' : '?'}Identifiers=Route-A`);
      assert.equal(res.statusCode, 200, url);
      assert.deepEqual(ids(json(res)), ['Route-A'], url);
    }
  });

  test('HEAD on a GET route answers with the GET headers and no body', async () => {
    const res = await t().inject({ method: 'HEAD', url: '/customer/?Identifiers=none' });
    assert.equal(res.statusCode, 200);
    assert.equal(res.body, '');
    assert.ok(res.headers['x-sync-watermark']);
  });

  test('/api/<Op> and /json/reply/<Op>: every verb; GET/DELETE read the query string, others the body', async () => {
    await t().inject({ method: 'PUT', url: '/customer/route-b', payload: {} });
    for (const prefix of ['/api', '/json/reply']) {
      for (const method of ['GET', 'DELETE'] as const) {
        const res = await t().inject({ method, url: `${prefix}/SearchCustomers?Identifiers=route-b` });
        assert.equal(res.statusCode, 200, `${method} ${prefix}`);
        assert.deepEqual(ids(json(res)), ['route-b'], `${method} ${prefix}`);
      }
      for (const method of ['POST', 'PUT', 'PATCH'] as const) {
        // JsonApiClient sends the body with no Content-Type; JsonServiceClient as application/json.
        for (const headers of [{}, { 'content-type': 'application/json' }, { 'content-type': 'text/plain' }]) {
          const res = await t().inject({ method, url: `${prefix}/SearchCustomers`, headers, payload: '{"Identifiers":["route-b"]}' });
          assert.equal(res.statusCode, 200, `${method} ${prefix} ${JSON.stringify(headers)}`);
          assert.deepEqual(ids(json(res)), ['route-b']);
        }
      }
    }
    const put = await t().inject({ method: 'PUT', url: '/api/UpsertCustomer', payload: { customerId: 'route-c', City: 'Ulm' } });
    assert.equal(json(put).CustomerId, 'route-c');
    const get = await t().inject('/json/reply/UpsertCustomer?CustomerId=route-d&City=Jena');
    assert.deepEqual([json(get).CustomerId, json(get).City], ['route-d', 'Jena']);
    const form = await t().inject({
      method: 'POST',
      url: '/api/UpsertCustomer',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'CustomerId=route-e&City=Hof',
    });
    assert.deepEqual([json(form).CustomerId, json(form).City], ['route-e', 'Hof']);
  });

  test('operation names are case-insensitive; the permission of the operation applies', async () => {
    for (const name of ['searchcustomers', 'SEARCHCUSTOMERS', 'SearchCustomers', 'sEaRcHcUsToMeRs']) {
      assert.equal((await t().inject(`/api/${name}?Identifiers=x`)).statusCode, 200, name);
      assert.equal((await t().inject(`/json/reply/${name}?Identifiers=x`)).statusCode, 200, name);
    }
    const forbidden = await t().inject({
      method: 'PUT',
      url: '/api/UpsertCustomer',
      headers: { authorization: `Bearer ${t().keys.all}` },
      payload: { CustomerId: 'route-f' },
    });
    assertResponseStatus(forbidden, 403, 'Forbidden');
    const unauth = await t().inject({ url: '/api/SearchCustomers', headers: { authorization: undefined as unknown as string } });
    assertResponseStatus(unauth, 401, 'Unauthorized');
  });

  test('batches: POST /api/<Op>[] (also percent-encoded) with a JSON array answers an array', async () => {
    await t().inject({ method: 'PUT', url: '/customer/route-g', payload: {} });
    await t().inject({ method: 'PUT', url: '/customer/route-h', payload: {} });
    const batch = [{ Identifiers: ['route-g'] }, { identifiers: ['route-h'] }, { Identifiers: ['none'] }];
    for (const url of [
      '/api/SearchCustomers[]',
      '/api/SearchCustomers%5B%5D',
      '/api/searchcustomers%5b%5d',
      '/json/reply/SearchCustomers[]',
    ]) {
      const res = await t().inject({ method: 'POST', url, payload: batch });
      assert.equal(res.statusCode, 200, `${url}: ${res.body}`);
      const body = json(res);
      assert.equal(body.length, 3);
      assert.deepEqual(ids(body[0]), ['route-g']);
      assert.deepEqual(ids(body[1]), ['route-h']);
      assert.deepEqual(body[2], []);
    }
    const upserts = await t().inject({
      method: 'POST',
      url: '/api/UpsertCustomer[]',
      payload: [{ CustomerId: 'route-i' }, { CustomerId: 'route-j', City: 'Gera' }],
    });
    assert.deepEqual(
      json(upserts).map((c: { CustomerId: string }) => c.CustomerId),
      ['route-i', 'route-j'],
    );
    const partial = await t().inject({
      method: 'POST',
      url: '/api/UpsertCustomer[]',
      payload: [{ CustomerId: 'route-l' }, { CustomerId: 'route-m', City: { x: 1 } }, { CustomerId: 'route-n' }],
    });
    assertResponseStatus(partial, 400, 'SerializationException', 'City');
    assert.deepEqual(
      ids(json(await t().inject('/customer/?Identifiers=route-l,route-m,route-n'))),
      ['route-l'],
      'items run in order; the first failure stops the batch',
    );
    assertResponseStatus(
      await t().inject({ method: 'POST', url: '/api/SearchCustomers[]', payload: { Identifiers: ['x'] } }),
      400,
      'SerializationException',
    );
    assertResponseStatus(
      await t().inject({ method: 'POST', url: '/api/SearchCustomers[]', payload: [{ Take: 'x' }] }),
      400,
      'SerializationException',
      'Take',
    );
  });

  test('an unknown operation → 405 NotImplementedException, on both prefixes and for batches', async () => {
    for (const [method, url] of [
      ['GET', '/api/NoSuchOperation'],
      ['POST', '/json/reply/NoSuchOperation'],
      ['POST', '/api/NoSuchOperation[]'],
      ['DELETE', '/api/Search'],
    ] as const) {
      const rs = assertResponseStatus(
        await t().inject({ method, url, payload: method === 'POST' ? [] : undefined }),
        405,
        'NotImplementedException',
      );
      assert.equal(rs.Message, 'The operation does not exist for this service');
    }
  });

  test('a verb a custom route does not serve → 405 MethodNotAllowed with Allow', async () => {
    for (const [method, url, allow] of [
      ['DELETE', '/customer/', 'GET, POST'],
      ['PUT', '/CUSTOMER', 'GET, POST'],
      ['PATCH', '/customer/?Identifiers=x', 'GET, POST'],
      ['GET', '/customer/route-k', 'PUT'],
      ['POST', '/customer/route-k/', 'PUT'],
      ['DELETE', '/customer/route-k', 'PUT'],
    ] as const) {
      const res = await t().inject({ method, url, payload: method === 'GET' || method === 'DELETE' ? undefined : {} });
      assertResponseStatus(res, 405, 'MethodNotAllowed');
      assert.equal(res.headers.allow, allow, `${method} ${url}`);
    }
    assert.deepEqual(json(await t().inject('/customer/?Identifiers=route-k')), [], 'nothing was written');
  });
});
