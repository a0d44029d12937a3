import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { demoCustomer, seedCustomers } from '../../src/customers/index.js';
import { seedOrders } from '../../src/orders/order.seed.js';
import { migrateToLatest } from '../../src/store/migrate.js';
import { openStore } from '../../src/store/open-store.js';
import type { ServerProcess } from '../helpers/spawn-server.js';
import { createTestDatabase, PG_TEST_URL, type TestDatabase, allBackends, leftOut, openTestWrites } from '../helpers/test-store.js';
import { isServerGone } from '../helpers/server-gone.js';
import { watchWrites, writeInFlight } from '../helpers/write-in-flight.js';
import { call, confirmOver, serveOrders } from '../orders/server-processes.js';

const ROUNDS = 12;
const MANY = 1500;

/**
 * Orders 1..MANY confirmed by demo customer 1 (as `ordergate seed --customers 1 --orders MANY
 * --confirmed MANY` writes them, without a request each), then open orders for the races.
 */
async function prepare(url: string): Promise<void> {
  const store = openStore(url, { poolSize: 2 });
  try {
    await migrateToLatest(store);
    const writes = openTestWrites(store);
    await seedCustomers(writes, 1);
    await seedOrders(writes, MANY + 2 * ROUNDS, undefined, { confirmed: MANY, customers: 1 });
    await writes.close();
  } finally {
    await store.close();
  }
}

/** Whether an order's confirmation still holds personal data. */
const personal = (order: { Confirmation: Record<string, unknown> | null }): boolean =>
  order.Confirmation?.CustomerFirstName !== null && order.Confirmation?.CustomerFirstName !== undefined;

for (const backend of allBackends()) {
  describe(`erasure against concurrent confirmations and a SIGKILL [${backend}]`, { skip: leftOut(backend) }, () => {
    let database: TestDatabase;
    const servers: ServerProcess[] = [];
    before(async () => {
      database = await createTestDatabase(backend, PG_TEST_URL, { migrated: true });
      await prepare(database.url);
      servers.push(await serveOrders(database.url));
      servers.push(await serveOrders(database.url));
    });
    after(async () => {
      await Promise.all(servers.map((s) => s.stop('SIGKILL')));
      await database.drop();
    });

    test('a confirmation racing an erasure ends erased-then-new or confirmed-then-erased, never half of each', async (t) => {
      const [a, b] = servers.map((s) => s.port) as [number, number];
      const outcomes = { newAfterErase: 0, erasedAfterConfirm: 0 };
      for (let r = 0; r < ROUNDS; r++) {
        const first = MANY + 2 * r + 1;
        const second = MANY + 2 * r + 2;
        const res = await confirmOver(a, first, { ExternalCustomerId: `race-${r}`, CustomerFirstName: `Old${r}` });
        assert.equal(res.status, 200);
        const customerId: string = res.body.CustomerId;
        const [erased, confirmed] = await Promise.all([
          call(a, 'POST', `/customer/${customerId}/erase`),
          confirmOver(b, second, { CustomerId: customerId, ExternalCustomerId: '', CustomerFirstName: `New${r}` }),
        ]);
        assert.equal(erased.status, 200, JSON.stringify(erased.body));
        assert.equal(confirmed.status, 200, JSON.stringify(confirmed.body));
        const customer = (await call(b, 'POST', '/customer/', { Identifiers: [customerId] })).body[0];
        const older = (await call(b, 'GET', `/orders/${first}`)).body;
        const newer = (await call(b, 'GET', `/orders/${second}`)).body;
        assert.equal(personal(older), false, `round ${r}: the order confirmed before the erasure was erased`);
        if (customer.FirstName === `New${r}`) {
          assert.equal(newer.Confirmation.CustomerFirstName, `New${r}`, `round ${r}: new customer data, but its order was erased`);
          outcomes.newAfterErase++;
        } else {
          assert.equal(customer.FirstName, null, `round ${r}: ${JSON.stringify(customer)}`);
          assert.equal(personal(newer), false, `round ${r}: the customer was erased, but not the order confirmed before`);
          outcomes.erasedAfterConfirm++;
        }
      }
      t.diagnostic(`erased then new: ${outcomes.newAfterErase}, confirmed then erased: ${outcomes.erasedAfterConfirm}`);
      assert.equal(outcomes.newAfterErase + outcomes.erasedAfterConfirm, ROUNDS);
    });

    test('SIGKILL during an erasure: after a restart the customer is fully erased or untouched', async (t) => {
      const customerId = demoCustomer(1, 0).customer_id;
      const before = (await call(servers[0]!.port, 'GET', `/orders/?CustomerIds=${customerId}`)).body as Array<{
        Confirmation: Record<string, unknown> | null;
      }>;
      assert.equal(before.filter(personal).length, MANY, 'the seeded orders hold the customer data the erasure is to remove');
      const victim = servers[0]!;
      // Killed once the erasure's transaction has written and not yet ended, seen from a session of
      // the test's own: a kill before or after it would test nothing.
      const watch = await watchWrites(database);
      const erasing = call(victim.port, 'POST', `/customer/${customerId}/erase`);
      try {
        assert.ok(await writeInFlight(watch, erasing), 'the erasure answered before a write of it was seen in flight');
        victim.child.kill('SIGKILL');
      } finally {
        await watch.close();
      }
      assert.equal(await victim.exited, 'SIGKILL');
      await erasing.then(
        (res) => t.diagnostic(`the erasure was answered ${res.status} just before the kill`),
        (err: unknown) => assert.ok(isServerGone(err), `the erasure failed other than by the kill: ${String(err)}`),
      );
      servers[0] = await serveOrders(database.url);
      const other = servers[0].port;
      const customer = (await call(other, 'POST', '/customer/', { Identifiers: [customerId] })).body[0];
      const orders = (await call(other, 'GET', `/orders/?CustomerIds=${customerId}`)).body as Array<{
        Confirmation: Record<string, unknown> | null;
      }>;
      assert.equal(orders.length, MANY);
      const held = orders.filter(personal).length;
      t.diagnostic(customer.FirstName === null ? 'the erasure had committed' : 'the erasure was cut off: untouched');
      if (customer.FirstName === null) assert.equal(held, 0, 'customer erased, some orders not');
      else assert.equal(held, MANY, 'customer untouched, some orders erased');
      const events = (await call(other, 'GET', '/events/?Types=customer.erased&Take=10000')).body as Array<{
        Data: { CustomerId: string };
      }>;
      assert.equal(
        events.some((e) => e.Data.CustomerId === customerId),
        customer.FirstName === null,
      );
    });
  });
}
