import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { ServerProcess } from '../helpers/spawn-server.js';
import { BACKENDS, createTestDatabase, type TestDatabase } from '../helpers/test-store.js';
import { PROCESS_KEY, call, confirmOver, prepareOrders, serveOrders } from './server-processes.js';

interface FeedOrder {
  OrderId: number;
  Status: string;
  CustomerId: string | null;
  ConfirmedAt: string | null;
  CancelledAt: string | null;
}

const WRITERS = 6;
const STEPS = 40;

/** One read of the feed after `watermark`: the orders and the next watermark (the header, as sent). */
async function readFeed(port: number, watermark: string | undefined): Promise<{ orders: FeedOrder[]; watermark: string }> {
  const query = watermark === undefined ? '' : `?LastModifiedAfter=${encodeURIComponent(watermark)}`;
  const res = await fetch(`http://127.0.0.1:${port}/orders/${query}`, { headers: { authorization: `Bearer ${PROCESS_KEY}` } });
  assert.equal(res.status, 200);
  const next = res.headers.get('x-sync-watermark');
  assert.ok(next, 'X-Sync-Watermark');
  return { orders: (await res.json()) as FeedOrder[], watermark: next };
}

/** A writer: creates an order, then confirms or cancels it or an earlier one, on either process. */
async function writer(ports: readonly number[], n: number, created: number[]): Promise<void> {
  for (let step = 0; step < STEPS; step++) {
    const port = ports[(n + step) % ports.length]!;
    const res = await call(port, 'POST', '/orders', {});
    assert.equal(res.status, 201, JSON.stringify(res.body));
    created.push(res.body.OrderId as number);
    const target = created[Math.floor(Math.random() * created.length)]!;
    const other = ports[(n + step + 1) % ports.length]!;
    if (step % 3 === 2) await call(other, 'POST', `/orders/${target}/cancel`);
    else await confirmOver(other, target, { ExternalCustomerId: `feed-${n}-${step}` });
  }
}

// A reader that follows the feed only by its watermark ends with every order's final state, while
// writers on two server processes commit in an order their stamps' wall-clock times do not follow.
for (const backend of BACKENDS) {
  describe(`SearchOrders followed by watermark while two processes write [${backend}]`, () => {
    let database: TestDatabase;
    const servers: ServerProcess[] = [];
    before(async () => {
      database = await createTestDatabase(backend);
      await prepareOrders(database.url, 0);
      servers.push(await serveOrders(database.url)); // the first one registers the key
      servers.push(await serveOrders(database.url));
    });
    after(async () => {
      await Promise.all(servers.map((s) => s.stop('SIGKILL')));
      await database.drop();
    });

    test('the reader holds every order in its final state', async () => {
      const ports = servers.map((s) => s.port);
      const created: number[] = [];
      const held = new Map<number, FeedOrder>();
      let watermark: string | undefined;
      let writing = true;
      let reads = 0;
      const reader = (async () => {
        for (let k = 0; writing; k++) {
          const page = await readFeed(ports[k % ports.length]!, watermark);
          for (const o of page.orders) held.set(o.OrderId, o);
          watermark = page.watermark;
          reads++;
        }
      })();
      await Promise.all(Array.from({ length: WRITERS }, (_, n) => writer(ports, n, created)));
      writing = false;
      await reader;
      // One more read after the last commit: what a reader does next time it syncs.
      for (const o of (await readFeed(ports[0]!, watermark)).orders) held.set(o.OrderId, o);

      assert.ok(reads > 3, `the reader read while writers wrote (${reads} reads)`);
      const final = (await call(ports[1]!, 'GET', '/orders/')).body as FeedOrder[];
      assert.equal(final.length, WRITERS * STEPS);
      assert.equal(held.size, final.length, 'every order reached the reader');
      for (const o of final) assert.deepEqual(held.get(o.OrderId), o, `order ${o.OrderId}`);
      assert.ok(final.some((o) => o.Status === 'Confirmed') && final.some((o) => o.Status === 'Cancelled'));
    });
  });
}
