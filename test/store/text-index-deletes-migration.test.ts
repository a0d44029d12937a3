import assert from 'node:assert/strict';
import { test } from 'node:test';
import { sql, type Kysely } from 'kysely';
import * as m019 from '../../src/store/migrations/019-text-index-deletes.js';
import { describeEachBackend, json } from '../helpers/test-app.js';
import { confirm, confirmation, createOrder, unique } from '../orders/order-fixtures.js';

describeEachBackend('migration 019: the text indexes delete securely, or merge at the erasure, where a personal value may be', (t) => {
  test('orders confirmed across it are found by their names, and after the erasure by none of them, with the index whole', async () => {
    const db = t().store.db as Kysely<unknown>;
    const tag = `m${unique()}`;
    const ids = async (query: string): Promise<number[]> =>
      (json(await t().inject(`/orders/?Query=${encodeURIComponent(query)}`)) as Array<{ OrderId: number }>).map((o) => o.OrderId).sort();
    await m019.down(db);
    const before = await createOrder(t(), { OrderNumber: `${tag}-1` });
    await m019.up(db);
    const after = await createOrder(t(), { OrderNumber: `${tag}-2` });
    const names = { CustomerFirstName: `Wilhelmine${tag}`, CustomerLastName: `Quast${tag}`, ExternalCustomerId: `ext-${tag}` };
    const first = await confirm(t(), before, confirmation(names));
    assert.equal(first.statusCode, 200, first.body);
    assert.equal((await confirm(t(), after, confirmation(names))).statusCode, 200);
    const expected = [before, after].sort();
    assert.deepEqual(await ids(`wilhelmine${tag}`), expected, 'found by the first name the confirmations added');
    assert.deepEqual(await ids(`${tag}`), expected, 'and by the order numbers they had when open');

    const customerId = json(first).CustomerId as string;
    const erased = await t().inject({ method: 'POST', url: `/customer/${customerId}/erase` });
    assert.equal(erased.statusCode, 200, erased.body);
    assert.deepEqual(await ids(`wilhelmine${tag}`), [], 'no order is found by an erased name');
    assert.deepEqual(await ids(`quast${tag}`), []);
    assert.deepEqual(await ids(`${tag}`), expected, 'the order numbers stay');

    if (t().backend !== 'sqlite') return;
    // FTS5's own answer, without the search's checks on the rows: no erased word matches the erased
    // orders. (Whether a word's bytes left the file is the raw-store erasure test's to see.)
    for (const word of [`wilhelmine${tag}`, `quast${tag}`]) {
      const match = `"${word.slice(0, 6)}"*`;
      const hits = await sql`select rowid from order_text where order_text match ${match} and rowid in (${sql.join(expected)})`.execute(db);
      assert.deepEqual(hits.rows, [], `the index holds no entry of "${word}" for the erased orders`);
    }
    const config = await sql<{ v: number }>`select v from order_text_config where k = 'secure-delete'`.execute(db);
    assert.equal(Number(config.rows[0]?.v), 0, 'the default between the triggers’ own statements');
    // Throws where the index and the words rows disagree.
    await sql`insert into order_text (order_text, rank) values ('integrity-check', 1)`.execute(db);
    await sql`insert into customer_text (customer_text, rank) values ('integrity-check', 1)`.execute(db);
  });
});
