import assert from 'node:assert/strict';
import { test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import type { LightMyRequestResponse } from 'fastify';
import { createKey } from '../../src/auth/key.service.js';
import { bearer, describeOnce, json } from '../helpers/test-app.js';

const PUBLIC = [
  '/health/live',
  '/health/ready',
  '/metrics',
  '/openapi.json',
  '/docs',
  '/docs/json',
  '/types/typescript',
  '/types/csharp',
  '/metadata',
];

function assertTooMany(res: LightMyRequestResponse, message: RegExp): number {
  assert.equal(res.statusCode, 429, res.body);
  const body = json(res);
  assert.equal(body.ResponseStatus.ErrorCode, 'TooManyRequests');
  assert.match(body.ResponseStatus.Message, message);
  assert.deepEqual(body.ResponseStatus.Errors, []);
  const after = Number(res.headers['retry-after']);
  assert.ok(Number.isInteger(after) && after >= 1, `Retry-After is whole seconds: ${res.headers['retry-after']}`);
  return after;
}

// 10 requests per key in a window of 10 s (RATE_LIMIT_PER_SECOND=1, RATE_LIMIT_BURST=10): long
// enough that a slow machine cannot let the window pass in the middle of a test.
describeOnce(
  'rate limit per API key',
  (t) => {
    test('each answer carries RateLimit-*; the request past the burst gets 429 with Retry-After; other keys go on', async () => {
      const { key } = await createKey(t().app.writes, 'rl-one', 'all');
      const { key: other } = await createKey(t().app.writes, 'rl-two', 'all');
      const seen: number[] = [];
      for (let i = 0; i < 10; i++) {
        const res = await t().inject({ url: '/customer/?Identifiers=nobody', headers: bearer(key) });
        assert.equal(res.statusCode, 200, res.body);
        assert.equal(res.headers['ratelimit-limit'], '10', 'the quota of the window: the burst');
        assert.equal(res.headers['ratelimit-policy'], '10;w=10', 'the window: burst / rate seconds');
        const reset = Number(res.headers['ratelimit-reset']);
        assert.ok(reset >= 1 && reset <= 10, `RateLimit-Reset ${reset}`);
        seen.push(Number(res.headers['ratelimit-remaining']));
      }
      assert.deepEqual(seen, [9, 8, 7, 6, 5, 4, 3, 2, 1, 0]);
      const over = await t().inject({ url: '/customer/?Identifiers=nobody', headers: bearer(key) });
      assert.ok(assertTooMany(over, /Rate limit of this API key exceeded/) <= 10);
      assert.equal(over.headers['ratelimit-remaining'], '0');
      // Every operation route shares the key's budget, the predefined ones too.
      const predefined = await t().inject({ method: 'POST', url: '/api/SearchCustomers', headers: bearer(key), payload: {} });
      assertTooMany(predefined, /API key/);
      const fine = await t().inject({ url: '/customer/?Identifiers=nobody', headers: bearer(other) });
      assert.equal(fine.statusCode, 200);
      assert.equal(fine.headers['ratelimit-remaining'], '9');
    });

    test('a batch counts once per item', async () => {
      const { key } = await createKey(t().app.writes, 'rl-batch', 'all');
      const res = await t().inject({
        method: 'POST',
        url: '/api/SearchCustomers[]',
        headers: bearer(key),
        payload: [{}, { Identifiers: ['x'] }, {}, {}],
      });
      assert.equal(res.statusCode, 200, res.body);
      assert.equal(res.headers['ratelimit-remaining'], '6');
    });

    test('public routes are not limited and carry no RateLimit headers; errors before the key (404) neither', async () => {
      const { key } = await createKey(t().app.writes, 'rl-public', 'all');
      for (let i = 0; i < 11; i++) await t().inject({ url: '/customer/?Identifiers=x', headers: bearer(key) });
      for (const url of PUBLIC) {
        for (let i = 0; i < 12; i++) {
          const res = await t().inject({ url, headers: bearer(key) });
          assert.ok(res.statusCode < 400, `${url}: ${res.statusCode}`);
          assert.equal(res.headers['ratelimit-limit'], undefined, url);
        }
      }
      const missing = await t().inject({ url: '/no/such/route', headers: bearer(key) });
      assert.equal(missing.statusCode, 404);
    });

    test('401 and 403 answers: a wrong key has no budget to spend; a key without the permission still counts', async () => {
      const { key } = await createKey(t().app.writes, 'rl-perm', 'all');
      const forbidden = await t().inject({ method: 'PUT', url: '/customer/rl-perm-1', headers: bearer(key), payload: { FirstName: 'x' } });
      assert.equal(forbidden.statusCode, 403);
      assert.equal(forbidden.headers['ratelimit-remaining'], '9');
      const wrong = await t().inject({ url: '/customer/', headers: bearer('og_not_a_key_but_long_enough_0123456789') });
      assert.equal(wrong.statusCode, 401);
      assert.equal(wrong.headers['ratelimit-limit'], undefined);
    });
  },
  { RATE_LIMIT_PER_SECOND: '1', RATE_LIMIT_BURST: '10' },
);

describeOnce(
  'rate limit window',
  (t) => {
    test('after the window the key passes again', async () => {
      // 3 per 300 ms: sent until one is refused (a busy machine may let a window pass), then waited out.
      let refused: LightMyRequestResponse | undefined;
      for (let i = 0; i < 50 && !refused; i++) {
        const res = await t().inject('/customer/?Identifiers=x');
        if (res.statusCode === 429) refused = res;
        else assert.equal(res.statusCode, 200, res.body);
      }
      assert.ok(refused, 'the burst ran out');
      assert.equal(assertTooMany(refused, /API key/), 1);
      await sleep(350);
      const again = await t().inject('/customer/?Identifiers=x');
      assert.equal(again.statusCode, 200, again.body);
      assert.equal(again.headers['ratelimit-remaining'], '2');
    });
  },
  { RATE_LIMIT_PER_SECOND: '10', RATE_LIMIT_BURST: '3' },
);

describeOnce(
  'rate limit off',
  (t) => {
    test('RATE_LIMIT_PER_SECOND=0: no RateLimit headers and no 429', async () => {
      for (let i = 0; i < 30; i++) {
        const res = await t().inject('/customer/?Identifiers=x');
        assert.equal(res.statusCode, 200);
        assert.equal(res.headers['ratelimit-limit'], undefined);
      }
    });
  },
  { RATE_LIMIT_PER_SECOND: '0' },
);

// 3 failed authentications per address in 2 s.
describeOnce(
  'failed authentication limit per client address',
  (t) => {
    const from = (remoteAddress: string, headers: Record<string, string | undefined>, url = '/customer/?Identifiers=x') =>
      t().app.inject({ url, remoteAddress, headers: headers as Record<string, string> });
    const wrong = (n: number) => bearer(`og_guess_${n}_abcdefghijklmnopqrstuvwxyz0123456789`);

    test('after the limit the address gets 429 even with a valid key until its window ends; then the valid key works', async () => {
      const address = '198.51.100.7';
      for (let i = 0; i < 3; i++) assert.equal((await from(address, wrong(i))).statusCode, 401);
      const blocked = await from(address, bearer(t().keys.all));
      const wait = assertTooMany(blocked, /failed authentications from this address/);
      assert.ok(wait <= 2, `Retry-After ${wait}`);
      assertTooMany(await from(address, wrong(9)), /failed authentications/);
      assertTooMany(await from(address, {}), /failed authentications/);
      // Other addresses, and the public routes of this one, are untouched.
      assert.equal((await from('198.51.100.8', bearer(t().keys.all))).statusCode, 200);
      assert.equal((await from(address, {}, '/health/live')).statusCode, 200);
      const line = t().logs.find((l) => l.includes('client address blocked') && l.includes(address));
      assert.ok(line, 'the block is logged with the address');
      await sleep(wait * 1000 + 100);
      const later = await from(address, bearer(t().keys.all));
      assert.equal(later.statusCode, 200, later.body);
    });

    test('requests without any key do not count; fewer failures than the limit do not block', async () => {
      const address = '198.51.100.20';
      for (let i = 0; i < 10; i++) assert.equal((await from(address, {})).statusCode, 401);
      for (let i = 0; i < 2; i++) assert.equal((await from(address, wrong(i))).statusCode, 401);
      assert.equal((await from(address, bearer(t().keys.all))).statusCode, 200);
    });

    test('IPv6 clients are counted per /64', async () => {
      for (let i = 0; i < 3; i++) assert.equal((await from(`2001:db8:1:2::${i + 1}`, wrong(i))).statusCode, 401);
      assertTooMany(await from('2001:db8:1:2:ffff::9', bearer(t().keys.all)), /failed authentications/);
      assert.equal((await from('2001:db8:1:3::1', bearer(t().keys.all))).statusCode, 200);
    });
  },
  { AUTH_FAILURE_LIMIT: '3', AUTH_FAILURE_WINDOW_SECONDS: '2' },
);
