import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { openStore } from '../../src/store/open-store.js';
import type { ServerProcess } from '../helpers/spawn-server.js';
import { allBackends, createTestDatabase, leftOut, type TestDatabase } from '../helpers/test-store.js';
import { call, confirmOver, prepareOrders, serveOrders } from './server-processes.js';

const ORDERS = 6;
/** Orders after the first ORDERS, for cancellations racing shipments. */
const CANCELLED_OR_SHIPPED = 4;
const ATTEMPTS = 8;

/** What the store holds of an order's lines: ordered, shipped and returned units of each, by LineNumber. */
async function quantities(url: string, orderId: number): Promise<Map<number, { ordered: number; shipped: number; returned: number }>> {
  const store = openStore(url, { poolSize: 1 });
  try {
    const db = store.db;
    const lines = await db.selectFrom('order_lines').select(['line_number', 'quantity']).where('order_id', '=', orderId).execute();
    const sum = async (table: 'order_shipment_lines' | 'order_return_lines', line: number) => {
      const rows =
        table === 'order_shipment_lines'
          ? await db
              .selectFrom('order_shipment_lines as l')
              .innerJoin('order_shipments as s', 's.shipment_id', 'l.shipment_id')
              .select('l.quantity')
              .where('s.order_id', '=', orderId)
              .where('l.line_number', '=', line)
              .execute()
          : await db
              .selectFrom('order_return_lines as l')
              .innerJoin('order_returns as r', 'r.return_id', 'l.return_id')
              .select('l.quantity')
              .where('r.order_id', '=', orderId)
              .where('l.line_number', '=', line)
              .execute();
      return rows.reduce((n, r) => n + Number(r.quantity), 0);
    };
    const out = new Map<number, { ordered: number; shipped: number; returned: number }>();
    for (const l of lines) {
      const n = Number(l.line_number);
      out.set(n, {
        ordered: Number(l.quantity),
        shipped: await sum('order_shipment_lines', n),
        returned: await sum('order_return_lines', n),
      });
    }
    return out;
  } finally {
    await store.close();
  }
}

