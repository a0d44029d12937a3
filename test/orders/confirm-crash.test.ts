import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { KillSwitch } from '../helpers/kill-switch.js';
import type { ServerProcess } from '../helpers/spawn-server.js';
import { createTestDatabase, type TestDatabase, allBackends, leftOut } from '../helpers/test-store.js';
import { call, confirmOver, prepareOrders, serveOrders } from './server-processes.js';

const CONCURRENCY = 32;
const ORDERS = 5_000;

interface Ack {
  readonly orderId: number;
  readonly customerId: string;
}

/** Confirms orders 1, 2, … from CONCURRENCY loops until the server dies; returns what got a 200. */
async function confirmUntilKilled(port: number, kill: () => void): Promise<{ acks: Ack[]; sent: number }> {
  const acks: Ack[] = [];
  let next = 1;
  // Killed a moment after 300 confirmations are through (or after a while on a slow machine).
  const killer = new KillSwitch(kill, 30_000);
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (!killer.killed && next <= ORDERS) {
        const orderId = next++;
        try {
          const res = await confirmOver(port, orderId, { ExternalCustomerId: `crash-${orderId}` });
          if (res.status === 200) acks.push({ orderId, customerId: res.body.CustomerId });
          if (acks.length >= 300) killer.trigger();
        } catch {
          return; // connection refused or reset: the server is gone
        }
      }
    }),
  );
  killer.done();
  return { acks, sent: next - 1 };
}

for (const backend of allBackends()) {
  describe(`SIGKILL during confirmations [${backend}]`, { skip: leftOut(backend) }, () => {
    let database: TestDatabase;
    let server: ServerProcess | undefined;
    before(async () => {
      database = await createTestDatabase(backend);
      await prepareOrders(database.url, ORDERS);
    });
    after(async () => {
      await server?.stop('SIGKILL');
      await database.drop();
    });

    test('every confirmation that got a 200 is there after a restart, with its customer; the rest can be retried', async (t) => {
      server = await serveOrders(database.url);
      const killed = server;
      const { acks, sent } = await confirmUntilKilled(server.port, () => killed.child.kill('SIGKILL'));
      assert.equal(await killed.exited, 'SIGKILL');
      assert.ok(acks.length > 0, 'some confirmations were answered before the kill');

      server = await serveOrders(database.url);
      const port = server.port;
      const customers = new Map<string, string>();
      for (let i = 0; i < acks.length; i += 500) {
        const ids = acks.slice(i, i + 500).map((a) => `crash-${a.orderId}`);
        for (const c of (await call(port, 'POST', '/customer/', { Identifiers: ids })).body) customers.set(c.ExternalId, c.CustomerId);
      }
      for (const ack of acks) {
        const order = (await call(port, 'GET', `/orders/${ack.orderId}`)).body;
        assert.equal(order.Status, 'Confirmed', `order ${ack.orderId}`);
        assert.equal(order.CustomerId, ack.customerId, `order ${ack.orderId}`);
        assert.equal(customers.get(`crash-${ack.orderId}`), ack.customerId, `customer of order ${ack.orderId}`);
      }
      // Whatever was in flight is either done or not: retrying the same body answers 200 once, one customer each.
      const acked = new Set(acks.map((a) => a.orderId));
      const unsure = Array.from({ length: sent }, (_, i) => i + 1).filter((id) => !acked.has(id));
      t.diagnostic(`confirmations in flight at the kill: ${unsure.length}`);
      if (unsure.length === 0) return; // a group commit's answers were all on their way
      const retries = await Promise.all(unsure.map((id) => confirmOver(port, id, { ExternalCustomerId: `crash-${id}` })));
      assert.deepEqual(retries.map((r) => r.status), Array(unsure.length).fill(200));
      const found = (await call(port, 'POST', '/customer/', { Identifiers: unsure.map((id) => `crash-${id}`) })).body;
      assert.equal(found.length, unsure.length);
    });
  });
}
