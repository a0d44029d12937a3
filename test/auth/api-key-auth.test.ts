import assert from 'node:assert/strict';
import { test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { createKey, listKeys, revokeKey } from '../../src/auth/key-service.js';
import { describeEachBackend, json } from '../helpers/test-app.js';

describeEachBackend('API key authentication', (t) => {
  test('no credentials → 401 with WWW-Authenticate and the error body', async () => {
    const res = await t().inject({ url: '/customer/', headers: { authorization: undefined as unknown as string } });
    assert.equal(res.statusCode, 401);
    assert.match(String(res.headers['www-authenticate']), /Bearer realm="ordergate"/);
    assert.equal(json(res).ResponseStatus.ErrorCode, 'Unauthorized');
  });

  test('an unknown key → 401; a malformed header → 401', async () => {
    for (const authorization of ['Bearer og_nonsense', 'Bearer', 'Token abc', 'Basic !!!']) {
      const res = await t().inject({ url: '/customer/', headers: { authorization } });
      assert.equal(res.statusCode, 401, authorization);
    }
  });

  test('Bearer and Basic (key as user name, empty password) both authenticate', async () => {
    const basic = 'Basic ' + Buffer.from(`${t().keys.all}:`).toString('base64');
    for (const authorization of [`Bearer ${t().keys.all}`, basic, `bearer ${t().keys.all}`]) {
      const res = await t().inject({ url: '/customer/', headers: { authorization } });
      assert.equal(res.statusCode, 200, authorization);
    }
  });

  test('a key without the permission → 403', async () => {
    const res = await t().inject({ url: '/customer/', headers: { authorization: `Bearer ${t().keys.adminOnly}` } });
    assert.equal(res.statusCode, 403);
    assert.equal(json(res).ResponseStatus.ErrorCode, 'Forbidden');
  });

  test('a new key works at once; a revoked key stops within a second', async () => {
    const created = await createKey(t().store, 'short-lived', 'all');
    const headers = { authorization: `Bearer ${created.key}` };
    assert.equal((await t().inject({ url: '/customer/', headers })).statusCode, 200);
    assert.equal(await revokeKey(t().store, created.id), true);
    await sleep(1000);
    assert.equal((await t().inject({ url: '/customer/', headers })).statusCode, 401);
    const listed = (await listKeys(t().store)).find((k) => k.id === created.id);
    assert.ok(listed?.revoked_at);
  });

  test('keys are stored only as hashes', async () => {
    const rows = await listKeys(t().store);
    for (const row of rows) {
      assert.match(row.key_hash, /^[0-9a-f]{64}$/);
      assert.ok(!Object.values(t().keys).some((k) => row.key_hash.includes(k) || row.name.includes(k)));
    }
  });
});
