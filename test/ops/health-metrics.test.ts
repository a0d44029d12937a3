import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { buildApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { openStore } from '../../src/store/open-store.js';
import { describeEachBackend, json } from '../helpers/test-app.js';
import { PG_TEST_URL, createTestDatabase, leftOut } from '../helpers/test-store.js';
import { assertResponseStatus } from '../helpers/wire-asserts.js';

const NO_AUTH = { authorization: undefined as unknown as string };

/** The value of one Prometheus sample line, matched by name and exact label set. */
function sample(text: string, name: string, labels: Record<string, string>): number | undefined {
  const wanted = Object.entries(labels).map(([k, v]) => `${k}="${v}"`);
  for (const line of text.split('\n')) {
    const m = /^([a-z_]+)\{(.*)\} (\S+)$/.exec(line);
    if (!m || m[1] !== name) continue;
    const have = m[2]!.split(/,(?=[a-z_]+=)/);
    if (wanted.length === have.length && wanted.every((w) => have.includes(w))) return Number(m[3]);
  }
  return undefined;
}

describeEachBackend('health and metrics', (t) => {
  test('/health/live and /health/ready answer without a key', async () => {
    const live = await t().inject({ url: '/health/live', headers: NO_AUTH });
    assert.equal(live.statusCode, 200);
    assert.deepEqual(json(live), { Status: 'Live' });
    const ready = await t().inject({ url: '/health/ready', headers: NO_AUTH });
    assert.equal(ready.statusCode, 200);
    assert.deepEqual(json(ready), { Status: 'Ready' });
  });

  test('/metrics: requests by method, route and status, a latency histogram with the same labels, no key needed', async () => {
    for (let i = 0; i < 3; i++) await t().inject('/customer/?Identifiers=m');
    await t().inject('/customer/?Take=bad');
    await t().inject('/no/such/page');
    await t().inject({ method: 'PUT', url: '/customer/metrics-1', payload: {} });
    const res = await t().inject({ url: '/metrics', headers: NO_AUTH });
    assert.equal(res.statusCode, 200);
    assert.match(String(res.headers['content-type']), /^text\/plain; version=0\.0\.4/);
    const text = res.body;
    assert.match(text, /# TYPE ordergate_http_requests_total counter/);
    assert.match(text, /# TYPE ordergate_http_request_duration_seconds histogram/);
    assert.ok(
      (sample(text, 'ordergate_http_requests_total', { method: 'GET', route: '/customer/', status: '200' }) ?? 0) >= 3,
      text.slice(0, 2000),
    );
    assert.equal(sample(text, 'ordergate_http_requests_total', { method: 'GET', route: '/customer/', status: '400' }), 1);
    assert.equal(sample(text, 'ordergate_http_requests_total', { method: 'GET', route: 'unmatched', status: '404' }), 1);
    assert.equal(sample(text, 'ordergate_http_requests_total', { method: 'PUT', route: '/customer/:CustomerId', status: '201' }), 1);
    const count = sample(text, 'ordergate_http_request_duration_seconds_count', { method: 'GET', route: '/customer/', status: '200' }) ?? 0;
    assert.ok(count >= 3);
    assert.equal(
      sample(text, 'ordergate_http_request_duration_seconds_bucket', { le: '+Inf', method: 'GET', route: '/customer/', status: '200' }),
      count,
    );
    assert.ok(
      sample(text, 'ordergate_http_request_duration_seconds_bucket', {
        le: '0.0005',
        method: 'PUT',
        route: '/customer/:CustomerId',
        status: '201',
      }) !== undefined,
    );
    assert.match(text, /^ordergate_process_cpu_user_seconds_total /m, 'Node process metrics');
    assert.ok(!text.includes('metrics-1'), 'route patterns, not paths');
  });
});

describeEachBackend(
  'BASE_PATH',
  (t) => {
    test('every route lives under BASE_PATH, predefined routes and health included', async () => {
      assert.equal((await t().inject({ method: 'PUT', url: '/v1/customer/bp-1', payload: {} })).statusCode, 201);
      assert.equal(json(await t().inject('/v1/customer/?Identifiers=bp-1')).length, 1);
      assert.equal(json(await t().inject('/V1/api/SearchCustomers?Identifiers=bp-1')).length, 1);
      assert.equal((await t().inject({ url: '/v1/health/ready', headers: NO_AUTH })).statusCode, 200);
      assert.equal((await t().inject({ url: '/v1/metrics', headers: NO_AUTH })).statusCode, 200);
      assertResponseStatus(await t().inject('/customer/?Identifiers=bp-1'), 404, 'NotFound');
      assertResponseStatus(await t().inject('/api/SearchCustomers'), 404, 'NotFound');
    });
  },
  { BASE_PATH: '/v1/' },
);

describe('readiness when the store cannot be reached [postgres]', { skip: leftOut('postgres') }, () => {
  const cases: { name: string; url: () => Promise<string> }[] = [];
  {
    cases.push({
      name: 'a PostgreSQL database that was dropped',
      url: async () => {
        const db = await createTestDatabase('postgres');
        await db.drop();
        return db.url;
      },
    });
    cases.push({
      name: 'a PostgreSQL port nobody listens on',
      url: async () => {
        const url = new URL(PG_TEST_URL);
        url.port = '1';
        return url.toString();
      },
    });
  }
  for (const c of cases) {
    test(`${c.name}: /health/ready and API calls → 503 ServiceUnavailable; /health/live stays 200`, async () => {
      const url = await c.url();
      const store = openStore(url, { poolSize: 1 });
      const app = await buildApp({ config: loadConfig({ DATABASE_URL: url, LOG_LEVEL: 'silent' }), store });
      try {
        assert.equal((await app.inject('/health/live')).statusCode, 200);
        const ready = await app.inject('/health/ready');
        assertResponseStatus(ready, 503, 'ServiceUnavailable');
        assert.equal(ready.headers['retry-after'], '1');
        const api = await app.inject({ url: '/customer/', headers: { authorization: 'Bearer og_some_key_that_must_be_looked_up' } });
        const rs = assertResponseStatus(api, 503, 'ServiceUnavailable');
        assert.doesNotMatch(rs.Message, /database|ECONN|postgres/i);
      } finally {
        await app.close();
        await store.close();
      }
    });
  }
});
