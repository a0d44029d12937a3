import assert from 'node:assert/strict';
import { test } from 'node:test';
import { sql, type Kysely } from 'kysely';
import * as m005 from '../../src/store/migrations/005-order-stamps.js';
import * as m015 from '../../src/store/migrations/015-order-life.js';
import * as m016 from '../../src/store/migrations/016-order-status-index.js';
import { committedWatermark } from '../../src/store/sync-clock.js';
import { describeEachBackend } from '../helpers/test-app.js';

describeEachBackend('migration 005: order stamps', (t) => {
  test('backfills each order with its last change and raises the sync clock above every backfilled stamp', async () => {
    const db = t().store.db as Kysely<unknown>;
    // Later migrations index modified_at (015's and 016's status indexes): rewound first, made again after.
    await m016.down(db);
    await m015.down(db);
    await m005.down(db);
    const future = Date.now() + 3_600_000;
    await sql`insert into orders (order_number, status, created_at, confirmed_at, cancelled_at) values
      ('M5-open', 'Open', 1000, null, null),
      ('M5-confirmed', 'Confirmed', 1000, 2000, null),
      ('M5-cancelled', 'Cancelled', 1000, 2000, ${future})`.execute(db);
    await m005.up(db);
    await m015.up(db);
    await m016.up(db);
    const rows = await t()
      .store.db.selectFrom('orders')
      .select(['order_number', 'modified_at'])
      .where('order_number', 'like', 'M5-%')
      .orderBy('order_number')
      .execute();
    assert.deepEqual(
      rows.map((r) => [r.order_number, Number(r.modified_at)]),
      [
        ['M5-cancelled', future],
        ['M5-confirmed', 2000],
        ['M5-open', 1000],
      ],
    );
    assert.ok((await committedWatermark(t().store.reader)) >= future, 'the watermark covers every backfilled stamp');
  });
});
