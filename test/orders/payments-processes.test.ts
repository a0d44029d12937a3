import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { ServerProcess } from '../helpers/spawn-server.js';
import { allBackends, createTestDatabase, leftOut, type TestDatabase } from '../helpers/test-store.js';
import { call, confirmOver, prepareOrders, serveOrders } from './server-processes.js';

const ORDERS = 6;
const PAID = 10;
const REFUND = 3;
const ATTEMPTS = 8;

// Never more than there is: refunds racing on one order from two server processes (PostgreSQL, one
// SQLite file as with WORKERS > 1, and PostgreSQL through PgBouncer) add up to at most what was paid.
for (const backend of allBackends(true)) {
  describe(`payments and refunds from two server processes [${backend}]`, { skip: leftOut(backend) }, () => {
    let database: TestDatabase;
    const servers: ServerProcess[] = [];
    before(async () => {
      database = await createTestDatabase(backend);
      await prepareOrders(database.url, ORDERS);
      servers.push(await serveOrders(database.url, database.env)); // the first one registers the key
      servers.push(await serveOrders(database.url, database.env));
      for (let id = 1; id <= ORDERS; id++) {
        const res = await confirmOver(servers[0]!.port, id, { ExternalCustomerId: `race-${id}`, Payment: { Amount: PAID, Name: 'P' } });
        assert.equal(res.status, 200, JSON.stringify(res.body));
      }
    });
    after(async () => {
      await Promise.all(servers.map((s) => s.stop('SIGKILL')));
      await database.drop();
    });

    test('refunds sent at once to both processes: as many succeed as the payment covers, the others are 400 on Amount', async () => {
      const [a, b] = servers.map((s) => s.port) as [number, number];
      const orders = Array.from({ length: ORDERS / 2 }, (_, i) => i + 1);
      const answers = await Promise.all(
        orders.flatMap((id) =>
          Array.from({ length: ATTEMPTS }, (_, k) =>
            call(k % 2 ? a : b, 'POST', `/orders/${id}/refunds`, { Amount: REFUND }).then((r) => ({ id, r })),
          ),
        ),
      );
      const covered = Math.floor(PAID / REFUND);
      for (const id of orders) {
        const mine = answers.filter((x) => x.id === id).map((x) => x.r);
        assert.equal(mine.filter((r) => r.status === 201).length, covered, `order ${id}: ${mine.map((r) => r.status).join(',')}`);
        for (const r of mine.filter((x) => x.status !== 201)) {
          assert.equal(r.status, 400, JSON.stringify(r.body));
          assert.equal(r.body.ResponseStatus.Errors[0].FieldName, 'Amount');
        }
        const feed = (await call(a, 'GET', `/orders/?OrderIds=${id}&PaymentStatuses=PartiallyRefunded`)).body as unknown[];
        assert.equal(feed.length, 1, `order ${id} is partly refunded`);
      }
    });

    test('payments and refunds at once on both processes: every payment counts, refunds never exceed what was paid when they ran', async () => {
      const [a, b] = servers.map((s) => s.port) as [number, number];
      const orders = Array.from({ length: ORDERS / 2 }, (_, i) => ORDERS / 2 + i + 1);
      const answers = await Promise.all(
        orders.flatMap((id) =>
          Array.from({ length: ATTEMPTS }, (_, k) => {
            const kind = k % 4 < 2 ? 'payments' : 'refunds';
            return call(k % 2 ? a : b, 'POST', `/orders/${id}/${kind}`, { Amount: 7 }).then((r) => ({ id, kind, r }));
          }),
        ),
      );
      for (const id of orders) {
        const mine = answers.filter((x) => x.id === id);
        const payments = mine.filter((x) => x.kind === 'payments');
        assert.ok(
          payments.every((x) => x.r.status === 201),
          `order ${id}: ${payments.map((x) => x.r.status).join(',')}`,
        );
        const refunds = mine.filter((x) => x.kind === 'refunds' && x.r.status === 201).length;
        for (const x of mine.filter((m) => m.kind === 'refunds' && m.r.status !== 201)) assert.equal(x.r.status, 400);
        const paid = PAID + 7 * payments.length;
        assert.ok(7 * refunds <= paid, `order ${id}: ${refunds} refunds of 7 against ${paid} paid`);
        assert.ok(refunds >= 1, `order ${id}: a first refund of 7 always fits the confirmation's 10`);
        // 10 + 7n paid is never a multiple of 7 refunded.
        const feed = (await call(b, 'GET', `/orders/?OrderIds=${id}&PaymentStatuses=PartiallyRefunded`)).body as unknown[];
        assert.equal(feed.length, 1, `order ${id} is partly refunded`);
      }
    });
  });
}
