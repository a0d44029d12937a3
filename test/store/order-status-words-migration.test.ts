import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Kysely } from 'kysely';
import * as m018 from '../../src/store/migrations/018-order-status-words.js';
import { ORDER_TEXT } from '../../src/orders/order.words.js';
import { describeEachBackend, json } from '../helpers/test-app.js';
import { confirm, confirmation, createOrder, unique } from '../orders/order-fixtures.js';

describeEachBackend('migration 018: the orders’ statuses as words of their index', (t) => {
  test('orders written before it hold their statuses’ words after it, are found as before, and no query word finds a status', async () => {
    const db = t().store.db as Kysely<unknown>;
    const tag = `m${unique()}`;
    const wordsOf = async (id: number): Promise<string> =>
      (await t().store.db.selectFrom('order_words').select('words').where('order_id', '=', id).executeTakeFirstOrThrow()).words;
    const ids = async (query: string): Promise<number[]> =>
      (json(await t().inject(`/orders/?Query=${encodeURIComponent(query)}`)) as Array<{ OrderId: number }>).map((o) => o.OrderId).sort();

    await m018.down(db);
    const open = await createOrder(t(), { OrderNumber: `${tag}-1` });
    const confirmed = await createOrder(t(), { OrderNumber: `${tag}-2` });
    assert.equal((await confirm(t(), confirmed, confirmation({ ExternalCustomerId: tag }))).statusCode, 200);
    // As the code before it wrote them: without the statuses.
    await t()
      .store.db.updateTable('order_words')
      .set({ words: `${tag} 1` })
      .where('order_id', '=', open)
      .execute();
    await t()
      .store.db.updateTable('order_words')
      .set({ words: `${tag} 2 erika` })
      .where('order_id', '=', confirmed)
      .execute();
    await m018.up(db);

    assert.equal(await wordsOf(open), `${tag} 1 ~sopen ~punpaid ~funfulfilled`);
    assert.match(await wordsOf(confirmed), new RegExp(`^${tag} 2 erika ~sconfirmed ~p[a-z]+ ~funfulfilled$`));
    assert.deepEqual(await ids(tag), [open, confirmed].sort());
    for (const query of ['sop', 'sconfirmed', 'punpaid', 'funf']) {
      const match = await t().store.reader.textMatch(ORDER_TEXT, [query], 1, undefined);
      const keys = await t()
        .store.db.selectFrom('orders')
        .select('order_id')
        .where(match.where)
        .where('order_id', 'in', [open, confirmed])
        .execute();
      assert.deepEqual(keys, [], `no order of the tag is found by "${query}"`);
    }
    const held = await t().store.reader.textMatch(ORDER_TEXT, [tag], 'all', [['~sconfirmed', '~scancelled']]);
    assert.equal(held.byKeys, true);
    const found = await t().store.db.selectFrom('orders').select('order_id').where(held.where).execute();
    assert.deepEqual(
      found.map((r) => Number(r.order_id)),
      [confirmed],
    );
  });
});
