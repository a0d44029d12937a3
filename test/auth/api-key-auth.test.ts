import assert from 'node:assert/strict';
import { test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { createKey, listKeys, revokeKey } from '../../src/auth/key.service.js';
import { describeEachBackend, json, type TestApp } from '../helpers/test-app.js';
import { assertResponseStatus } from '../helpers/wire-asserts.js';

const NO_AUTH = { authorization: undefined as unknown as string };
const basic = (user: string, password = ''): string => 'Basic ' + Buffer.from(`${user}:${password}`).toString('base64');

const NO_KEY = 'Authentication required: send an API key as a Bearer token or as the Basic user name';
const BAD_KEY = 'The API key sent is unknown or has been revoked';

/** A 401 saying either that no key was sent, or (the default) that the key sent is unknown or revoked. */
function assertUnauthorized(res: Awaited<ReturnType<TestApp['inject']>>, label: string, message = NO_KEY): void {
  const rs = assertResponseStatus(res, 401, 'Unauthorized');
  assert.equal(rs.Message, message, label);
  assert.equal(res.headers['www-authenticate'], 'Bearer realm="ordergate", Basic realm="ordergate"', label);
}

describeEachBackend('API key authentication', (t) => {
  test('no credentials → 401 with WWW-Authenticate and the error body', async () => {
    assertUnauthorized(await t().inject({ url: '/customer/', headers: NO_AUTH }), 'none');
    assertUnauthorized(
      await t().inject({ method: 'PUT', url: '/api/UpsertCustomer', headers: NO_AUTH, payload: { CustomerId: 'a' } }),
      'predefined',
    );
  });

  test('unknown, malformed or oversized credentials → 401 saying which: no key, or a key unknown or revoked (never echoed)', async () => {
    for (const authorization of [
      'Bearer',
      'Bearer ',
      'Token abc',
      'Basic',
      'Basic !!!',
      basic(''),
      t().keys.all,
      `Digest ${t().keys.all}`,
    ]) {
      assertUnauthorized(await t().inject({ url: '/customer/', headers: { authorization } }), authorization.slice(0, 40), NO_KEY);
    }
    for (const authorization of [
      'Bearer og_nonsense',
      basic('og_unknown'),
      `Bearer ${t().keys.all}x`,
      `Bearer ${t().keys.all.slice(0, -1)}`,
      `Bearer ${'a'.repeat(600)}`,
    ]) {
      const res = await t().inject({ url: '/customer/', headers: { authorization } });
      assertUnauthorized(res, authorization.slice(0, 40), BAD_KEY);
      assert.ok(!res.body.includes('og_nonsense') && !res.body.includes('og_unknown'));
    }
  });

  test('Bearer and Basic (key as user name, empty password) authenticate; the scheme is case-insensitive', async () => {
    const key = t().keys.all;
    for (const authorization of [
      `Bearer ${key}`,
      `bearer ${key}`,
      `BEARER  ${key} `,
      basic(key),
      `basic ${Buffer.from(`${key}:`).toString('base64')}`,
      'Basic ' + Buffer.from(key).toString('base64'),
    ]) {
      const res = await t().inject({ url: '/customer/?Identifiers=none', headers: { authorization } });
      assert.equal(res.statusCode, 200, authorization);
      assert.deepEqual(json(res), []);
    }
  });

  test('authentication comes before binding: a bad value without a key is a 401, not a 400', async () => {
    assertUnauthorized(await t().inject({ url: '/customer/?Take=abc', headers: NO_AUTH }), 'binding');
  });

  test('a key without the permission → 403; admin does not imply all', async () => {
    const rs = assertResponseStatus(
      await t().inject({ url: '/customer/', headers: { authorization: `Bearer ${t().keys.adminOnly}` } }),
      403,
      'Forbidden',
    );
    assert.match(rs.Message, /'all'/);
    assertResponseStatus(
      await t().inject({ method: 'PUT', url: '/customer/auth-1', headers: { authorization: `Bearer ${t().keys.all}` }, payload: {} }),
      403,
      'Forbidden',
    );
    assert.equal(
      (
        await t().inject({
          method: 'PUT',
          url: '/customer/auth-1',
          headers: { authorization: `Bearer ${t().keys.adminOnly}` },
          payload: {},
        })
      ).statusCode,
      201,
    );
  });

  test('a key unknown a moment ago works as soon as it exists (failures are not cached)', async () => {
    const created = await createKey(t().app.writes, 'late', 'all');
    await revokeKey(t().app.writes, created.id);
    const fresh = await createKey(t().app.writes, 'fresh', 'all');
    assert.equal((await t().inject({ url: '/customer/', headers: { authorization: `Bearer ${fresh.key}` } })).statusCode, 200);
  });

  test('a revoked key stops within a second; 401 with WWW-Authenticate', async () => {
    const created = await createKey(t().app.writes, 'short-lived', 'all');
    const headers = { authorization: `Bearer ${created.key}` };
    assert.equal((await t().inject({ url: '/customer/', headers })).statusCode, 200);
    assert.equal(await revokeKey(t().app.writes, created.id), true);
    const revokedAt = Date.now();
    let refusedAfter = Infinity;
    while (Date.now() - revokedAt < 1500) {
      const res = await t().inject({ url: '/customer/?Identifiers=none', headers });
      if (res.statusCode === 401) {
        refusedAfter = Date.now() - revokedAt;
        assertUnauthorized(res, 'revoked', BAD_KEY);
        break;
      }
      assert.equal(res.statusCode, 200);
      await sleep(50);
    }
    assert.ok(refusedAfter < 1000, `refused after ${refusedAfter} ms`);
    assert.equal(await revokeKey(t().app.writes, created.id), false, 'revoking twice reports nothing revoked');
    assert.ok((await listKeys(t().store)).find((k) => k.id === created.id)?.revoked_at);
  });

  test('?apikey= is ignored unless ALLOW_APIKEY_IN_QUERY=true', async () => {
    assertUnauthorized(await t().inject({ url: `/customer/?apikey=${t().keys.all}`, headers: NO_AUTH }), 'query key off');
  });

  test('keys are stored only as hashes, identified by a short prefix; ≥ 256 random bits', async () => {
    const rows = await listKeys(t().store);
    for (const row of rows) {
      assert.match(row.key_hash, /^[0-9a-f]{64}$/);
      assert.ok(!Object.values(t().keys).some((k) => row.key_hash.includes(k) || row.name.includes(k)));
    }
    for (const key of Object.values(t().keys)) {
      assert.match(key, /^og_[A-Za-z0-9_-]{54}$/, 'og_ + 40 random bytes in base64url');
      assert.ok(rows.some((r) => r.id === key.slice(0, 12)));
    }
  });
});

describeEachBackend(
  'API keys in the query string (ALLOW_APIKEY_IN_QUERY=true)',
  (t) => {
    test('?apikey= authenticates; the header wins when both are sent; the key is not logged', async () => {
      const res = await t().inject({ url: `/customer/?Identifiers=none&apikey=${t().keys.all}`, headers: NO_AUTH });
      assert.equal(res.statusCode, 200, res.body);
      assert.deepEqual(json(res), []);
      assertUnauthorized(await t().inject({ url: `/customer/?apikey=og_wrong`, headers: NO_AUTH }), 'wrong query key', BAD_KEY);
      assertUnauthorized(
        await t().inject({ url: `/customer/?apikey=${t().keys.all}`, headers: { authorization: 'Bearer og_wrong' } }),
        'header wins',
        BAD_KEY,
      );
      assertResponseStatus(await t().inject({ url: `/customer/?apikey=${t().keys.adminOnly}`, headers: NO_AUTH }), 403, 'Forbidden');
      assert.ok(!t().logs.some((l) => l.includes(t().keys.all)), 'the key is not in the log');
    });
  },
  { ALLOW_APIKEY_IN_QUERY: 'true' },
);
