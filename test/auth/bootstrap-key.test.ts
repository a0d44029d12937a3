import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { listAudit } from '../../src/audit/audit.service.js';
import { listKeys } from '../../src/auth/key.service.js';
import { ensureBootstrapKey } from '../../src/keys/key.writes.js';
import { migrateToLatest } from '../../src/store/migrate.js';
import { openStore } from '../../src/store/open-store.js';
import { createTestDatabase, openTestWrites, allBackends, leftOut } from '../helpers/test-store.js';

const GIVEN = 'og_given_bootstrap_key_0123456789abcdefghij';

for (const backend of allBackends()) {
  describe(`first key [${backend}]`, { skip: leftOut(backend) }, () => {
    test('only when no key exists: one all,admin key, generated (returned once) or the given one', async () => {
      const database = await createTestDatabase(backend);
      const store = openStore(database.url, { poolSize: 2 });
      try {
        await migrateToLatest(store);
        const first = await ensureBootstrapKey(openTestWrites(store), undefined);
        assert.equal(first.created, true);
        assert.match(first.key ?? '', /^og_[A-Za-z0-9_-]{54}$/);
        assert.deepEqual(await ensureBootstrapKey(openTestWrites(store), undefined), { created: false });
        assert.deepEqual(
          await ensureBootstrapKey(openTestWrites(store), GIVEN),
          { created: false },
          'a given key is ignored once a key exists',
        );
        const keys = await listKeys(store);
        assert.equal(keys.length, 1);
        assert.deepEqual([keys[0]!.name, keys[0]!.permissions, keys[0]!.id], ['bootstrap', 'all,admin', first.key!.slice(0, 12)]);
        const audit = (await listAudit(store, 0, 10)).map((e) => [e.key_id, e.action, e.resource_type, e.resource_ids]);
        assert.deepEqual(
          audit,
          [['bootstrap', 'key.create', 'key', JSON.stringify([keys[0]!.id])]],
          'the first key is in the audit log once',
        );
      } finally {
        await store.close();
        await database.drop();
      }
    });

    if (backend === 'postgres') {
      // SQLite serialises this with BEGIN IMMEDIATE across processes; in one process a second
      // connection would only wait on the first, so only PostgreSQL is raced here.
      test('instances starting together on an empty database create one key between them', async () => {
        for (const given of [undefined, GIVEN]) {
          const database = await createTestDatabase(backend);
          const stores = Array.from({ length: 4 }, () => openStore(database.url, { poolSize: 2 }));
          try {
            await migrateToLatest(stores[0]!);
            const results = await Promise.all(stores.map((s) => ensureBootstrapKey(openTestWrites(s), given)));
            assert.equal(results.filter((r) => r.created).length, 1, JSON.stringify(results));
            assert.equal((await listKeys(stores[0]!)).length, 1);
          } finally {
            for (const s of stores) await s.close();
            await database.drop();
          }
        }
      });
    }
  });
}
