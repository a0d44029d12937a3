import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { promisify } from 'node:util';
import { upsertCustomer, searchCustomers } from '../../src/customers/customer.service.js';
import type { Customer } from '../../src/customers/customer.schemas.js';
import { migrateToLatest } from '../../src/store/migrate.js';
import { openStore } from '../../src/store/open-store.js';
import type { Store } from '../../src/store/store.js';
import { BACKENDS, createTestDatabase, type TestDatabase } from '../helpers/test-store.js';

const exec = promisify(execFile);
const CLI = join(import.meta.dirname, '../../bin/ordergate.js');

async function allCustomers(store: Store): Promise<Customer[]> {
  const { customers } = await searchCustomers(store, {});
  const out: Customer[] = [];
  for await (const c of customers) out.push(c);
  return out;
}

for (const backend of BACKENDS) {
  describe(`backup and restore through the CLI [${backend}]`, () => {
    let database: TestDatabase;
    let store: Store;
    let dir: string;
    before(async () => {
      database = await createTestDatabase(backend);
      store = openStore(database.url);
      await migrateToLatest(store);
      dir = mkdtempSync(join(tmpdir(), 'ordergate-backup-'));
    });
    after(async () => {
      await store.close();
      await database.drop();
      rmSync(dir, { recursive: true, force: true });
    });

    test('a backup taken while the store is open restores exactly the state it saw', async () => {
      await upsertCustomer(store, { CustomerId: 'b-1', FirstName: 'Before' });
      await upsertCustomer(store, { CustomerId: 'b-2', ExternalId: 'bx-2', City: 'Bonn' });
      const saved = await allCustomers(store);
      const file = join(dir, 'snapshot.backup');
      const env = { ...process.env, DATABASE_URL: database.url, LOG_LEVEL: 'silent' };

      const backup = await exec(process.execPath, [CLI, 'backup', file], { env });
      assert.match(backup.stdout, /backup written to/);

      await upsertCustomer(store, { CustomerId: 'b-1', FirstName: 'After' });
      await upsertCustomer(store, { CustomerId: 'b-3', FirstName: 'New' });
      assert.equal((await allCustomers(store)).length, 3);

      const restore = await exec(process.execPath, [CLI, 'restore', file], { env });
      assert.match(restore.stdout, /restored/);
      // The open store sees the restored content without a restart.
      assert.deepEqual(await allCustomers(store), saved);
    });

    test('a missing or damaged backup file is refused and changes nothing', async () => {
      const env = { ...process.env, DATABASE_URL: database.url, LOG_LEVEL: 'silent' };
      const before = await allCustomers(store);
      await assert.rejects(exec(process.execPath, [CLI, 'restore', join(dir, 'nope.backup')], { env }), (err: { code?: number; stderr?: string }) => {
        assert.equal(err.code, 1);
        assert.ok(err.stderr && err.stderr.length > 0);
        return true;
      });
      assert.deepEqual(await allCustomers(store), before);
    });
  });
}
