import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Kysely } from 'kysely';
import * as m014 from '../../src/store/migrations/014-text-prefixes.js';
import { describeEachBackend } from '../helpers/test-app.js';
import { idsOf, putCustomer } from '../customers/customer-helpers.js';
import { unique } from '../orders/order-fixtures.js';

describeEachBackend('migration 014: text search prefixes', (t) => {
  test('a store indexed before it finds the same customers after it, by every length of prefix, and keeps the index current', async () => {
    const db = t().store.db as Kysely<unknown>;
    const tag = `m${unique()}`;
    await m014.down(db);
    await putCustomer(t(), `${tag}-1`, { FirstName: 'Annegret', LastName: 'Schönfelder', City: 'Köln', Company: tag });
    await putCustomer(t(), `${tag}-2`, { FirstName: 'Anna', LastName: 'Schmidt', City: 'Bonn', Company: tag });
    await m014.up(db);
    await putCustomer(t(), `${tag}-3`, { FirstName: 'Annika', LastName: 'Schönberg', City: 'Köln', Company: tag });
    const found = async (query: string): Promise<string[]> =>
      idsOf(await t().inject(`/customer/?Query=${encodeURIComponent(`${query} ${tag}`)}`)).sort();
    assert.deepEqual(await found('a'), [`${tag}-1`, `${tag}-2`, `${tag}-3`]);
    assert.deepEqual(await found('schon koln'), [`${tag}-1`, `${tag}-3`]);
    assert.deepEqual(await found('schönfelder'), [`${tag}-1`], 'a word longer than the longest prefix index, whole');
    assert.deepEqual(await found('schonfeldex'), [], 'its first six letters are not enough');
    assert.deepEqual(await found('anna schm'), [`${tag}-2`]);
  });
});
