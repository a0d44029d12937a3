import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { sql } from 'kysely';
import type { Store } from '../../src/store/store.js';
import { createTestStore } from '../helpers/test-store.js';

// The SQLite reader runs the hand-written statements on its connection without Kysely
// (store/sqlite/sqlite-sql.ts, readDirectly): what the callers get must be what Kysely's driver gave.
let store: Store;
let close: () => Promise<void>;

before(async () => {
  ({ store, close } = await createTestStore('sqlite'));
});

after(async () => close());

test('the reader answers run, runRows and rows as Kysely does, on the same statement', async () => {
  const text = 'select last_stamp as stamp, 7 as seven from sync_clock where id = ?';
  const direct = await store.reader.run<{ stamp: number; seven: number }>(text, [1]);
  const viaKysely = await store.db.run<{ stamp: number; seven: number }>(text, [1]);
  assert.deepEqual(direct.rows, viaKysely.rows);
  assert.equal(direct.rows.length, 1);
  assert.equal(direct.rows[0]!.seven, 7);
  const rows = await store.reader.runRows<{ stamp: number; seven: number }>(text, [1], ['stamp', 'seven']);
  assert.deepEqual(rows, viaKysely.rows);
  const compiled = store.reader.selectFrom('sync_clock').select(['id', 'last_stamp']).where('id', '=', 1).compile();
  const built = await store.reader.rows<{ id: number; last_stamp: number }>(compiled, ['id', 'last_stamp']);
  assert.deepEqual(built, [{ id: 1, last_stamp: viaKysely.rows[0]!.stamp }]);
});

test('a statement the reader cannot run rejects with the driver error, and the next one runs', async () => {
  await assert.rejects(store.reader.run('select no_such_column from sync_clock', []), /no such column/);
  await assert.rejects(store.reader.runRows('select * from no_such_table', [], []), /no such table/);
  assert.equal((await store.reader.run('select 1 as one', [])).rows.length, 1);
});

test('a write transaction left open does not show its rows to the reader, which does not wait for it', async () => {
  const text = 'select last_stamp from sync_clock where id = ?';
  const before = (await store.reader.run<{ last_stamp: number }>(text, [1])).rows[0]!.last_stamp;
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  let written!: () => void;
  const wrote = new Promise<void>((resolve) => (written = resolve));
  const transaction = store.writeTransaction(async (trx) => {
    await sql`update sync_clock set last_stamp = last_stamp + 1000 where id = 1`.execute(trx);
    written();
    await held;
  });
  await wrote;
  const during = (await store.reader.run<{ last_stamp: number }>(text, [1])).rows[0]!.last_stamp;
  release();
  await transaction;
  const afterCommit = (await store.reader.run<{ last_stamp: number }>(text, [1])).rows[0]!.last_stamp;
  assert.equal(during, before);
  assert.equal(afterCommit, Number(before) + 1000);
});
