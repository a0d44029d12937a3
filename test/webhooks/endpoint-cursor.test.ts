import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { orderRepository } from '../../src/orders/order.repository.js';
import type { Store } from '../../src/store/store.js';
import { createEndpointWrite, fanOutWrite } from '../../src/webhooks/webhook.writes.js';
import { writeRegistry } from '../../src/write-registry.js';
import { GroupCommit } from '../../src/writes/group-commit.js';
import { allBackends, createTestStore, leftOut } from '../helpers/test-store.js';
import { unique } from '../orders/order-fixtures.js';

// A new endpoint receives the events committed after it, and no earlier one, even when the
// dispatcher's fan-out runs in the same group commit as the endpoint's creation.

for (const backend of allBackends()) {
  describe(`a new webhook endpoint and a fan-out in one transaction [${backend}]`, { skip: leftOut(backend) }, () => {
    let store: Store;
    let close: () => Promise<void>;
    before(async () => {
      ({ store, close } = await createTestStore(backend));
    });
    after(async () => close());

    test('the endpoint gets no delivery of an event committed before it', async () => {
      const commits = new GroupCommit(store, writeRegistry);
      // An event kept from before the endpoint exists.
      await commits.run(async (unit) => {
        const orderId = await orderRepository.insert(unit.db, { order_number: `cursor-${unique()}`, note: null, created_at: Date.now() });
        unit.touch('order', String(orderId));
        unit.emit({ type: 'order.created', orderId });
      });
      const endpointId = `wh_${unique()}`;
      let fannedOutWithIt = false;
      // Started together, they are written in one transaction: the creation first, then the fan-out.
      const [, queued] = await Promise.all([
        commits.run((unit) =>
          createEndpointWrite.run(unit, {
            keyId: 'test',
            endpointId,
            url: 'https://receiver.example/hook',
            types: [],
            description: '',
            sealedSecret: 'whsec_dGVzdA==',
            now: Date.now(),
          }),
        ),
        commits.run(async (unit) => {
          fannedOutWithIt =
            (await unit.db
              .selectFrom('webhook_endpoints')
              .select('endpoint_id')
              .where('endpoint_id', '=', endpointId)
              .executeTakeFirst()) !== undefined;
          return fanOutWrite.run(unit, { now: Date.now(), chunk: 1000 });
        }),
      ]);
      assert.ok(fannedOutWithIt, 'the fan-out ran in the transaction that created the endpoint');
      assert.equal(queued, 0);
      const deliveries = await store.reader
        .selectFrom('webhook_deliveries')
        .select('event_sequence')
        .where('endpoint_id', '=', endpointId)
        .execute();
      assert.deepEqual(deliveries, []);
    });
  });
}
