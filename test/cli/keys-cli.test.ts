import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { migrateToLatest } from '../../src/store/migrate.js';
import { openStore } from '../../src/store/open-store.js';
import type { Store } from '../../src/store/store.js';
import { assertBuilt } from '../helpers/cli.js';
import { CliThread } from '../helpers/cli-in-thread.js';
import { createTestDatabase, type TestDatabase, allBackends, leftOut } from '../helpers/test-store.js';

for (const backend of allBackends()) {
  describe(`ordergate keys … against a running server [${backend}]`, { skip: leftOut(backend) }, () => {
    let database: TestDatabase;
    let store: Store;
    let app: FastifyInstance;
    // The commands run in one thread of this process: what they do with their arguments and the store, without a node process each.
    let thread: CliThread;
    const env = (): Record<string, string> => ({ DATABASE_URL: database.url });
    const search = (key: string) => app.inject({ url: '/customer/?Identifiers=none', headers: { authorization: `Bearer ${key}` } });

    before(async () => {
      assertBuilt();
      thread = new CliThread();
      database = await createTestDatabase(backend);
      store = openStore(database.url, { poolSize: 2 });
      await migrateToLatest(store);
      app = await buildApp({ config: loadConfig({ DATABASE_URL: database.url, LOG_LEVEL: 'silent' }), store });
    });
    after(async () => {
      await thread?.close();
      await app?.close();
      await store?.close();
      await database?.drop();
    });

    test('create prints the key alone on the last line; it works at once with its permissions; list shows it; revoke stops it within a second', async () => {
      const [created, reader] = await Promise.all([
        thread.cli(['keys', 'create', '--name', 'cli-user', '--permissions', 'all,admin'], env()),
        thread.cli(['keys', 'create', '--name', 'reader'], env()),
      ]);
      assert.equal(created.code, 0, created.stderr);
      const lines = created.stdout.trimEnd().split('\n');
      const key = lines[lines.length - 1]!;
      assert.match(key, /^og_[A-Za-z0-9_-]{54}$/);
      assert.equal(created.stdout.split(key).length, 2, 'the key is printed once');
      assert.ok(!created.stderr.includes(key));
      assert.equal((await search(key)).statusCode, 200, 'works against the running server at once');
      assert.equal(
        (await app.inject({ method: 'PUT', url: '/customer/cli-1', headers: { authorization: `Bearer ${key}` }, payload: {} })).statusCode,
        201,
      );

      // Without --permissions a key gets `all` only: no admin operations.
      assert.equal(reader.code, 0, reader.stderr);
      const readerKey = reader.stdout.trimEnd().split('\n').pop()!;
      assert.match(reader.stdout, /with permissions all;/);
      assert.equal((await search(readerKey)).statusCode, 200);
      assert.equal(
        (await app.inject({ method: 'PUT', url: '/customer/cli-2', headers: { authorization: `Bearer ${readerKey}` }, payload: {} }))
          .statusCode,
        403,
      );

      // A warehouse's key records payments and the like, and reads nothing.
      const warehouse = await thread.cli(['keys', 'create', '--name', 'warehouse', '--permissions', 'fulfilment'], env());
      assert.equal(warehouse.code, 0, warehouse.stderr);
      const warehouseKey = warehouse.stdout.trimEnd().split('\n').pop()!;
      assert.equal((await search(warehouseKey)).statusCode, 403);
      const payment = await app.inject({
        method: 'POST',
        url: '/orders/987654321/payments',
        headers: { authorization: `Bearer ${warehouseKey}` },
        payload: { Amount: 1 },
      });
      assert.equal(payment.statusCode, 404, 'allowed, and the order does not exist');

      const id = key.slice(0, 12);
      const listed = await thread.cli(['keys', 'list'], env());
      assert.equal(listed.code, 0, listed.stderr);
      assert.ok(!listed.stdout.includes(key), 'the key is never shown again');
      const line = listed.stdout.split('\n').find((l) => l.startsWith(`${id} `));
      assert.match(line ?? '', new RegExp(`^${id} cli-user all,admin \\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}\\.\\d{3}Z$`));

      const revoked = await thread.cli(['keys', 'revoke', id], env());
      const revokedAt = Date.now();
      assert.equal(revoked.code, 0, revoked.stderr);
      assert.equal(revoked.stdout, `revoked ${id}\n`);
      let status = 200;
      while (status !== 401 && Date.now() - revokedAt < 1500) {
        status = (await search(key)).statusCode;
        if (status !== 401) await sleep(50);
      }
      assert.equal(status, 401);
      assert.ok(Date.now() - revokedAt < 1000, `refused after ${Date.now() - revokedAt} ms`);

      const [again, relisted] = await Promise.all([thread.cli(['keys', 'revoke', id], env()), thread.cli(['keys', 'list'], env())]);
      assert.equal(again.code, 1);
      assert.match(again.stderr, new RegExp(`no active key with id ${id}`));
      assert.match(relisted.stdout, new RegExp(`^${id} cli-user all,admin \\S+ revoked$`, 'm'));
    });
  });
}

describe('ordergate usage errors', () => {
  let thread: CliThread;
  before(() => (thread = new CliThread()));
  after(() => thread.close());
  test('missing or wrong arguments exit 2 with the usage line; nothing is printed on stdout', async () => {
    const database = await createTestDatabase('sqlite');
    try {
      const env = { DATABASE_URL: database.url };
      const [noName, badName, badPermission, noId, unknown] = await Promise.all([
        thread.cli(['keys', 'create'], env),
        thread.cli(['keys', 'create', '--name', 'two words'], env),
        thread.cli(['keys', 'create', '--name', 'x', '--permissions', 'all,root'], env),
        thread.cli(['keys', 'revoke'], env),
        thread.cli(['keys', 'rotate'], env),
      ]);
      assert.equal(noName.code, 2);
      assert.match(noName.stderr, /--name is required\nusage: ordergate keys create --name NAME --permissions all\[,admin\]/);
      assert.equal(badName.code, 2);
      assert.match(badName.stderr, /--name takes 1 to 64 letters/);
      assert.equal(badPermission.code, 2);
      assert.match(badPermission.stderr, /unknown permission 'root'/);
      assert.equal(noId.code, 2);
      assert.match(noId.stderr, /the key id is required/);
      assert.equal(unknown.code, 2);
      assert.match(unknown.stderr, /unknown command: keys rotate/);
      for (const r of [noName, badName, badPermission, noId]) assert.equal(r.stdout, '');
    } finally {
      await database.drop();
    }
  });
});
