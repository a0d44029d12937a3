import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { promisify } from 'node:util';
import { sql } from 'kysely';
import { upsertCustomer, searchCustomers } from '../../src/customers/customer.service.js';
import { toCustomer } from '../../src/customers/customer.mapping.js';
import type { Customer } from '../../src/customers/customer.schemas.js';
import { migrateToLatest } from '../../src/store/migrate.js';
import { openStore } from '../../src/store/open-store.js';
import type { Store } from '../../src/store/store.js';
import { BIN as CLI } from '../helpers/root.js';
import { createTestDatabase, openTestWrites, type TestDatabase, allBackends, leftOut } from '../helpers/test-store.js';
import { storeDigest } from '../helpers/store-snapshot.js';

const exec = promisify(execFile);

async function allCustomers(store: Store): Promise<Customer[]> {
  const { customers } = await searchCustomers(store, {});
  if (Array.isArray(customers)) return customers;
  const out: Customer[] = [];
  for await (const rows of customers) out.push(...rows.map(toCustomer));
  return out;
}

for (const backend of allBackends(true)) {
  describe(`backup and restore through the CLI [${backend}]`, { skip: leftOut(backend) }, () => {
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
      await upsertCustomer(openTestWrites(store), { CustomerId: 'b-1', FirstName: 'Before' });
      await upsertCustomer(openTestWrites(store), { CustomerId: 'b-2', ExternalId: 'bx-2', City: 'Bonn' });
      const saved = await allCustomers(store);
      const file = join(dir, 'snapshot.backup');
      const env = { ...process.env, ...database.env, LOG_LEVEL: 'silent' };

      const backup = await exec(process.execPath, [CLI, 'backup', file], { env });
      assert.match(backup.stdout, /backup written to/);
      assert.deepEqual(readdirSync(dir), ['snapshot.backup'], 'one self-contained file, no -wal/-shm or partial beside it');

      await upsertCustomer(openTestWrites(store), { CustomerId: 'b-1', FirstName: 'After' });
      await upsertCustomer(openTestWrites(store), { CustomerId: 'b-3', FirstName: 'New' });
      assert.equal((await allCustomers(store)).length, 3);

      const restore = await exec(process.execPath, [CLI, 'restore', file, '--yes'], { env });
      assert.match(restore.stdout, /restored/);
      // The open store sees the restored content without a restart.
      assert.deepEqual(await allCustomers(store), saved);
      if (backend === 'pgbouncer') {
        // pg_restore empties search_path for its session: through the pooler, that would stay on a
        // server connection that the service's unqualified queries then get. DATABASE_DIRECT_URL
        // keeps it off the pool; as many transactions at once as the store may open see every
        // server connection the pool had.
        const held = await Promise.all(Array.from({ length: 10 }, () => store.db.startTransaction().execute()));
        try {
          for (const trx of held)
            assert.equal((await sql<{ p: string }>`select current_setting('search_path') as p`.execute(trx)).rows[0]!.p, '"$user", public');
        } finally {
          for (const trx of held) await trx.rollback().execute();
        }
      }
    });

    test('a missing backup file is refused as a missing file (exit 2) and changes nothing', async () => {
      const env = { ...process.env, ...database.env, LOG_LEVEL: 'silent' };
      const before = await allCustomers(store);
      const missing = join(dir, 'nope.backup');
      await assert.rejects(exec(process.execPath, [CLI, 'restore', missing], { env }), (err: { code?: number; stderr?: string }) => {
        assert.equal(err.code, 2);
        assert.equal(err.stderr, `ordergate: no such file: ${missing}\nusage: ordergate restore <file> [--yes]\n`);
        return true;
      });
      assert.deepEqual(await allCustomers(store), before);
    });

    test('a backup into a missing directory is refused (exit 2); the directory is not created', async () => {
      const env = { ...process.env, ...database.env, LOG_LEVEL: 'silent' };
      const target = join(dir, 'no-such-dir', 'x.backup');
      await assert.rejects(exec(process.execPath, [CLI, 'backup', target], { env }), (err: { code?: number; stderr?: string }) => {
        assert.equal(err.code, 2);
        assert.match(err.stderr ?? '', /^ordergate: no such directory: .*no-such-dir\n/);
        return true;
      });
      assert.equal(existsSync(join(dir, 'no-such-dir')), false);
    });

    describe('a damaged backup file', () => {
      let good: Buffer;
      let env: NodeJS.ProcessEnv;
      before(async () => {
        env = { ...process.env, ...database.env, LOG_LEVEL: 'silent' };
        // Enough rows for the file to span many pages (SQLite) or a sizeable compressed data block (pg_dump).
        for (let i = 0; i < 300; i++)
          await upsertCustomer(openTestWrites(store), {
            CustomerId: `dmg-${i}`,
            FirstName: `First ${i}`,
            City: `City ${i} ${'x'.repeat(100)}`,
          });
        const file = join(dir, 'good.backup');
        await exec(process.execPath, [CLI, 'backup', file], { env });
        good = readFileSync(file);
        // The store then moves on, so that a restore that went through would show.
        await upsertCustomer(openTestWrites(store), { CustomerId: 'dmg-after', FirstName: 'After the backup' });
      });

      /** Restores `bytes` and asserts the refusal: exit code 1, a message naming the file, the store unchanged. */
      async function assertRefused(name: string, bytes: Buffer): Promise<string> {
        const file = join(dir, name);
        writeFileSync(file, bytes);
        const digest = await storeDigest(store);
        const fileBefore = sqliteFile ? createHash('sha256').update(readFileSync(sqliteFile)).digest('hex') : undefined;
        let stderr = '';
        await assert.rejects(
          exec(process.execPath, [CLI, 'restore', file, '--yes'], { env }),
          (err: { code?: number; stderr?: string; stdout?: string }) => {
            assert.equal(err.code, 1, `exit code; stderr: ${err.stderr}`);
            assert.doesNotMatch(err.stdout ?? '', /restored/);
            stderr = err.stderr ?? '';
            return true;
          },
        );
        assert.match(stderr, /^ordergate: /m);
        assert.ok(stderr.includes(file), `the message names the file: ${stderr}`);
        assert.doesNotMatch(stderr, /\bat .+:\d+:\d+/, 'no stack trace');
        assert.equal(await storeDigest(store), digest, 'the store is unchanged');
        if (sqliteFile)
          assert.equal(createHash('sha256').update(readFileSync(sqliteFile)).digest('hex'), fileBefore, 'the database file is unchanged');
        return stderr;
      }

      let sqliteFile: string | undefined;
      before(() => {
        sqliteFile = backend === 'sqlite' ? database.url.slice('sqlite:'.length) : undefined;
      });

      test('truncated to half its length: refused, the store unchanged', async () => {
        const stderr = await assertRefused('truncated.backup', good.subarray(0, Math.floor(good.length / 2)));
        assert.match(stderr, /damaged|not a valid|malformed|end of file|could not read/i);
      });

      test('4 KiB overwritten in the middle: refused, the store unchanged', async () => {
        const damaged = Buffer.from(good);
        const at = Math.floor(damaged.length / 2 / 4096) * 4096;
        // Fixed garbage (not random): the test fails or passes the same way every run.
        for (let i = 0; i < 4096; i++) damaged[at + i] = (i * 131 + 7) & 0xff;
        const stderr = await assertRefused('overwritten.backup', damaged);
        assert.match(stderr, /damaged|not a valid|malformed|corrupt|could not|error/i);
      });

      test('a file that is not a backup at all: refused, the store unchanged', async () => {
        const stderr = await assertRefused('text.backup', Buffer.from('customer_id,first_name\nc-1,Jane\n'.repeat(500)));
        assert.match(stderr, /damaged|not a valid|not a database|does not appear/i);
      });

      test('an empty file: refused, the store unchanged', async () => {
        await assertRefused('empty.backup', Buffer.alloc(0));
      });
    });
  });
}
