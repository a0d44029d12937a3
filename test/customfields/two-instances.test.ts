import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/app.js';
import { createKey } from '../../src/auth/key.service.js';
import { loadConfig } from '../../src/config.js';
import { migrateToLatest } from '../../src/store/migrate.js';
import { openStore } from '../../src/store/open-store.js';
import type { Store } from '../../src/store/store.js';
import { createTestDatabase, type TestDatabase, allBackends, leftOut } from '../helpers/test-store.js';

// Two service instances on one database: definitions cached by one are never served stale after
// the other changes them.
for (const backend of allBackends()) {
  describe(`custom fields across two instances [${backend}]`, { skip: leftOut(backend) }, () => {
    let database: TestDatabase;
    const stores: Store[] = [];
    const apps: FastifyInstance[] = [];
    let auth: Record<string, string>;

    before(async () => {
      database = await createTestDatabase(backend);
      const config = loadConfig({ LOG_LEVEL: 'silent', RATE_LIMIT_PER_SECOND: '0', DATABASE_URL: database.url });
      for (let i = 0; i < 2; i++) {
        const store = openStore(database.url, { poolSize: 4 });
        await migrateToLatest(store);
        stores.push(store);
        apps.push(await buildApp({ config, store }));
      }
      auth = { authorization: `Bearer ${(await createKey(apps[0]!.writes, 'two', 'all,admin')).key}` };
    });
    after(async () => {
      for (const app of apps) await app.close();
      for (const store of stores) await store.close();
      await database.drop();
    });

    const call = (i: number, method: 'GET' | 'PUT' | 'DELETE', url: string, payload?: object) =>
      apps[i]!.inject({ method, url, headers: auth, ...(payload ? { payload } : {}) });
    const read = async (i: number) => JSON.parse((await call(i, 'GET', '/customer/c-1/customfields/')).body);

    test('a definition change made through one instance shows at once through the other', async () => {
      assert.equal((await call(0, 'PUT', '/customer/c-1', { FirstName: 'A' })).statusCode, 201);
      assert.equal((await call(0, 'PUT', '/customfields/1', { Label: 'One', FieldType: 'Text' })).statusCode, 201);
      assert.equal((await call(0, 'PUT', '/customer/c-1/customfields/1', { Value: 'v' })).statusCode, 200);
      assert.deepEqual(
        (await read(1)).map((f: any) => [f.Label, f.Value]),
        [['One', 'v']],
      );
      assert.equal((await call(0, 'PUT', '/customfields/1', { Label: 'Renamed', FieldType: 'Text', Sort: 2 })).statusCode, 200);
      assert.equal((await call(0, 'PUT', '/customfields/2', { Label: 'Two', FieldType: 'Number', Sort: 1 })).statusCode, 201);
      assert.deepEqual(
        (await read(1)).map((f: any) => [f.Label, f.Value]),
        [
          ['Two', null],
          ['Renamed', 'v'],
        ],
      );
      assert.equal((await call(1, 'DELETE', '/customfields/1')).statusCode, 204);
      assert.deepEqual(
        (await read(0)).map((f: any) => f.Label),
        ['Two'],
      );
      assert.deepEqual(
        (await read(1)).map((f: any) => f.Label),
        ['Two'],
      );
    });
  });
}
