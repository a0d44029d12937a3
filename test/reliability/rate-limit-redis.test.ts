import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { Writable } from 'node:stream';
import { after, before, describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { buildApp } from '../../src/app.js';
import { createKey } from '../../src/auth/key.service.js';
import { loadConfig } from '../../src/config.js';
import { migrateToLatest } from '../../src/store/migrate.js';
import { openStore } from '../../src/store/open-store.js';
import type { Store } from '../../src/store/store.js';
import { redisPort } from '../helpers/redis.js';
import { TcpProxy } from '../helpers/tcp-proxy.js';
import { createTestDatabase, type TestDatabase, allBackends, leftOut } from '../helpers/test-store.js';

const tooMany = (res: LightMyRequestResponse, what: RegExp): void => {
  assert.equal(res.statusCode, 429, res.body);
  assert.match(JSON.parse(res.body).ResponseStatus.Message, what);
  assert.ok(Number(res.headers['retry-after']) >= 1);
};

for (const backend of allBackends()) {
  describe(`rate limits shared through Redis by two instances [${backend}]`, { skip: leftOut(backend) }, () => {
    let redis: { port: number; stop: () => void };
    let proxy: TcpProxy;
    let database: TestDatabase;
    const stores: Store[] = [];
    const apps: FastifyInstance[] = [];
    const logs: string[] = [];
    // Addresses and keys are new in every run: counters in a shared Redis outlive the test.
    const net = `2001:db8:${randomBytes(2).toString('hex')}:${randomBytes(2).toString('hex')}`;

    before(async () => {
      redis = await redisPort();
      proxy = new TcpProxy('127.0.0.1', redis.port);
      const port = await proxy.start();
      database = await createTestDatabase(backend);
      const config = loadConfig({
        LOG_LEVEL: 'info',
        DATABASE_URL: database.url,
        REDIS_URL: `redis://127.0.0.1:${port}`,
        RATE_LIMIT_PER_SECOND: '1',
        RATE_LIMIT_BURST: '6',
        AUTH_FAILURE_LIMIT: '4',
        AUTH_FAILURE_WINDOW_SECONDS: '60',
      });
      const logStream = new Writable({
        write(chunk, _enc, cb) {
          logs.push(String(chunk));
          cb();
        },
      });
      for (let i = 0; i < 2; i++) {
        const store = openStore(database.url, { poolSize: 4 });
        await migrateToLatest(store);
        stores.push(store);
        apps.push(await buildApp({ config, store, logStream }));
      }
    });
    after(async () => {
      for (const app of apps) await app.close();
      for (const store of stores) await store.close();
      await proxy?.close();
      redis?.stop();
      await database?.drop();
    });

    const get = (i: number, headers: Record<string, string>, remoteAddress = '127.0.0.1') =>
      apps[i]!.inject({ url: '/customer/?Identifiers=x', headers, remoteAddress });
    const newKey = async () => ({ authorization: `Bearer ${(await createKey(apps[0]!.writes, 'redis', 'all')).key}` });

    test('one key spends one budget on both instances', async () => {
      const auth = await newKey();
      const remaining: string[] = [];
      for (let i = 0; i < 6; i++) {
        const res = await get(i % 2, auth);
        assert.equal(res.statusCode, 200, res.body);
        assert.equal(res.headers['ratelimit-limit'], '6');
        remaining.push(String(res.headers['ratelimit-remaining']));
      }
      assert.deepEqual(remaining, ['5', '4', '3', '2', '1', '0']);
      tooMany(await get(0, auth), /API key/);
      tooMany(await get(1, auth), /API key/);
      const other = await get(1, await newKey());
      assert.equal(other.statusCode, 200);
    });

    test('failed authentications of one address are counted across instances', async () => {
      const address = `${net}::1`;
      const valid = await newKey();
      for (let i = 0; i < 4; i++) {
        const res = await get(i % 2, { authorization: `Bearer og_wrong_${i}_0123456789abcdefghijklmnopqrstuvwxyz` }, address);
        assert.equal(res.statusCode, 401);
      }
      // Instance 1 saw only two failures itself; the shared count (4) blocks the address there.
      tooMany(await get(1, valid, `${net}::2`), /failed authentications/);
      // Instance 1 filled the window and told instance 0 through Redis, which then refuses a valid
      // key too. (Requests without a key probe the block without counting; between real processes
      // the first request after the 401 already finds it: shared-limits.test.ts.)
      let blocked = false;
      for (let i = 0; i < 100 && !blocked; i++) {
        blocked = (await get(0, {}, `${net}::3`)).statusCode === 429;
        if (!blocked) await sleep(20);
      }
      assert.ok(blocked, 'the block reached instance 0');
      tooMany(await get(0, valid, address), /failed authentications/);
      assert.equal((await get(0, valid, '2001:db8:ffff:1::1')).statusCode, 200);
    });

    test('Redis gone: each instance counts on its own at once, logged and reported; Redis back: shared again', async () => {
      await proxy.cut();
      const auth = await newKey();
      const started = Date.now();
      // Instance 0 alone admits the key's burst of 6, then refuses; instance 1 has a window of its own.
      for (let i = 0; i < 6; i++) {
        const res = await get(0, auth);
        assert.equal(res.statusCode, 200, res.body);
        assert.equal(res.headers['ratelimit-limit'], '6');
        assert.equal(res.headers['ratelimit-remaining'], String(5 - i));
      }
      tooMany(await get(0, auth), /API key/);
      assert.equal((await get(1, auth)).statusCode, 200, 'instance 1 counts for itself');
      assert.ok(Date.now() - started < 3_000, `requests were not held up (${Date.now() - started} ms)`);
      // Logged once the first client sees its connection closed.
      const outageLogged = () =>
        logs.some((l) => /"level":40/.test(l) && /rate limits: Redis unavailable, each server counts its limits on its own/.test(l));
      for (let i = 0; i < 100 && !outageLogged(); i++) await sleep(50);
      assert.ok(outageLogged(), 'the outage is logged');
      assert.ok(!logs.some((l) => /unlimited/.test(l)), 'no limit is switched off');
      // Each instance's client sees the lost connection on its own turn of the event loop; a hang guard only.
      const readiness = () => Promise.all(apps.map(async (app) => JSON.parse((await app.inject('/health/ready')).body) as unknown));
      let reported = await readiness();
      for (
        let i = 0;
        i < 100 && reported.some((r) => JSON.stringify(r) !== JSON.stringify({ Status: 'Ready', Limits: { Status: 'Local' } }));
        i++
      ) {
        await sleep(50);
        reported = await readiness();
      }
      assert.deepEqual(
        reported,
        [0, 1].map(() => ({ Status: 'Ready', Limits: { Status: 'Local' } })),
      );

      await proxy.restore();
      let shared = false;
      for (let i = 0; i < 100 && !shared; i++) {
        const scopes = await Promise.all(apps.map(async (app) => JSON.parse((await app.inject('/health/ready')).body).Limits?.Status));
        shared = scopes.every((s) => s === 'Shared');
        if (!shared) await sleep(100);
      }
      assert.ok(shared, '/health/ready reports the limits shared again');
      assert.ok(
        logs.some((l) => l.includes('rate limits: Redis connected')),
        'the reconnect is logged',
      );
      const again = await newKey();
      for (let i = 0; i < 6; i++) assert.equal((await get(i % 2, again)).statusCode, 200);
      tooMany(await get(0, again), /API key/);
      tooMany(await get(1, again), /API key/);
    });
  });
}
