import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { GroupCommit } from '../../src/writes/group-commit.js';
import { writeRegistry } from '../../src/write-registry.js';
import { RetryWork, type Unit } from '../../src/writes/unit.js';
import { orderRepository } from '../../src/orders/order.repository.js';
import type { Store } from '../../src/store/store.js';
import { openStore } from '../../src/store/open-store.js';
import { createTestStore, type TestDatabase, allBackends, leftOut } from '../helpers/test-store.js';
import { unique } from '../orders/order-fixtures.js';

/** Stamping that records which customers each transaction touched, instead of stamping them. */
const recording = (batches: string[][]) => ({
  outbox: writeRegistry.outbox,
  stampers: {
    customer: async (_db: unknown, ids: readonly string[]) => void batches.push([...ids].sort()),
    order: async () => undefined,
  },
});
const numbersIn = async (store: Store, numbers: string[]): Promise<string[]> =>
  (await store.reader.selectFrom('orders').select('order_number').where('order_number', 'in', numbers).execute())
    .map((r) => r.order_number)
    .sort();

for (const backend of allBackends()) {
  describe(`group commit [${backend}]`, { skip: leftOut(backend) }, () => {
    let store: Store;
    let database: TestDatabase;
    let close: () => Promise<void>;
    before(async () => {
      ({ store, database, close } = await createTestStore(backend));
    });
    after(async () => close());

    test('work that arrives together commits in one transaction; a failing unit is rolled back alone', async () => {
      const batches: string[][] = [];
      const commits = new GroupCommit(store, recording(batches));
      const tag = unique();
      const insert = (n: string, fail = false) =>
        commits.run(async (unit) => {
          await orderRepository.insert(unit.db, { order_number: `${tag}-${n}`, note: null, created_at: Date.now() });
          unit.touch('customer', n);
          if (fail) throw new Error(`unit ${n} fails`);
          return n;
        });
      const results = await Promise.allSettled([insert('a'), insert('b', true), insert('c')]);
      assert.deepEqual(
        results.map((r) => r.status),
        ['fulfilled', 'rejected', 'fulfilled'],
      );
      assert.match(String((results[1] as PromiseRejectedResult).reason), /unit b fails/);
      assert.deepEqual(batches, [['a', 'c']]);
      assert.deepEqual(await numbersIn(store, [`${tag}-a`, `${tag}-b`, `${tag}-c`]), [`${tag}-a`, `${tag}-c`]);
    });

    test('a unit that lost a race runs again in a fresh savepoint', async () => {
      const commits = new GroupCommit(store, recording([]));
      const tag = unique();
      let attempts = 0;
      const result = await commits.run(async (unit) => {
        attempts++;
        assert.equal(unit.attempt, attempts);
        await orderRepository.insert(unit.db, { order_number: `${tag}-${attempts}`, note: null, created_at: Date.now() });
        if (attempts < 3) throw new RetryWork();
        return attempts;
      });
      assert.equal(result, 3);
      assert.deepEqual(await numbersIn(store, [`${tag}-1`, `${tag}-2`, `${tag}-3`]), [`${tag}-3`]);
    });

    test('when the transaction fails, every unit fails and nothing is committed; the queue goes on', async () => {
      let failFinish = true;
      const commits = new GroupCommit(store, {
        outbox: writeRegistry.outbox,
        stampers: {
          customer: async () => {
            if (failFinish) throw Object.assign(new Error('disk full'), { code: 'SQLITE_FULL' });
          },
          order: async () => undefined,
        },
      });
      const tag = unique();
      const insert = (n: string) =>
        commits.run(async (unit) => {
          unit.touch('customer', n);
          return orderRepository.insert(unit.db, { order_number: `${tag}-${n}`, note: null, created_at: Date.now() });
        });
      const results = await Promise.allSettled([insert('a'), insert('b')]);
      assert.deepEqual(
        results.map((r) => r.status),
        ['rejected', 'rejected'],
      );
      assert.deepEqual(await numbersIn(store, [`${tag}-a`, `${tag}-b`]), []);
      failFinish = false;
      await insert('c');
      assert.deepEqual(await numbersIn(store, [`${tag}-c`]), [`${tag}-c`]);
    });

    test('a promise settles only once its transaction is visible to other connections', async () => {
      const commits = new GroupCommit(store, recording([]));
      const tag = unique();
      const seen = await Promise.all(
        Array.from({ length: 20 }, async (_, i) => {
          await commits.run((unit) => orderRepository.insert(unit.db, { order_number: `${tag}-${i}`, note: null, created_at: Date.now() }));
          return (await numbersIn(store, [`${tag}-${i}`])).length;
        }),
      );
      assert.deepEqual(seen, Array(20).fill(1));
    });

    test('two transactions that lock rows in opposite order: the one the database aborts runs again, unit by unit', async () => {
      const other = openStore(database.url, { poolSize: 2 });
      try {
        const tag = unique();
        const [x, y] = [
          await orderRepository.insert(store.db, { order_number: `${tag}-x`, note: null, created_at: 0 }),
          await orderRepository.insert(store.db, { order_number: `${tag}-y`, note: null, created_at: 0 }),
        ];
        const note = (unit: Unit, id: number, text: string) =>
          unit.db.updateTable('orders').set({ note: text }).where('order_id', '=', id).execute();
        let aHasX!: () => void;
        let bHasY!: () => void;
        const aLocked = new Promise<void>((r) => (aHasX = r));
        const bLocked = new Promise<void>((r) => (bHasY = r));
        const a = new GroupCommit(store, recording([]));
        const b = new GroupCommit(other, recording([]));
        // Within one SQLite file the write lock serialises the two; on PostgreSQL they deadlock.
        const wait = (p: Promise<void>) => (backend === 'postgres' ? p : Promise.resolve());
        const units = [
          a.run(async (unit) => void (await note(unit, x, 'a1'), aHasX(), await wait(bLocked))),
          a.run(async (unit) => void (await note(unit, y, 'a2'))),
          b.run(async (unit) => void (await note(unit, y, 'b1'), bHasY(), await wait(aLocked))),
          b.run(async (unit) => void (await note(unit, x, 'b2'))),
        ];
        const results = await Promise.allSettled(units);
        assert.deepEqual(
          results.map((r) => r.status),
          ['fulfilled', 'fulfilled', 'fulfilled', 'fulfilled'],
          JSON.stringify(results),
        );
        const notes = await store.reader.selectFrom('orders').select('note').where('order_id', 'in', [x, y]).orderBy('order_id').execute();
        assert.equal(notes.length, 2);
      } finally {
        await other.close();
      }
    });
  });
}
