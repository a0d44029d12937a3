import assert from 'node:assert/strict';
import { setImmediate, setTimeout as sleep } from 'node:timers/promises';
import { test } from 'node:test';
import { customerRepository } from '../../src/customers/customer.repository.js';
import { toCustomerData } from '../../src/customers/customer.mapping.js';
import { committedWatermark, nextStamp } from '../../src/store/sync-clock.js';
import { describeEachBackend, describeWithReplica, json, type TestApp } from '../helpers/test-app.js';
import { isPostgres, type Backend } from '../helpers/test-store.js';
import { watermarkOf } from './customer-helpers.js';
import { isTransactionConflict } from '../../src/store/store-errors.js';
import { seededRandom } from '../helpers/seeded-random.js';

// Many customers and few writes each, so that the last write of most customers comes from the
// middle of the run, where a missed change would show.
const CUSTOMERS = 60;
const HTTP_WRITERS = 3;
const PUTS_EACH = 30;
const TX_WRITERS = 3;
const TXS_EACH = 20;

const idOf = (n: number): string => `cc-${String(n).padStart(2, '0')}`;

async function retryingConflicts(run: () => Promise<void>): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await run();
    } catch (err) {
      if (!isTransactionConflict(err) || attempt >= 5) throw err;
      await sleep(Math.random() * 20 * attempt);
    }
  }
}

/**
 * Several writers change customers while a reader syncs in a loop with nothing but the watermark
 * (and the cursor inside a paged sync). Store-level writers hold their transaction open before and
 * after taking the stamp, so that on PostgreSQL transactions overlap, queue on the clock, and would
 * commit out of stamp order if the clock allowed it. With a read replica, the reader syncs from it:
 * its replay follows commit order, so the promise holds there too.
 */
const suite = (t: () => TestApp, backend: Backend): void => {
  test('the reader ends with the final state of every customer', async (tc) => {
    // Which customers the writers change: replayable from the seed the test prints.
    const random = seededRandom();
    random.report(tc);
    const pick = (): number => random.below(CUSTOMERS);
    let version = 0;
    let inFlight = 0;
    let maxInFlight = 0;
    let writersDone = false;

    const httpWriter = async (w: number) => {
      for (let i = 0; i < PUTS_EACH; i++) {
        const id = idOf(pick());
        const res = await t().inject({
          method: 'PUT',
          url: `/customer/${id}`,
          payload: { FirstName: `v${++version}`, LastName: `http-${w}` },
        });
        assert.ok(res.statusCode === 201 || res.statusCode === 200, res.body);
      }
    };
    const txWriter = async (w: number) => {
      for (let i = 0; i < TXS_EACH; i++) {
        // Sorted, so that two writers never lock the same rows in opposite orders.
        const ids = [...new Set([pick(), pick(), pick()])].sort((a, b) => a - b).map(idOf);
        // The write door group-commits HTTP writes in arrival order, so its rows can still be
        // locked against these; PostgreSQL then aborts one side, and like the door this writer
        // runs its transaction again.
        await retryingConflicts(() =>
          t().store.writeTransaction(async (trx) => {
            maxInFlight = Math.max(maxInFlight, ++inFlight);
            try {
              for (const id of ids)
                await customerRepository.writeData(trx, id, toCustomerData({ FirstName: `v${++version}`, LastName: `tx-${w}` }), 0);
              await sleep(Math.random() * 4);
              const stamp = await nextStamp(trx);
              await customerRepository.touch(trx, ids, stamp);
              await sleep(Math.random() * 8);
            } finally {
              inFlight--;
            }
          }),
        );
      }
    };

    const seen = new Map<string, string | null>();
    let watermark = 0;
    let syncs = 0;
    const syncOnce = async (paged: boolean, headers: Record<string, string> = {}) => {
      let cursor: string | undefined;
      let next = watermark;
      do {
        const cursorPart: string = cursor ? `&Cursor=${cursor}` : '';
        const res = await t().inject({
          url: `/customer/?LastModifiedAfter=/Date(${watermark})/${paged ? `&Take=7${cursorPart}` : ''}`,
          headers,
        });
        assert.equal(res.statusCode, 200, res.body);
        for (const c of json(res) as Array<{ CustomerId: string; FirstName: string | null }>) seen.set(c.CustomerId, c.FirstName);
        const wm = watermarkOf(res);
        assert.ok(wm >= next, 'the watermark never goes back');
        next = wm;
        cursor = res.headers['x-sync-cursor'] as string | undefined;
      } while (cursor);
      watermark = next;
      syncs++;
    };
    const reader = async () => {
      while (!writersDone) {
        await syncOnce(syncs % 2 === 1);
        // inject on SQLite can run on microtasks alone; let timers (the writers' sleeps) fire.
        await setImmediate();
      }
    };

    const readerDone = reader();
    await Promise.all([
      ...Array.from({ length: HTTP_WRITERS }, (_, w) => httpWriter(w)),
      ...Array.from({ length: TX_WRITERS }, (_, w) => txWriter(w)),
    ]);
    writersDone = true;
    await readerDone;
    const replicaAnswered = t().store.replica?.counts.replica;
    const syncsWhileWriting = syncs;
    // The next sync, which must include every write (a replica may still be replaying the last ones).
    await syncOnce(false, { 'X-Min-Watermark': `/Date(${await committedWatermark(t().store.db)})/` });

    const rows = await t()
      .store.db.selectFrom('customers')
      .select(['customer_id', 'first_name'])
      .where('customer_id', 'like', 'cc-%')
      .execute();
    assert.ok(rows.length > CUSTOMERS / 2, 'the writers created customers');
    assert.deepEqual(
      rows.map((r) => r.customer_id).filter((id) => !seen.has(id)),
      [],
      'customers the reader never saw',
    );
    for (const row of rows) assert.equal(seen.get(row.customer_id), row.first_name, `final state of ${row.customer_id}`);
    assert.ok(syncs >= 5, `the reader synced while the writers ran (${syncs} syncs)`);
    if (isPostgres(backend)) assert.ok(maxInFlight >= 2, `transactions overlapped (at most ${maxInFlight} at once)`);
    if (replicaAnswered !== undefined) {
      assert.ok(
        replicaAnswered >= syncsWhileWriting,
        `the replica answered the syncs (${replicaAnswered} reads for ${syncsWhileWriting} syncs)`,
      );
    }
  });
};

describeEachBackend('sync feed under concurrent writers', suite, {}, { pgbouncer: true });
describeWithReplica('sync feed under concurrent writers', suite);
