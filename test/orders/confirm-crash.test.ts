import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { KillSwitch } from '../helpers/kill-switch.js';
import type { ServerProcess } from '../helpers/spawn-server.js';
import { createTestDatabase, type TestDatabase, allBackends, leftOut } from '../helpers/test-store.js';
import { isServerGone } from '../helpers/server-gone.js';
import { watchWrites, type WriteWatch } from '../helpers/write-in-flight.js';
import { call, confirmOver, prepareOrders, serveOrders, type HttpAnswer } from './server-processes.js';

const CONCURRENCY = 32;
const ORDERS = 5_000;

interface Ack {
  readonly orderId: number;
  readonly customerId: string;
}

/**
 * Confirms orders 1, 2, … from CONCURRENCY loops until the server dies: killed while a transaction
 * is open in the store, once 300 confirmations are through (or from a hang guard). Returns what got
 * a 200, how many were sent, and whether the kill found a write in flight.
 */
async function confirmUntilKilled(
  port: number,
  watch: WriteWatch,
  kill: () => void,
): Promise<{ acks: Ack[]; sent: number; midWrite: boolean }> {
  const acks: Ack[] = [];
  let next = 1;
  const killer = new KillSwitch(kill, watch, 60_000);
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (!killer.killed && next <= ORDERS) {
        const orderId = next++;
        let res: HttpAnswer;
        try {
          res = await confirmOver(port, orderId, { ExternalCustomerId: `crash-${orderId}` });
        } catch (err) {
          if (isServerGone(err)) return;
          throw err;
        }
        assert.equal(res.status, 200, `order ${orderId}: ${JSON.stringify(res.body)}`);
        acks.push({ orderId, customerId: res.body.CustomerId });
        if (acks.length >= 300) killer.trigger();
      }
    }),
  );
  await killer.done();
  return { acks, sent: next - 1, midWrite: killer.midWrite };
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
      const watch = await watchWrites(database);
      const { acks, sent, midWrite } = await confirmUntilKilled(server.port, watch, () => killed.child.kill('SIGKILL')).finally(() =>
        watch.close(),
      );
      assert.equal(await killed.exited, 'SIGKILL');
      assert.ok(acks.length >= 300, `the kill came after 300 confirmations, not from the hang guard (${acks.length})`);
      assert.ok(midWrite, 'the kill found a transaction open in the store');

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
      assert.ok(unsure.length > 0, 'confirmations were in flight at the kill');
      const retries = await Promise.all(unsure.map((id) => confirmOver(port, id, { ExternalCustomerId: `crash-${id}` })));
      assert.deepEqual(
        retries.map((r) => r.status),
        Array(unsure.length).fill(200),
      );
      const found = (await call(port, 'POST', '/customer/', { Identifiers: unsure.map((id) => `crash-${id}`) })).body;
      assert.equal(found.length, unsure.length);
    });
  });
}