// Never more than there is: shipments and returns racing on one order from two server processes
// (PostgreSQL, one SQLite file as with WORKERS > 1, and PostgreSQL through PgBouncer) ship at most
// what was ordered and take back at most what was shipped.
for (const backend of allBackends(true)) {
  describe(`shipments and returns from two server processes [${backend}]`, { skip: leftOut(backend) }, () => {
    let database: TestDatabase;
    const servers: ServerProcess[] = [];
    before(async () => {
      database = await createTestDatabase(backend);
      await prepareOrders(database.url, ORDERS + CANCELLED_OR_SHIPPED);
      servers.push(await serveOrders(database.url, database.env)); // the first one registers the key
      servers.push(await serveOrders(database.url, database.env));
      for (let id = 1; id <= ORDERS + CANCELLED_OR_SHIPPED; id++) {
        const res = await confirmOver(servers[0]!.port, id, { ExternalCustomerId: `ship-race-${id}` });
        assert.equal(res.status, 200, JSON.stringify(res.body));
      }
    });
    after(async () => {
      await Promise.all(servers.map((s) => s.stop('SIGKILL')));
      await database.drop();
    });

    test('single units of line 1 shipped at once on both processes: exactly as many succeed as were ordered, then as many come back', async () => {
      const [a, b] = servers.map((s) => s.port) as [number, number];
      const orders = Array.from({ length: ORDERS / 2 }, (_, i) => i + 1);
      const unit = { Lines: [{ LineNumber: 1, Quantity: 1 }] };
      const race = (kind: 'shipments' | 'returns') =>
        Promise.all(
          orders.flatMap((id) =>
            Array.from({ length: ATTEMPTS }, (_, k) => call(k % 2 ? a : b, 'POST', `/orders/${id}/${kind}`, unit).then((r) => ({ id, r }))),
          ),
        );
      const shipped = await race('shipments');
      for (const id of orders) {
        const ordered = (await quantities(database.url, id)).get(1)!.ordered;
        const mine = shipped.filter((x) => x.id === id).map((x) => x.r);
        assert.equal(mine.filter((r) => r.status === 201).length, ordered, `order ${id}: ${mine.map((r) => r.status).join(',')}`);
        for (const r of mine.filter((x) => x.status !== 201)) {
          // Once line 1 is out: 400 on its quantity, or 409 when it was the order's only line left.
          if (r.status === 409) assert.equal(r.body.ResponseStatus.ErrorCode, 'NothingToShip');
          else assert.equal(r.body.ResponseStatus.Errors[0].FieldName, 'Lines[0].Quantity', JSON.stringify(r.body));
        }
        assert.equal((await quantities(database.url, id)).get(1)!.shipped, ordered);
      }
      const returned = await race('returns');
      for (const id of orders) {
        const line = (await quantities(database.url, id)).get(1)!;
        const mine = returned.filter((x) => x.id === id).map((x) => x.r);
        assert.equal(mine.filter((r) => r.status === 201).length, line.shipped, `order ${id}: ${mine.map((r) => r.status).join(',')}`);
        for (const r of mine.filter((x) => x.status !== 201)) {
          assert.equal(r.status, 400, JSON.stringify(r.body));
          assert.equal(r.body.ResponseStatus.Errors[0].FieldName, 'Lines[0].Quantity');
        }
        assert.equal(line.returned, line.shipped);
      }
    });

    test('"everything left" sent at once to both processes: one shipment takes it all, the others are 409 NothingToShip', async () => {
      const [a, b] = servers.map((s) => s.port) as [number, number];
      const orders = Array.from({ length: ORDERS / 2 }, (_, i) => ORDERS / 2 + i + 1);
      const answers = await Promise.all(
        orders.flatMap((id) =>
          Array.from({ length: ATTEMPTS }, (_, k) => call(k % 2 ? a : b, 'POST', `/orders/${id}/shipments`, {}).then((r) => ({ id, r }))),
        ),
      );
      for (const id of orders) {
        const mine = answers.filter((x) => x.id === id).map((x) => x.r);
        assert.equal(mine.filter((r) => r.status === 201).length, 1, `order ${id}: ${mine.map((r) => r.status).join(',')}`);
        for (const r of mine.filter((x) => x.status !== 201)) {
          assert.equal(r.status, 409, JSON.stringify(r.body));
          assert.equal(r.body.ResponseStatus.ErrorCode, 'NothingToShip');
        }
        for (const [n, line] of await quantities(database.url, id)) assert.equal(line.shipped, line.ordered, `order ${id} line ${n}`);
        const feed = (await call(b, 'GET', `/orders/?OrderIds=${id}&FulfillmentStatuses=Fulfilled`)).body as unknown[];
        assert.equal(feed.length, 1, `order ${id} is fulfilled`);
        const cancel = await call(a, 'POST', `/orders/${id}/cancel`);
        assert.equal(cancel.status, 409);
        assert.equal(cancel.body.ResponseStatus.ErrorCode, 'OrderShipped');
      }
    });

    test('a cancellation and a shipment at once on the two processes: either the order is cancelled and nothing shipped, or shipped and not cancelled', async () => {
      const [a, b] = servers.map((s) => s.port) as [number, number];
      const orders = Array.from({ length: CANCELLED_OR_SHIPPED }, (_, i) => ORDERS + i + 1);
      const answers = await Promise.all(
        orders.map(async (id) => {
          const [cancel, shipment] = await Promise.all([
            call(id % 2 ? a : b, 'POST', `/orders/${id}/cancel`),
            call(id % 2 ? b : a, 'POST', `/orders/${id}/shipments`, {}),
          ]);
          return { id, cancel, shipment };
        }),
      );
      for (const { id, cancel, shipment } of answers) {
        const order = (await call(a, 'GET', `/orders/${id}`)).body;
        const shipped = [...(await quantities(database.url, id)).values()].reduce((n, l) => n + l.shipped, 0);
        if (cancel.status === 200) {
          assert.equal(shipment.status, 409, JSON.stringify(shipment.body));
          assert.equal(shipment.body.ResponseStatus.ErrorCode, 'OrderNotConfirmed');
          assert.deepEqual([order.Status, shipped], ['Cancelled', 0], `order ${id}`);
        } else {
          assert.equal(cancel.status, 409, JSON.stringify(cancel.body));
          assert.equal(cancel.body.ResponseStatus.ErrorCode, 'OrderShipped');
          assert.equal(shipment.status, 201, JSON.stringify(shipment.body));
          assert.equal(order.Status, 'Confirmed', `order ${id}`);
          assert.ok(shipped > 0, `order ${id}`);
        }
      }
    });
  });
}
