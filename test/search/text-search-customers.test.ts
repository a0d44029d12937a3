import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import type { LightMyRequestResponse } from 'fastify';
import { describeEachBackend, json } from '../helpers/test-app.js';
import { idsOf, putCustomer, sorted } from '../customers/customer-helpers.js';
import { fieldErrors, unique } from '../orders/order-fixtures.js';

const find = (query: string, more = ''): string => `/customer/?Query=${encodeURIComponent(query)}${more}`;

describeEachBackend(
  'SearchCustomers: Query',
  (t) => {
    // Every customer of this suite carries the tag as a word, so that queries see only them.
    const tag = `t${unique()}`;
    const id = (n: string): string => `${tag}-${n}`;
    before(async () => {
      await putCustomer(t(), id('anna'), { FirstName: 'Anna', LastName: 'Müller', City: 'Köln', PostalCode: '50667', Company: tag });
      await putCustomer(t(), id('bernd'), { FirstName: 'Bernd', LastName: 'Mullins', City: 'Bonn', PostalCode: '53111', Company: tag });
      await putCustomer(t(), id('cem'), {
        FirstName: 'Çem',
        LastName: 'Straßer',
        City: 'Köln',
        Company: `${tag} Gießerei`,
        ExternalId: `${tag}-ERP-77`,
      });
      await putCustomer(t(), id('dora'), { FirstName: 'Dora', LastName: 'Hammüller', City: 'Köln', Company: tag });
    });

    test('`müll köln` finds Anna Müller in Köln', async () => {
      assert.deepEqual(idsOf(await t().inject(find(`müll köln ${tag}`))), [id('anna')]);
    });

    test('case and accents do not matter, in the query or in the data', async () => {
      for (const q of ['MULL KOLN', 'Müll Köln', 'mull koln', 'MÜLLER'])
        assert.deepEqual(idsOf(await t().inject(find(`${q} ${tag}`))), [id('anna')], q);
      assert.deepEqual(idsOf(await t().inject(find(`cem ${tag}`))), [id('cem')], 'Ç folds to c');
      assert.deepEqual(idsOf(await t().inject(find(`strasser giesserei ${tag}`))), [id('cem')], 'ß is ss');
    });

    test('a word is matched by its start, not inside it', async () => {
      assert.deepEqual(sorted(idsOf(await t().inject(find(`mul ${tag}`)))), [id('anna'), id('bernd')]);
      assert.deepEqual(idsOf(await t().inject(find(`uller ${tag}`))), [], 'no infix');
      assert.deepEqual(idsOf(await t().inject(find(`hamm ${tag}`))), [id('dora')]);
    });

    test('every query word must match (AND), each in any of the fields', async () => {
      assert.deepEqual(sorted(idsOf(await t().inject(find(`köln ${tag}`)))), [id('anna'), id('cem'), id('dora')]);
      assert.deepEqual(idsOf(await t().inject(find(`köln bernd ${tag}`))), []);
      assert.deepEqual(idsOf(await t().inject(find(`5011 ${tag}`))), [], 'postal code by its start only');
      assert.deepEqual(idsOf(await t().inject(find(`5311 ${tag}`))), [id('bernd')], 'postal code');
      assert.deepEqual(idsOf(await t().inject(find(`erp 77 ${tag}`))), [id('cem')], 'ExternalId, split at the hyphens');
      assert.deepEqual(idsOf(await t().inject(find(`${tag}-anna`))), [id('anna')], 'CustomerId');
    });

    test('combined with Identifiers and LastModifiedAfter', async () => {
      assert.deepEqual(idsOf(await t().inject(find(`köln ${tag}`, `&Identifiers=${id('anna')},${id('bernd')}`))), [id('anna')]);
      assert.deepEqual(idsOf(await t().inject(find(`bonn ${tag}`, `&Identifiers=${id('anna')}`))), []);
      const all = json(await t().inject(find(tag))) as unknown[];
      assert.equal(all.length, 4);
      const since = (await t().inject(`/customer/?Identifiers=${id('cem')}`)).headers['x-sync-watermark'] as string;
      await putCustomer(t(), id('emil'), { LastName: 'Müllerschön', City: 'Köln', Company: tag });
      assert.deepEqual(idsOf(await t().inject(find(`müll ${tag}`, `&LastModifiedAfter=${encodeURIComponent(since)}`))), [id('emil')]);
      await putCustomer(t(), id('emil'), { LastName: 'Emilsen', City: 'Bonn', Company: 'other' });
    });

    test('Take and Skip page the matches in sync order', async () => {
      const all = idsOf(await t().inject(find(`köln ${tag}`)));
      assert.equal(all.length, 3);
      const page1 = await t().inject(find(`köln ${tag}`, '&Take=2'));
      assert.deepEqual(idsOf(page1), all.slice(0, 2));
      assert.ok(page1.headers['x-sync-cursor'], 'more rows remain');
      assert.deepEqual(idsOf(await t().inject(find(`köln ${tag}`, '&Take=2&Skip=2'))), all.slice(2));
      const next = await t().inject(find(`köln ${tag}`, `&Take=2&Cursor=${encodeURIComponent(page1.headers['x-sync-cursor'] as string)}`));
      assert.deepEqual(idsOf(next), all.slice(2));
    });

    test('kept current: after an update the old name no longer finds the customer, the new one does', async () => {
      await putCustomer(t(), id('fritz'), { FirstName: 'Fritz', LastName: 'Oldname', Company: tag });
      assert.deepEqual(idsOf(await t().inject(find(`oldname ${tag}`))), [id('fritz')]);
      await putCustomer(t(), id('fritz'), { FirstName: 'Fritz', LastName: 'Newname', Company: tag });
      assert.deepEqual(idsOf(await t().inject(find(`oldname ${tag}`))), []);
      assert.deepEqual(idsOf(await t().inject(find(`newname ${tag}`))), [id('fritz')]);
    });

    test('an erased customer is no longer found by its old values', async () => {
      await putCustomer(t(), id('gerd'), { FirstName: 'Gerd', LastName: 'Vergessen', City: 'Trier', Company: tag });
      assert.deepEqual(idsOf(await t().inject(find('vergessen trier'))), [id('gerd')]);
      assert.equal((await t().inject({ method: 'POST', url: `/customer/${id('gerd')}/erase` })).statusCode, 200);
      assert.deepEqual(idsOf(await t().inject(find('vergessen trier'))), []);
      assert.deepEqual(idsOf(await t().inject(find(`${tag}-gerd`))), [id('gerd')], 'the id stays, and finds it');
    });

    const refused = (res: LightMyRequestResponse): Record<string, string> => {
      assert.equal(res.statusCode, 400, res.body);
      return fieldErrors(json(res));
    };

    test('a Query shorter than 2 or longer than 100 characters, or without a letter or digit, is refused naming Query', async () => {
      assert.deepEqual(refused(await t().inject(find('m'))), { Query: 'MinimumLength' });
      assert.deepEqual(refused(await t().inject(find('m'.repeat(101)))), { Query: 'Length' });
      assert.deepEqual(refused(await t().inject(find('-- !'))), { Query: 'Predicate' });
      assert.deepEqual(refused(await t().inject({ method: 'POST', url: '/customer/', payload: { Query: 'x' } })), {
        Query: 'MinimumLength',
      });
      assert.equal((await t().inject(find('m'.repeat(100)))).statusCode, 200);
    });

    test('SQL and full-text syntax in a query are plain words', async () => {
      for (const q of [`"${tag}`, `${tag}*`, `${tag} OR x`, `'${tag}':* | x`, `${tag} NEAR(a b)`, `${tag}' or 1=1 --`]) {
        const res = await t().inject(find(q));
        assert.equal(res.statusCode, 200, `${q}: ${res.body}`);
      }
      assert.deepEqual(idsOf(await t().inject(find(`${tag} or`))), [], '"or" is a word to match');
    });
  },
  {},
  { pgbouncer: true },
);
