import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { sql } from 'kysely';
import { buildApp } from '../../src/app.js';
import { createKey } from '../../src/auth/key.service.js';
import { loadConfig } from '../../src/config.js';
import { migrateToLatest } from '../../src/store/migrate.js';
import { openStore } from '../../src/store/open-store.js';
import type { Store } from '../../src/store/store.js';
import { CLI } from '../helpers/spawn-server.js';
import { createTestDatabase, openTestWrites, type TestDatabase, allBackends, leftOut } from '../helpers/test-store.js';

// Four batches: the kill waits for the first to land, and three remain for it to interrupt.
const ROWS = 20_000;
/** Rows per write transaction of `customers import` (docs/customers.md). */
const BATCH = 5_000;

function importCommand(databaseUrl: string, file: string) {
  const child = spawn(process.execPath, [CLI, 'customers', 'import', file], {
    env: { ...process.env, DATABASE_URL: databaseUrl, LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (output += d.toString()));
  const exited = new Promise<number | string>((resolve) => child.on('exit', (code, signal) => resolve(code ?? signal ?? -1)));
  return { child, exited, output: () => output };
}

interface Imported {
  readonly rows: Array<{
    customer_id: string;
    first_name: string | null;
    last_name: string | null;
    city: string | null;
    modified_at: number | string;
  }>;
  readonly values: Map<string, string>;
}

async function imported(store: Store): Promise<Imported> {
  const rows = await store.db
    .selectFrom('customers')
    .select(['customer_id', 'first_name', 'last_name', 'city', 'modified_at'])
    .where('customer_id', 'like', 'imp-%')
    .execute();
  const values = await store.db
    .selectFrom('custom_field_values')
    .select(['customer_id', 'value'])
    .where('customer_id', 'like', 'imp-%')
    .execute();
  return { rows: rows as Imported['rows'], values: new Map(values.map((v) => [v.customer_id, String(v.value)])) };
}

const countImported = async (store: Store): Promise<number> =>
  Number(
    (await sql<{ n: number | string }>`select count(*) as n from customers where customer_id like 'imp-%'`.execute(store.db)).rows[0]!.n,
  );

/** Whole batches only, in file order, each row complete with its custom-field value. */
function assertWholeBatches(got: Imported, context: string): number {
  const n = got.rows.length;
  assert.equal(n % BATCH, 0, `${context}: ${n} rows is not a whole number of batches`);
  const ids = new Set(got.rows.map((r) => r.customer_id));
  for (let i = 0; i < n; i++) assert.ok(ids.has(`imp-${i}`), `${context}: the first ${n} rows of the file are there (imp-${i} is missing)`);
  for (const r of got.rows) {
    const i = r.customer_id.slice(4);
    assert.equal(r.first_name, `F${i}`, `${context}: ${r.customer_id} FirstName`);
    assert.equal(r.last_name, `L${i}`, `${context}: ${r.customer_id} LastName`);
    assert.equal(r.city, 'Importville', `${context}: ${r.customer_id} City`);
    // Stored as JSON text (src/customfields).
    assert.equal(got.values.get(r.customer_id), JSON.stringify(`v${i}`), `${context}: ${r.customer_id} custom field`);
  }
  assert.equal(got.values.size, n, `${context}: custom-field values of exactly the imported rows`);
  // One stamp per batch: the sync feed sees each batch appear at once.
  assert.equal(new Set(got.rows.map((r) => String(r.modified_at))).size, n / BATCH, `${context}: one modification stamp per batch`);
  return n;
}

for (const backend of allBackends()) {
  describe(`SIGKILL during customers import [${backend}]`, { skip: leftOut(backend) }, () => {
    let database: TestDatabase;
    let dir: string;
    let store: Store;
    before(async () => {
      database = await createTestDatabase(backend);
      dir = mkdtempSync(join(tmpdir(), 'ordergate-import-crash-'));
      store = openStore(database.url, { poolSize: 2 });
      await migrateToLatest(store);
      // The custom field the file fills, defined through the API as an operator would.
      const app = await buildApp({ config: loadConfig({ LOG_LEVEL: 'silent', DATABASE_URL: database.url }), store });
      const { key } = await createKey(openTestWrites(store), 'import-crash', 'all,admin');
      const res = await app.inject({
        method: 'PUT',
        url: '/customfields/1',
        headers: { authorization: `Bearer ${key}` },
        payload: { Label: 'Tag', FieldType: 'Text' },
      });
      assert.equal(res.statusCode, 201, res.body);
      await app.close();
    });
    after(async () => {
      await store?.close();
      rmSync(dir, { recursive: true, force: true });
      await database?.drop();
    });

    test('killed mid-way, the store holds whole batches only; run again, the import completes', async () => {
      const file = join(dir, 'big.csv');
      const lines = ['CustomerId,FirstName,LastName,City,cf.1'];
      for (let i = 0; i < ROWS; i++) lines.push(`imp-${i},F${i},L${i},Importville,v${i}`);
      writeFileSync(file, lines.join('\n') + '\n');

      const first = importCommand(database.url, file);
      let seen = 0;
      let ended: number | string | undefined;
      void first.exited.then((code) => (ended = code));
      // Killed once a batch has landed (the rows are checked first, then written batch by batch).
      while (ended === undefined && seen < BATCH) {
        await sleep(10);
        seen = await countImported(store);
      }
      first.child.kill('SIGKILL');
      assert.equal(await first.exited, 'SIGKILL', `the import was still running when killed: ${first.output()}`);
      const partial = assertWholeBatches(await imported(store), 'after the kill');
      assert.ok(partial >= BATCH && partial < ROWS, `the kill came mid-way (${partial} of ${ROWS} rows)`);

      const again = importCommand(database.url, file);
      assert.equal(await again.exited, 0, again.output());
      assert.equal(assertWholeBatches(await imported(store), 'after the second run'), ROWS);
    });
  });
}
