import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { sql, type Kysely } from 'kysely';
import { MIGRATIONS, migrateToLatest } from '../../src/store/migrate.js';
import { openStore } from '../../src/store/open-store.js';
import type { Store } from '../../src/store/store.js';
import { assertBuilt, runCli } from '../helpers/cli.js';
import { createTestDatabase, isPostgres, allBackends, leftOut } from '../helpers/test-store.js';

const TABLES = ['api_keys', 'custom_field_defs', 'custom_field_values', 'customers', 'idempotency_keys', 'orders', 'sync_clock'];
const INDEXES = [
  'customers_external_id',
  'customers_sync_order',
  'orders_customer_id',
  'idempotency_keys_created_at',
  'custom_field_values_number',
];

async function indexNames(store: Store, backend: string): Promise<string[]> {
  const rows =
    backend === 'sqlite'
      ? (await sql<{ name: string }>`select name from sqlite_master where type = 'index'`.execute(store.db)).rows
      : (await sql<{ name: string }>`select indexname as name from pg_indexes where schemaname = 'public'`.execute(store.db)).rows;
  return rows.map((r) => r.name);
}

/** Advisory locks held on the store's database, by any session (PostgreSQL). */
async function advisoryLocks(store: Store): Promise<number> {
  const query = sql<{ n: number }>`select count(*)::int as n from pg_locks l join pg_database d on d.oid = l.database
    where l.locktype = 'advisory' and d.datname = current_database()`;
  return (await query.execute(store.db)).rows[0]!.n;
}

async function pragma(store: Store, name: string): Promise<unknown> {
  const rows = (await sql.raw<Record<string, unknown>>(`pragma ${name}`).execute(store.db)).rows;
  return Object.values(rows[0] ?? {})[0];
}

for (const backend of allBackends(true)) {
  describe(`migrations [${backend}]`, { skip: leftOut(backend) }, () => {
    test('migrate applies every migration once; a second run applies nothing; tables and indexes exist', async () => {
      const database = await createTestDatabase(backend);
      const store = openStore(database.url, { poolSize: 2 });
      try {
        const first = await migrateToLatest(store);
        assert.equal(first[0], '001-initial');
        assert.deepEqual([...first].sort(), first, 'applied in name order');
        assert.deepEqual(await migrateToLatest(store), [], 'idempotent');
        const tables = (await store.db.introspection.getTables()).map((t) => t.name);
        for (const table of TABLES) assert.ok(tables.includes(table), `table ${table}`);
        assert.ok(tables.includes('schema_migrations'));
        const indexes = await indexNames(store, backend);
        for (const index of INDEXES) assert.ok(indexes.includes(index), `index ${index}`);
        const customers = (await store.db.introspection.getTables()).find((t) => t.name === 'customers')!;
        assert.ok(customers.columns.some((c) => c.name === 'modified_at' && !c.isNullable));
        const clock = await store.db.selectFrom('sync_clock').selectAll().execute();
        assert.equal(clock.length, 1, 'the sync clock row is seeded');
      } finally {
        await store.close();
        await database.drop();
      }
    });

    test('`ordergate migrate` from two processes at once: both succeed, one applies, the other finds it up to date', async () => {
      assertBuilt();
      const database = await createTestDatabase(backend);
      try {
        const results = await Promise.all([runCli(['migrate'], database.env), runCli(['migrate'], database.env)]);
        for (const r of results) assert.equal(r.code, 0, r.stderr);
        const applied = results.filter((r) => r.stdout.startsWith('applied: 001-initial'));
        assert.equal(applied.length, 1, results.map((r) => r.stdout).join(' | '));
        assert.ok(results.some((r) => r.stdout === 'up to date\n'));
      } finally {
        await database.drop();
      }
    });

    test('a failing migration leaves nothing behind: its cause is the error, and the next run starts clean', async () => {
      const database = await createTestDatabase(backend);
      const store = openStore(database.url, { poolSize: 2 });
      const failing = {
        ...MIGRATIONS,
        '999-fails': {
          up: async (db: Kysely<any>) => {
            await db.schema.createTable('half_done').addColumn('x', 'integer').execute();
            throw new Error('the migration broke');
          },
        },
      };
      try {
        await assert.rejects(migrateToLatest(store, failing), /the migration broke/);
        const tables = (await store.db.introspection.getTables()).map((t) => t.name);
        assert.ok(!tables.includes('half_done') && !tables.includes('customers'), `rolled back as a whole: ${tables.join(', ')}`);
        if (isPostgres(backend)) assert.equal(await advisoryLocks(store), 0, 'no migration lock outlives the run');
        assert.equal((await migrateToLatest(store)).length, Object.keys(MIGRATIONS).length);
      } finally {
        await store.close();
        await database.drop();
      }
    });

    test('migrations run in the code-point order of their names, and a later run agrees (a locale would put 999-a first)', async () => {
      const database = await createTestDatabase(backend);
      const store = openStore(database.url, { poolSize: 2 });
      const applied: string[] = [];
      const noting = (name: string) => ({ up: async () => void applied.push(name) });
      // A locale's collation puts 'a' before 'B'; code points put 'B' (66) before 'a' (97).
      const migrations = { ...MIGRATIONS, '999-a': noting('999-a'), '999-B': noting('999-B') };
      try {
        const result = await migrateToLatest(store, migrations);
        assert.deepEqual(result.slice(-2), ['999-B', '999-a']);
        assert.deepEqual(applied, ['999-B', '999-a']);
        // Applied in the same millisecond, the two are ordered by name when the next run checks them.
        assert.deepEqual(await migrateToLatest(store, migrations), []);
      } finally {
        await store.close();
        await database.drop();
      }
    });

    if (isPostgres(backend)) {
      test('several stores migrating at once, round after round: one applies, and no lock outlives a run (a session lock would stay on a pooled connection)', async () => {
        const database = await createTestDatabase(backend);
        const stores = [1, 2, 3, 4].map(() => openStore(database.url, { poolSize: 2 }));
        try {
          for (let round = 0; round < 3; round++) {
            const applied = await Promise.all(stores.map((s) => migrateToLatest(s)));
            assert.equal(applied.filter((a) => a.length > 0).length, round === 0 ? 1 : 0, `round ${round}`);
            assert.equal(await advisoryLocks(stores[0]!), 0, `round ${round}: no lock left`);
          }
        } finally {
          for (const s of stores) await s.close();
          await database.drop();
        }
      });
    }

    if (backend === 'sqlite') {
      test('SQLite runs with WAL, foreign keys, a busy timeout and synchronous=FULL', async () => {
        const database = await createTestDatabase(backend);
        const store = openStore(database.url);
        try {
          await migrateToLatest(store);
          assert.equal(await pragma(store, 'journal_mode'), 'wal');
          assert.equal(await pragma(store, 'foreign_keys'), 1);
          assert.equal(await pragma(store, 'synchronous'), 2);
          assert.ok(Number(await pragma(store, 'busy_timeout')) >= 1000);
        } finally {
          await store.close();
          await database.drop();
        }
      });
    }
  });
}

describe('migrate against a store that cannot be reached', () => {
  test('`ordergate migrate` exits 1 with a message, no stack trace', async () => {
    assertBuilt();
    const res = await runCli(['migrate'], { DATABASE_URL: 'postgres://postgres@127.0.0.1:1/none' });
    assert.equal(res.code, 1);
    assert.match(res.stderr, /^ordergate: /);
    assert.doesNotMatch(res.stderr, /\n\s+at /);
  });
});
