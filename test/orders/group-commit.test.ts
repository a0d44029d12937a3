import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { GroupCommit, RetryWork } from '../../src/orders/group-commit.js';
import { orderRepository } from '../../src/orders/order.repository.js';
import type { Store } from '../../src/store/store.js';
import { BACKENDS, createTestStore } from '../helpers/test-store.js';
import { unique } from './order-fixtures.js';

const numbersIn = async (store: Store, numbers: string[]): Promise<string[]> =>
  (await store.reader.selectFrom('orders').select('order_number').where('order_number', 'in', numbers).execute()).map((r) => r.order_number).sort();

for (const backend of BACKENDS) {
  describe(`group commit [${backend}]`, () => {
    let store: Store;
    let close: () => Promise<void>;
    before(async () => {
      ({ store, close } = await createTestStore(backend));
    });
    after(async () => close());

    test('work that arrives together commits in one transaction; a failing unit is rolled back alone', async () => {
      const batches: string[][] = [];
      const commits = new GroupCommit(store, { finish: async (_trx, touched) => void batches.push([...touched].sort()) });
      const tag = unique();
      const insert = (n: string, fail = false) =>
        commits.run(async (trx, ctx) => {
          await orderRepository.insert(trx, { order_number: `${tag}-${n}`, note: null, created_at: Date.now() });
          ctx.touchCustomer(n);
          if (fail) throw new Error(`unit ${n} fails`);
          return n;
        });
      const results = await Promise.allSettled([insert('a'), insert('b', true), insert('c')]);
      assert.deepEqual(results.map((r) => r.status), ['fulfilled', 'rejected', 'fulfilled']);
      assert.match(String((results[1] as PromiseRejectedResult).reason), /unit b fails/);
      assert.deepEqual(batches, [['a', 'c']]);
      assert.deepEqual(await numbersIn(store, [`${tag}-a`, `${tag}-b`, `${tag}-c`]), [`${tag}-a`, `${tag}-c`]);
    });

    test('a unit that lost a race runs again in a fresh savepoint', async () => {
      const commits = new GroupCommit(store);
      const tag = unique();
      let attempts = 0;
      const result = await commits.run(async (trx) => {
        attempts++;
        await orderRepository.insert(trx, { order_number: `${tag}-${attempts}`, note: null, created_at: Date.now() });
        if (attempts < 3) throw new RetryWork();
        return attempts;
      });
      assert.equal(result, 3);
      assert.deepEqual(await numbersIn(store, [`${tag}-1`, `${tag}-2`, `${tag}-3`]), [`${tag}-3`]);
    });

    test('when the transaction fails, every unit fails and nothing is committed; the queue goes on', async () => {
      let failFinish = true;
      const commits = new GroupCommit(store, {
        finish: async () => {
          if (failFinish) throw Object.assign(new Error('disk full'), { code: 'SQLITE_FULL' });
        },
      });
      const tag = unique();
      const insert = (n: string) => commits.run((trx) => orderRepository.insert(trx, { order_number: `${tag}-${n}`, note: null, created_at: Date.now() }));
      const results = await Promise.allSettled([insert('a'), insert('b')]);
      assert.deepEqual(results.map((r) => r.status), ['rejected', 'rejected']);
      assert.deepEqual(await numbersIn(store, [`${tag}-a`, `${tag}-b`]), []);
      failFinish = false;
      await insert('c');
      assert.deepEqual(await numbersIn(store, [`${tag}-c`]), [`${tag}-c`]);
    });

    test('a promise settles only once its transaction is visible to other connections', async () => {
      const commits = new GroupCommit(store);
      const tag = unique();
      const seen = await Promise.all(
        Array.from({ length: 20 }, async (_, i) => {
          await commits.run((trx) => orderRepository.insert(trx, { order_number: `${tag}-${i}`, note: null, created_at: Date.now() }));
          return (await numbersIn(store, [`${tag}-${i}`])).length;
        }),
      );
      assert.deepEqual(seen, Array(20).fill(1));
    });
  });
}
