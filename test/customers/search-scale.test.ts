import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { before, test } from 'node:test';
import { CompiledQuery } from 'kysely';
import { feedQuery } from '../../src/customers/customer.repository.js';
import { identifierSearchSql } from '../../src/customers/customer.statements.js';
import { seedCustomers } from '../../src/customers/customer.seed.js';
import { committedWatermark } from '../../src/store/sync-clock.js';
import { describeEachBackend, json, type TestApp } from '../helpers/test-app.js';
import { idsOf, watermarkOf } from './customer-helpers.js';

const N = 100_000;
const idOf = (n: number): string => `C${String(n).padStart(8, '0')}`;

/** The plan of a statement as the store would run it (`?` placeholders, as StoreSql.run takes them). */
async function plan(t: TestApp, text: string, params: readonly unknown[]): Promise<string> {
  const prefix = t.backend === 'sqlite' ? 'explain query plan ' : 'explain ';
  const res = await t.store.reader.run<Record<string, unknown>>(prefix + text, params);
  // Long IN lists are cut so that a failure message stays readable.
  return res.rows.map((r) => String(r.detail ?? r['QUERY PLAN']).replace(/\{[^}]{60,}\}/g, '{…}')).join('\n');
}

const compiled = (query: { compile(): CompiledQuery }): [string, readonly unknown[]] => {
  const c = query.compile();
  return [c.sql.replace(/\$\d+/g, '?'), c.parameters];
};

describeEachBackend('SearchCustomers at 10^5 customers', (t, backend) => {
  let base: string;
  before(async () => {
    await seedCustomers(t().app.writes, N);
    await t().app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(t().app.server.address() as AddressInfo).port}`;
  });
  const get = (path: string) => fetch(base + path, { headers: { authorization: `Bearer ${t().keys.all}` } });

  test('the identifier search and the keyset chunk read use indexes, not scans or sorts of the table', async () => {
    const committed = await committedWatermark(t().store.reader);
    const lookups: Array<[readonly string[], number | undefined]> = [
      [[idOf(5), 'EXT-77'], undefined],
      [[idOf(5), 'EXT-77'], 0],
    ];
    // 1,000 identifiers: SQLite looks each up; PostgreSQL may prefer a sequential scan of a table
    // this small (10^5) and switches to the indexes as the table grows, as its costs say.
    if (backend === 'sqlite') lookups.push([Array.from({ length: 1000 }, (_, i) => (i % 2 ? idOf(i * 90) : `EXT-${i * 90}`)), 0]);
    for (const [ids, after] of lookups) {
      const params = after === undefined ? [...ids, ...ids] : [...ids, ...ids, after];
      const text = await plan(t(), identifierSearchSql(`${ids.length}:${after === undefined ? 0 : 1}`), params);
      if (backend === 'sqlite') {
        assert.doesNotMatch(text, /SCAN c\b|SCAN customers/, text);
        assert.match(text, /SEARCH c USING INDEX sqlite_autoindex_customers_1 \(customer_id=\?\)/, text);
        assert.match(text, /SEARCH c USING INDEX customers_external_id \(external_id=\?\)/, text);
      } else {
        assert.doesNotMatch(text, /Seq Scan on customers/, text);
        assert.match(text, /customers_pkey/, text);
        assert.match(text, /customers_external_id/, text);
      }
    }
    const [chunkText, chunkParams] = compiled(
      feedQuery(t().store.reader, { modifiedAtMost: committed, modifiedAfter: 0, after: { modifiedAt: 5, customerId: idOf(9) } })
        .selectAll()
        .limit(1000),
    );
    const text = await plan(t(), chunkText, chunkParams);
    if (backend === 'sqlite') {
      assert.match(text, /SEARCH customers USING INDEX customers_sync_order \(\(modified_at,customer_id\)>\(\?,\?\)/, text);
      assert.doesNotMatch(text, /TEMP B-TREE/, text);
    } else {
      assert.match(text, /Index Scan using customers_sync_order/, text);
      assert.doesNotMatch(text, /Sort|Seq Scan/, text);
    }
  });

  test('the whole result streams in order while lookups keep answering', async () => {
    const res = await get('/customer/');
    assert.equal(res.status, 200);
    assert.ok(res.body);
    let streaming = true;
    let completedDuringStream = 0;
    const lookups = (async () => {
      for (let i = 1; streaming; i++) {
        const r = await get(`/customer/?Identifiers=${idOf(((i * 7919) % N) + 1)}`);
        const body = (await r.json()) as unknown[];
        assert.equal(body.length, 1);
        if (streaming) completedDuringStream++;
        await sleep(5);
      }
    })();
    // A slow consumer: the server must hold back (backpressure), not buffer the result.
    const decoder = new TextDecoder();
    let text = '';
    for await (const chunk of res.body) {
      text += decoder.decode(chunk as Uint8Array, { stream: true });
      await sleep(1);
    }
    streaming = false;
    await lookups;
    const body = JSON.parse(text) as Array<{ CustomerId: string }>;
    assert.equal(body.length, N);
    assert.equal(new Set(body.map((c) => c.CustomerId)).size, N);
    // Seeded in id order, 5,000 per transaction: sync order is id order here.
    for (let i = 0; i < N; i += 997) assert.equal(body[i]!.CustomerId, idOf(i + 1));
    // How fast they answer is measured, not asserted: the bench's `sync` scenario (lookupP50/P99).
    assert.ok(completedDuringStream >= 10, `${completedDuringStream} lookups completed while the result streamed`);
  });

  test('pages bigger than a chunk, cut inside a transaction’s stamp, continue with the cursor', async () => {
    const first = await t().inject('/customer/?Take=1500');
    assert.deepEqual(idsOf(first).slice(0, 2), [idOf(1), idOf(2)]);
    assert.equal(idsOf(first).length, 1500);
    const cursor = first.headers['x-sync-cursor'];
    assert.ok(cursor);
    // Rows 1..5000 share one stamp: the page cannot claim it.
    assert.ok(
      watermarkOf(first) <
        Number(
          (await t().store.db.selectFrom('customers').select('modified_at').where('customer_id', '=', idOf(1)).executeTakeFirstOrThrow())
            .modified_at,
        ),
    );
    const second = await t().inject(`/customer/?Take=4000&Cursor=${String(cursor)}`);
    const ids = idsOf(second);
    assert.equal(ids.length, 4000);
    assert.equal(ids[0], idOf(1501));
    assert.equal(ids[3999], idOf(5500));
    assert.ok(watermarkOf(second) >= watermarkOf(first));
    const tail = await t().inject(`/customer/?Skip=${N - 1000}&Take=5000`);
    assert.equal(idsOf(tail).length, 1000);
    assert.equal(tail.headers['x-sync-cursor'], undefined);
    assert.equal(json(await t().inject(`/customer/?Skip=${N}`)).length, 0);
  });
});
