import assert from 'node:assert/strict';
import { randomInt } from 'node:crypto';
import { request, type IncomingHttpHeaders } from 'node:http';
import { after, before, describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { createKey } from '../../src/auth/key.service.js';
import { migrateToLatest } from '../../src/store/migrate.js';
import { openStore } from '../../src/store/open-store.js';
import { assertBuilt, startServer, type ServerProcess } from '../helpers/cli.js';
import { redisPort } from '../helpers/redis.js';
import { BACKENDS, createTestDatabase, openTestWrites, type TestDatabase } from '../helpers/test-store.js';

// The limits hold per host, whichever process answers: a server with WORKERS=2 (the primary keeps
// the windows) and two servers sharing one Redis. Every request goes on a connection of its own,
// from an address of 127.0.0.0/8 new in every run (counters in a shared Redis outlive the test).

const LIMIT = 20;

interface Answer {
  readonly status: number;
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
}

const newAddress = (): string => `127.${randomInt(1, 255)}.${randomInt(0, 256)}.${randomInt(1, 255)}`;
const wrongKey = (n: number): string => `og_wrong_${n}_0123456789abcdefghijklmnopqrstuvwxyz`;

let requests = 0;

/** A search on a new connection from `from`; `id` is its X-Request-Id, to find the process that answered in the log. */
function send(server: ServerProcess, from: string, key: string | undefined): Promise<Answer & { id: string }> {
  const id = `shared-limits-${process.pid}-${++requests}`;
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { 'x-request-id': id, ...(key ? { authorization: `Bearer ${key}` } : {}) };
    const req = request(`${server.url}/customer/?Identifiers=x`, { headers, agent: false, localAddress: from }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body, id }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

/** The pids that answered the requests `ids`, from the servers' logs. */
async function pidsOf(servers: readonly ServerProcess[], ids: readonly string[]): Promise<Set<number>> {
  const pids = new Map<string, number>();
  for (let i = 0; i < 100 && pids.size < ids.length; i++) {
    if (i > 0) await sleep(50);
    for (const line of servers.flatMap((s) => s.stdout().split('\n'))) {
      const m = /"reqId":"(shared-limits-[\d-]+)"/.exec(line);
      if (m && ids.includes(m[1]!) && line.includes('request completed')) pids.set(m[1]!, (JSON.parse(line) as { pid: number }).pid);
    }
  }
  assert.equal(pids.size, ids.length, 'every request is in a log');
  return new Set(pids.values());
}

function assertTooMany(res: Answer, message: RegExp, windowSeconds: number): void {
  assert.equal(res.status, 429, res.body);
  const { ResponseStatus } = JSON.parse(res.body) as { ResponseStatus: { ErrorCode: string; Message: string; Errors: unknown[] } };
  assert.equal(ResponseStatus.ErrorCode, 'TooManyRequests');
  assert.match(ResponseStatus.Message, message);
  assert.deepEqual(ResponseStatus.Errors, []);
  const retry = Number(res.headers['retry-after']);
  assert.ok(Number.isInteger(retry) && retry >= 1 && retry <= windowSeconds, `Retry-After ${res.headers['retry-after']}`);
}

/** Migrates the database and makes the keys the tests use (no bootstrap key: the servers find these). */
async function keysIn(database: TestDatabase, names: readonly string[]): Promise<string[]> {
  const store = openStore(database.url, { poolSize: 2 });
  const writes = openTestWrites(store);
  try {
    await migrateToLatest(store);
    const keys: string[] = [];
    for (const name of names) keys.push((await createKey(writes, name, 'all')).key);
    return keys;
  } finally {
    await writes.close();
    await store.close();
  }
}

/** Waits until `count` processes have logged that they listen: the cluster hands connections only to those. */
async function listening(server: ServerProcess, count: number): Promise<void> {
  for (let i = 0; i < 300; i++) {
    const pids = new Set(
      server
        .stdout()
        .split('\n')
        .filter((l) => l.includes('Server listening'))
        .map((l) => (JSON.parse(l) as { pid: number }).pid),
    );
    if (pids.size >= count) return;
    await sleep(50);
  }
  assert.fail(`${count} processes did not start listening: ${server.stderr()}`);
}

const env = (database: TestDatabase, more: Record<string, string>): Record<string, string> => ({
  DATABASE_URL: database.url,
  LOG_LEVEL: 'info',
  AUTH_FAILURE_LIMIT: String(LIMIT),
  AUTH_FAILURE_WINDOW_SECONDS: '600',
  ...more,
});

/**
 * LIMIT wrong keys from one address, spread over `servers` in turn: each 401; then the address
 * gets 429 on every one of them, for a wrong key and for a valid one. Returns the ids of the
 * requests, by phase, to tell which processes answered.
 */
async function guess(servers: readonly ServerProcess[], from: string, valid: string): Promise<{ failures: string[]; refused: string[] }> {
  const failures: string[] = [];
  for (let i = 0; i < LIMIT; i++) {
    const res = await send(servers[i % servers.length]!, from, wrongKey(i));
    assert.equal(res.status, 401, `failure ${i + 1}: ${res.body}`);
    assert.equal(JSON.parse(res.body).ResponseStatus.ErrorCode, 'Unauthorized');
    failures.push(res.id);
  }
  const refused: string[] = [];
  // First on the server that did not count the last failure, with a valid key: a hit must not show.
  for (let i = 0; i < 4; i++) {
    const res = await send(servers[(LIMIT + i) % servers.length]!, from, valid);
    assertTooMany(res, /Too many failed authentications from this address/, 600);
    refused.push(res.id);
  }
  for (let i = 0; i < 2; i++) {
    const res = await send(servers[i % servers.length]!, from, wrongKey(LIMIT + i));
    assertTooMany(res, /failed authentications/, 600);
    refused.push(res.id);
  }
  return { failures, refused };
}

describe('limits per host with WORKERS=2 and no Redis', () => {
  let database: TestDatabase;
  let server: ServerProcess;
  let keys: string[];

  before(async () => {
    assertBuilt();
    database = await createTestDatabase('sqlite');
    keys = await keysIn(database, ['guessed', 'busy']);
    // 100 requests per key in a window of 100 s: it cannot end in the middle of the test.
    server = await startServer(env(database, { WORKERS: '2', RATE_LIMIT_PER_SECOND: '1', RATE_LIMIT_BURST: '100' }));
    await server.waitUntilReady(30_000);
    await listening(server, 2);
  });
  after(async () => {
    if (server) {
      server.child.kill('SIGTERM');
      await server.exited;
    }
    await database?.drop();
  });

  test(`exactly ${LIMIT} wrong keys from one address are answered 401, served by both workers; then 429, a valid key too`, async () => {
    const from = newAddress();
    const { failures, refused } = await guess([server], from, keys[0]!);
    const workers = await pidsOf([server], failures);
    assert.equal(workers.size, 2, `the failures were answered by ${[...workers].join(', ')}`);
    assert.ok(!workers.has(server.child.pid!), 'the primary serves nothing');
    assert.equal((await pidsOf([server], refused)).size, 2, 'both workers refuse the address');
    // Counted once for the host: one worker logged the block.
    const blocks = server
      .stdout()
      .split('\n')
      .filter((l) => l.includes('client address blocked') && l.includes(`"address":"${from}"`));
    assert.equal(blocks.length, 1, blocks.join('\n'));
    // Other addresses are not affected.
    for (let i = 0; i < 2; i++) assert.equal((await send(server, newAddress(), keys[0])).status, 200);
  });

  test('the rate limit of a key is one budget for both workers', async () => {
    const from = newAddress();
    const admitted: string[] = [];
    let refusal: Answer | undefined;
    let firstRefusalAfter: number | undefined;
    for (let i = 0; i < 130; i++) {
      const res = await send(server, from, keys[1]);
      assert.equal(res.headers['ratelimit-limit'], '100');
      assert.equal(res.headers['ratelimit-policy'], '100;w=100');
      if (res.status === 200) {
        admitted.push(res.id);
      } else {
        assertTooMany(res, /Rate limit of this API key exceeded/, 100);
        refusal ??= res;
        firstRefusalAfter ??= admitted.length;
      }
    }
    // Counted per process, each worker would have admitted up to 100 of the 130. The workers take
    // slices of the window (here 3), so one may refuse while the other still holds 2 unspent.
    assert.ok(admitted.length <= 100, `${admitted.length} admitted`);
    assert.ok(firstRefusalAfter !== undefined && firstRefusalAfter >= 98, `first refusal after ${firstRefusalAfter} admitted`);
    assert.equal(refusal?.headers['ratelimit-remaining'] !== undefined, true);
    assert.equal((await pidsOf([server], admitted)).size, 2, 'both workers admitted requests');
  });
});

describe('limits shared through Redis by two server processes on one database', () => {
  const backend = BACKENDS.includes('postgres') ? 'postgres' : 'sqlite';
  let redis: { port: number; stop: () => void };
  let database: TestDatabase;
  const servers: ServerProcess[] = [];
  let keys: string[];

  before(async () => {
    assertBuilt();
    redis = await redisPort();
    database = await createTestDatabase(backend);
    keys = await keysIn(database, ['guessed', 'busy']);
    for (let i = 0; i < 2; i++) {
      const s = await startServer(
        env(database, { WORKERS: '1', REDIS_URL: `redis://127.0.0.1:${redis.port}`, RATE_LIMIT_PER_SECOND: '1', RATE_LIMIT_BURST: '10' }),
      );
      servers.push(s);
      await s.waitUntilReady(30_000);
    }
  });
  after(async () => {
    for (const s of servers) {
      s.child.kill('SIGTERM');
      await s.exited;
    }
    redis?.stop();
    await database?.drop();
  });

  test(`exactly ${LIMIT} wrong keys from one address are answered 401 across both; then both answer 429, a valid key too`, async () => {
    const from = newAddress();
    const { failures, refused } = await guess(servers, from, keys[0]!);
    assert.equal((await pidsOf(servers, failures)).size, 2);
    assert.equal((await pidsOf(servers, refused)).size, 2);
    const blocks = servers
      .flatMap((s) => s.stdout().split('\n'))
      .filter((l) => l.includes('client address blocked') && l.includes(`"address":"${from}"`));
    assert.equal(blocks.length, 1, blocks.join('\n'));
    for (const s of servers) assert.equal((await send(s, newAddress(), keys[0])).status, 200);
  });

  test('the rate limit of a key is one budget for both', async () => {
    const from = newAddress();
    const remaining: string[] = [];
    for (let i = 0; i < 10; i++) {
      const res = await send(servers[i % 2]!, from, keys[1]);
      assert.equal(res.status, 200, res.body);
      remaining.push(String(res.headers['ratelimit-remaining']));
    }
    assert.deepEqual(remaining, ['9', '8', '7', '6', '5', '4', '3', '2', '1', '0']);
    for (const s of servers) assertTooMany(await send(s, from, keys[1]), /Rate limit of this API key exceeded/, 10);
  });
});
