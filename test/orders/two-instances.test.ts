import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { ServerProcess } from '../helpers/spawn-server.js';
import { createTestDatabase, type TestDatabase, allBackends, leftOut } from '../helpers/test-store.js';
import { call, confirmOver, prepareOrders, serveOrders } from './server-processes.js';

const ORDERS = 30;

// Two service processes on one store (PostgreSQL, or one SQLite file as with WORKERS > 1).
for (const backend of allBackends()) {
  describe(`ConfirmOrder from two server processes [${backend}]`, { skip: leftOut(backend) }, () => {
    let database: TestDatabase;
    const servers: ServerProcess[] = [];
    before(async () => {
      database = await createTestDatabase(backend);
      await prepareOrders(database.url, ORDERS);
      servers.push(await serveOrders(database.url)); // the first one registers the key
      servers.push(await serveOrders(database.url));
    });
    after(async () => {
      await Promise.all(servers.map((s) => s.stop('SIGKILL')));
      await database.drop();
    });

    test('every order is confirmed exactly once, for exactly one customer, whichever process answers', async () => {
      const [a, b] = servers.map((s) => s.port) as [number, number];
      const orders = Array.from({ length: ORDERS - 10 }, (_, i) => i + 1);
      const attempts = orders.flatMap((id) =>
        [a, b, a, b, a, b].map((port, k) => ({
          id,
          ext: `two-${id}-${k}`,
          promise: confirmOver(port, id, { ExternalCustomerId: `two-${id}-${k}` }),
        })),
      );
      const answers = await Promise.all(attempts.map(async (x) => ({ ...x, answer: await x.promise })));
      const identifiers = attempts.map((x) => x.ext);
      const customers = (await call(a, 'POST', '/customer/', { Identifiers: identifiers })).body as Array<{
        CustomerId: string;
        ExternalId: string;
      }>;
      for (const id of orders) {
        const mine = answers.filter((x) => x.id === id);
        const won = mine.filter((x) => x.answer.status === 200);
        assert.equal(won.length, 1, `order ${id}: ${mine.map((x) => x.answer.status).join(',')}`);
        for (const x of mine) if (x.answer.status !== 200) assert.equal(x.answer.body.ResponseStatus.ErrorCode, 'AlreadyConfirmed');
        const made = customers.filter((c) => c.ExternalId.startsWith(`two-${id}-`));
        assert.equal(made.length, 1, `order ${id}: ${made.length} customers`);
        assert.equal(made[0]!.CustomerId, won[0]!.answer.body.CustomerId);
        const order = (await call(b, 'GET', `/orders/${id}`)).body;
        assert.equal(order.CustomerId, made[0]!.CustomerId);
      }
    });

    test('one new ExternalCustomerId confirmed on both processes at once makes one customer', async () => {
      const [a, b] = servers.map((s) => s.port) as [number, number];
      const ids = Array.from({ length: 10 }, (_, i) => ORDERS - 9 + i);
      const answers = await Promise.all(ids.map((id, i) => confirmOver(i % 2 ? a : b, id, { ExternalCustomerId: 'two-shared' })));
      assert.deepEqual(
        answers.map((r) => r.status),
        Array(ids.length).fill(200),
      );
      assert.equal(new Set(answers.map((r) => r.body.CustomerId)).size, 1);
      const found = (await call(b, 'GET', '/customer/?Identifiers=two-shared')).body;
      assert.equal(found.length, 1);
      // The same body again, on the other process: the same answer.
      const retry = await confirmOver(answers.length % 2 ? b : a, ids[0]!, { ExternalCustomerId: 'two-shared' });
      assert.deepEqual(retry.body, answers[0]!.body);
    });
  });
}
