import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import type { LightMyRequestResponse } from 'fastify';
import { describeEachBackend, json } from '../helpers/test-app.js';
import { confirm, confirmation, createOrder, fieldErrors, unique } from '../orders/order-fixtures.js';

const find = (query: string, more = ''): string => `/orders/?Query=${encodeURIComponent(query)}${more}`;
const ids = (res: LightMyRequestResponse): number[] => {
  assert.equal(res.statusCode, 200, res.body);
  return (json(res) as Array<{ OrderId: number }>).map((o) => o.OrderId);
};
const sorted = (list: readonly number[]): number[] => [...list].sort((a, b) => a - b);

describeEachBackend(
  'SearchOrders: Query',
  (t) => {
    // Every order of this suite carries the tag in its number, so that queries can be narrowed to them.
    // The numbers' words hold letters no hex digit is (`nr…`): the generated customer ids are UUIDs,
    // whose hex groups are words too and could start with any digits a query asks for.
    const tag = `t${unique()}`;
    let open: number, anna: number, bernd: number;
    let annaId: string;
    before(async () => {
      open = await createOrder(t(), { OrderNumber: `${tag}-NR1001` });
      anna = await createOrder(t(), { OrderNumber: `${tag}-NR1002` });
      bernd = await createOrder(t(), { OrderNumber: `${tag}-NR2001` });
      const res = await confirm(
        t(),
        anna,
        confirmation({
          OrderNumber: `${tag}-NR1002`,
          CustomerFirstName: 'Anna',
          CustomerLastName: 'Müller',
          CustomerCity: 'Köln',
          CustomerEMail: `anna.mueller@${tag}.example`,
          ExternalCustomerId: `${tag}-ERP-5`,
        }),
      );
      assert.equal(res.statusCode, 200, res.body);
      annaId = json(res).CustomerId;
      const res2 = await confirm(
        t(),
        bernd,
        confirmation({
          OrderNumber: `${tag}-NR2001`,
          CustomerFirstName: 'Bernd',
          CustomerLastName: 'Mullins',
          CustomerEMail: `bernd@${tag}.example`,
        }),
      );
      assert.equal(res2.statusCode, 200, res2.body);
    });

    test('by order number, whole or by the start of its words', async () => {
      assert.deepEqual(ids(await t().inject(find(`${tag}-NR1001`))), [open]);
      assert.deepEqual(sorted(ids(await t().inject(find(`${tag} nr100`)))), sorted([open, anna]));
      assert.deepEqual(ids(await t().inject(find(`${tag} r1001`))), [], 'not inside a word');
    });

    test('by the confirmed customer name, case- and accent-insensitively', async () => {
      assert.deepEqual(ids(await t().inject(find(`MULLER ${tag}`))), [anna]);
      assert.deepEqual(sorted(ids(await t().inject(find(`müll ${tag}`)))), sorted([anna, bernd]));
      assert.deepEqual(ids(await t().inject(find(`anna mü ${tag}`))), [anna]);
      assert.deepEqual(ids(await t().inject(find(`köln ${tag}`))), [], 'the city is not among the order fields');
    });

    test('by e-mail, ExternalCustomerId and CustomerId', async () => {
      assert.deepEqual(ids(await t().inject(find(`anna.mueller@${tag}`))), [anna]);
      assert.deepEqual(ids(await t().inject(find(`bernd@${tag}.example`))), [bernd]);
      assert.deepEqual(ids(await t().inject(find(`${tag}-erp-5`))), [anna]);
      assert.ok(ids(await t().inject(find(annaId))).includes(anna));
    });

    test('combined with Statuses and OrderIds; paged with Take and Skip', async () => {
      assert.deepEqual(ids(await t().inject(find(tag, '&Statuses=Open'))), [open]);
      assert.deepEqual(ids(await t().inject(find(tag, '&Statuses=Open&PaymentStatuses=Unpaid&FulfillmentStatuses=Unfulfilled'))), [open]);
      assert.deepEqual(ids(await t().inject(find(tag, '&FulfillmentStatuses=Returned'))), []);
      assert.deepEqual(ids(await t().inject(find(tag, '&PaymentStatuses=Refunded'))), []);
      assert.deepEqual(ids(await t().inject(find(`müll ${tag}`, `&OrderIds=${bernd}`))), [bernd]);
      const all = ids(await t().inject(find(tag)));
      assert.equal(all.length, 3);
      assert.deepEqual(ids(await t().inject(find(tag, '&Take=2'))), all.slice(0, 2));
      assert.deepEqual(ids(await t().inject(find(tag, '&Take=2&Skip=2'))), all.slice(2));
    });

    test('a confirmation makes the order findable by its customer at once', async () => {
      const later = await createOrder(t(), { OrderNumber: `${tag}-3001` });
      assert.deepEqual(ids(await t().inject(find(`zacharias ${tag}`))), []);
      const res = await confirm(
        t(),
        later,
        confirmation({ OrderNumber: `${tag}-3001`, CustomerFirstName: 'Zacharias', CustomerEMail: `z@${tag}.example` }),
      );
      assert.equal(res.statusCode, 200, res.body);
      assert.deepEqual(ids(await t().inject(find(`zacharias ${tag}`))), [later]);
    });

    test("an erased customer's orders are no longer found by its name or e-mail; by their number they are", async () => {
      const order = await createOrder(t(), { OrderNumber: `${tag}-4001` });
      const res = await confirm(
        t(),
        order,
        confirmation({
          OrderNumber: `${tag}-4001`,
          CustomerFirstName: 'Xaver',
          CustomerLastName: 'Vergessen',
          CustomerEMail: `xaver@${tag}.example`,
        }),
      );
      assert.equal(res.statusCode, 200, res.body);
      assert.deepEqual(ids(await t().inject(find(`xaver vergessen ${tag}`))), [order]);
      assert.equal((await t().inject({ method: 'POST', url: `/customer/${json(res).CustomerId}/erase` })).statusCode, 200);
      assert.deepEqual(ids(await t().inject(find(`xaver ${tag}`))), []);
      assert.deepEqual(ids(await t().inject(find(`vergessen ${tag}`))), []);
      assert.deepEqual(ids(await t().inject(find(`${tag}-4001`))), [order]);
    });

    test('a Query shorter than 2 or longer than 100 characters, or without a letter or digit, is refused naming Query', async () => {
      for (const [q, code] of [
        ['m', 'MinimumLength'],
        ['m'.repeat(101), 'Length'],
        ['@ -', 'Predicate'],
      ] as const) {
        const res = await t().inject(find(q));
        assert.equal(res.statusCode, 400, res.body);
        assert.deepEqual(fieldErrors(json(res)), { Query: code }, q);
      }
    });
  },
  {},
  { pgbouncer: true },
);
