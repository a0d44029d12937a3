import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { demoCustomer, seedCustomers } from '../../src/customers/customer.seed.js';
import { customerWords } from '../../src/customers/customer.words.js';
import { queryWords } from '../../src/store/text-words.js';
import { describeEachBackend } from '../helpers/test-app.js';
import { idsOf, sorted } from '../customers/customer-helpers.js';

const COUNT = 2500;

/** The demo customers a query should find, computed from their words here rather than by the store. */
function expected(query: string): string[] {
  const words = queryWords(query);
  const ids: string[] = [];
  for (let n = 1; n <= COUNT; n++) {
    const row = demoCustomer(n, 0);
    const own = customerWords(row).split(' ');
    if (words.every((w) => own.some((o) => o.startsWith(w)))) ids.push(row.customer_id);
  }
  return ids;
}

// Queries matching few rows and matching many (over a thousand: where a store may read the rows in
// their order and check each, instead of reading the matches by the index) must find the same rows
// as the words say, on every backend.
describeEachBackend(
  'SearchCustomers: Query over many matches',
  (t) => {
    before(async () => {
      assert.equal(await seedCustomers(t().app.writes, COUNT), COUNT);
    });

    for (const query of ['ext 1', 'ext', 'ext hamb', 'anna c0000', 'klara wag 80331', 'firma 24', 'EXT-2499', 'mull berlin 1']) {
      test(`"${query}" finds what the words say, in sync order, and pages alike`, async () => {
        const want = expected(query);
        assert.ok(want.length > 0, 'the query matches something');
        const all = idsOf(await t().inject(`/customer/?Query=${encodeURIComponent(query)}`));
        assert.deepEqual(sorted(all), sorted(want));
        const page = idsOf(await t().inject(`/customer/?Query=${encodeURIComponent(query)}&Take=20&Skip=5`));
        assert.deepEqual(page, all.slice(5, 25));
      });
    }

    test('the many-match queries really match over a thousand rows here', () => {
      assert.ok(expected('ext 1').length > 1000);
      assert.ok(expected('ext').length > 1000);
      assert.ok(expected('ext hamb').length < 1000);
    });
  },
  {},
  { pgbouncer: true },
);
