import assert from 'node:assert/strict';
import { randomInt } from 'node:crypto';
import { request } from 'node:http';
import { after, before, describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { createKey } from '../../src/auth/key.service.js';
import { migrateToLatest } from '../../src/store/migrate.js';
import { openStore } from '../../src/store/open-store.js';
import { assertBuilt, freePort, startServer, type ServerProcess } from '../helpers/cli.js';
import { redisPort } from '../helpers/redis.js';
import { TcpProxy } from '../helpers/tcp-proxy.js';
import { createTestDatabase, openTestWrites, type TestDatabase } from '../helpers/test-store.js';

// REDIS_URL set and Redis unreachable, from the start or gone later: no limit is switched off. Each
// server counts on its own (its workers through the primary) and /health/ready says so.

const LIMIT = 5;
const BURST = 100;

const newAddress = (): string => `127.${randomInt(1, 255)}.${randomInt(0, 256)}.${randomInt(1, 255)}`;
const wrongKey = (n: number): string => `og_wrong_${n}_0123456789abcdefghijklmnopqrstuvwxyz`;

/** A search on a new connection from `from`. */
function send(server: ServerProcess, from: string, key: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(
      `${server.url}/customer/?Identifiers=x`,
      { headers: { authorization: `Bearer ${key}` }, agent: false, localAddress: from },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (body += c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end();
  });
}

async function ready(server: ServerProcess): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await fetch(`${server.url}/health/ready`);
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

/** Polls /health/ready until it reports `scope` (a hang guard only). */
async function untilLimits(server: ServerProcess, scope: 'Shared' | 'Local'): Promise<Record<string, unknown>> {
  let last: Record<string, unknown> = {};
  for (let i = 0; i < 200; i++) {
    const r = await ready(server);
    assert.equal(r.status, 200, JSON.stringify(r.body));
    last = r.body;
    if (JSON.stringify(r.body.Limits) === JSON.stringify({ Status: scope })) return r.body;
    await sleep(100);
  }
  assert.fail(`/health/ready never reported Limits ${scope}: ${JSON.stringify(last)}`);
}

/** LIMIT wrong keys from a new address answer 401, the next 429, and so does a valid key. */
async function assertGuessingStopped(server: ServerProcess, valid: string): Promise<void> {
  const from = newAddress();
  for (let i = 0; i < LIMIT; i++) assert.equal((await send(server, from, wrongKey(i))).status, 401, `failure ${i + 1}`);
  const over = await send(server, from, wrongKey(LIMIT));
  assert.equal(over.status, 429, over.body);
  assert.equal(JSON.parse(over.body).ResponseStatus.ErrorCode, 'TooManyRequests');
  assert.equal((await send(server, from, valid)).status, 429, 'a valid key from the blocked address too');
  assert.equal((await send(server, newAddress(), valid)).status, 200, 'another address is not affected');
}

async function migratedWithKey(database: TestDatabase): Promise<string> {
  const store = openStore(database.url, { poolSize: 2 });
  const writes = openTestWrites(store);
  try {
    await migrateToLatest(store);
    return (await createKey(writes, 'user', 'all')).key;
  } finally {
    await writes.close();
    await store.close();
  }
}

const limitsEnv = (database: TestDatabase, redisUrl: string, workers: number): Record<string, string> => ({
  DATABASE_URL: database.url,
  REDIS_URL: redisUrl,
  WORKERS: String(workers),
  LOG_LEVEL: 'info',
  AUTH_FAILURE_LIMIT: String(LIMIT),
  AUTH_FAILURE_WINDOW_SECONDS: '600',
  // BURST requests per key in a window of 100 s: it cannot end in the middle of the test.
  RATE_LIMIT_PER_SECOND: '1',
  RATE_LIMIT_BURST: String(BURST),
});

describe('REDIS_URL pointing where nothing listens, WORKERS=2', () => {
  let database: TestDatabase;
  let server: ServerProcess;
  let key: string;

  before(async () => {
    assertBuilt();
    database = await createTestDatabase('sqlite');
    key = await migratedWithKey(database);
    server = await startServer(limitsEnv(database, `redis://127.0.0.1:${await freePort()}`, 2));
    await server.waitUntilReady(30_000);
  });
  after(async () => {
    await server?.kill();
    await database?.drop();
  });

  test('ready, with the limits reported Local; the log says each server counts on its own', async () => {
    const r = await ready(server);
    assert.equal(r.status, 200);
    assert.deepEqual(r.body, { Status: 'Ready', Limits: { Status: 'Local' } });
    const log = server.stdout() + server.stderr();
    assert.match(log, /Redis unavailable, each server counts its limits on its own until it is back/);
    assert.doesNotMatch(log, /unlimited/);
  });

  test(`the failed-authentication limit answers 429 after ${LIMIT} wrong keys`, async () => {
    await assertGuessingStopped(server, key);
  });

  test(`the rate limit of a key still holds: at most ${BURST} of ${BURST + 10} requests pass`, async () => {
    const from = newAddress();
    const statuses: number[] = [];
    for (let i = 0; i < BURST + 10; i++) statuses.push((await send(server, from, key)).status);
    assert.deepEqual([...new Set(statuses)].sort(), [200, 429]);
    assert.ok(statuses.filter((s) => s === 200).length <= BURST, statuses.join(','));
    assert.equal(statuses[statuses.length - 1], 429);
  });
});

describe('Redis going away and coming back', () => {
  let redis: { port: number; stop: () => void };
  let proxy: TcpProxy;
  let database: TestDatabase;
  let server: ServerProcess;
  let key: string;

  before(async () => {
    assertBuilt();
    redis = await redisPort();
    proxy = new TcpProxy('127.0.0.1', redis.port);
    await proxy.start();
    database = await createTestDatabase('sqlite');
    key = await migratedWithKey(database);
    server = await startServer(limitsEnv(database, `redis://127.0.0.1:${proxy.port}`, 1));
    await server.waitUntilReady(30_000);
  });
  after(async () => {
    await server?.kill();
    await proxy?.close();
    redis?.stop();
    await database?.drop();
  });

  test('Shared while Redis answers; Local and still limiting while it is gone; Shared again once it is back', async () => {
    await untilLimits(server, 'Shared');
    await proxy.cut();
    await untilLimits(server, 'Local');
    await assertGuessingStopped(server, key);
    assert.match(server.stdout() + server.stderr(), /Redis unavailable, each server counts its limits on its own/);
    await proxy.restore();
    await untilLimits(server, 'Shared');
    await assertGuessingStopped(server, key);
  });
});
