import assert from 'node:assert/strict';
import { test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { sql } from 'kysely';
import { customerRepository } from '../../src/customers/customer.repository.js';
import { upsertCustomer } from '../../src/customers/customer.service.js';
import { nextStamp } from '../../src/store/sync-clock.js';
import { describeEachBackend, json } from '../helpers/test-app.js';
import { currentWatermark, idsOf, putCustomer, watermarkOf } from './customer-helpers.js';

const confirmation = (extra: Record<string, unknown>) => ({
  CustomerFirstName: 'Clara',
  CustomerLastName: 'Schulz',
  CustomerPostalCode: '04109',
  CustomerCity: 'Leipzig',
  CustomerCountry: 'DE',
  CustomerStreet: 'Markt',
  CustomerEMail: 'clara@example.org',
  ...extra,
});

/** Every kind of write to a customer moves it into the sync feed after the previous watermark. */
describeEachBackend('every write to a customer moves its modification stamp', (t) => {
  let watermark = 0;
  const feed = async (): Promise<Array<Record<string, string | null>>> => {
    const res = await t().inject(`/customer/?LastModifiedAfter=/Date(${watermark})/`);
    watermark = watermarkOf(res);
    return json(res);
  };
  const sync = async (): Promise<string[]> => (await feed()).map((c) => c.CustomerId!);

  test('upsert, also with unchanged data', async () => {
    await putCustomer(t(), 'mv-a', { City: 'Gotha' });
    watermark = await currentWatermark(t().store);
    await putCustomer(t(), 'mv-a', { City: 'Gotha' });
    assert.deepEqual(await sync(), ['mv-a']);
    assert.deepEqual(await sync(), []);
  });

  test('custom-field writes: PUT, PATCH, and deleting a definition the customer has a value of', async () => {
    await putCustomer(t(), 'mv-b');
    const def = await t().inject({ method: 'PUT', url: '/customfields/41', payload: { Label: 'Note', FieldType: 'Text' } });
    assert.ok(def.statusCode < 300, def.body);
    watermark = await currentWatermark(t().store);
    assert.equal((await t().inject({ method: 'PUT', url: '/customer/mv-b/customfields/41', payload: { Value: 'x' } })).statusCode, 200);
    assert.deepEqual(await sync(), ['mv-b']);
    assert.equal(
      (await t().inject({ method: 'PATCH', url: '/customer/mv-b/customfields/', payload: [{ Number: 41, Value: 'y' }] })).statusCode,
      200,
    );
    assert.deepEqual(await sync(), ['mv-b']);
    assert.equal((await t().inject({ method: 'DELETE', url: '/customfields/41' })).statusCode, 204);
    assert.deepEqual(await sync(), ['mv-b']);
  });

  test('order confirmation: the named customer is updated, an unknown external id creates one', async () => {
    await putCustomer(t(), 'mv-c', { FirstName: 'Old' });
    watermark = await currentWatermark(t().store);
    const order = json(await t().inject({ method: 'POST', url: '/orders', payload: {} }));
    const res = await t().inject({
      method: 'POST',
      url: `/orders/${order.OrderId}/confirm`,
      payload: confirmation({ CustomerId: 'mv-c' }),
    });
    assert.equal(res.statusCode, 200, res.body);
    const changed = await feed();
    assert.deepEqual(
      changed.map((c) => [c.CustomerId, c.FirstName]),
      [['mv-c', 'Clara']],
    );

    const second = json(await t().inject({ method: 'POST', url: '/orders', payload: {} }));
    const created = await t().inject({
      method: 'POST',
      url: `/orders/${second.OrderId}/confirm`,
      payload: confirmation({ ExternalCustomerId: 'mv-ext-new' }),
    });
    assert.equal(created.statusCode, 200, created.body);
    const fresh = await feed();
    assert.equal(fresh.length, 1);
    assert.equal(fresh[0]!.ExternalId, 'mv-ext-new');
    assert.equal(fresh[0]!.CustomerId, json(created).CustomerId);
  });

  test('an upsert that meets a writer taking its locks in the other order still succeeds', async () => {
    await putCustomer(t(), 'mv-dl', { FirstName: 'Before' });
    const store = t().store;
    const deadlocks = async () =>
      t().backend === 'postgres'
        ? Number(
            (await sql<{ n: number }>`select deadlocks as n from pg_stat_database where datname = current_database()`.execute(store.db))
              .rows[0]!.n,
          )
        : 0;
    const before = await deadlocks();
    // The other writer takes the clock first and only then the customer's row; the upsert holds the row and waits for the clock.
    const other = store
      .writeTransaction(async (trx) => {
        const stamp = await nextStamp(trx);
        await sleep(300);
        await customerRepository.touch(trx, ['mv-dl'], stamp);
      })
      .then(
        () => 'ok',
        (err: { code?: string }) => err.code,
      );
    await sleep(100);
    const upserted = await upsertCustomer(t().app.writes, { CustomerId: 'mv-dl', FirstName: 'After' });
    assert.equal(upserted.FirstName, 'After');
    assert.ok(['ok', '40P01'].includes((await other) as string));
    assert.equal((await t().inject('/customer/?Identifiers=mv-dl').then(json))[0].FirstName, 'After');
    if (t().backend === 'postgres') {
      let after = before;
      for (let i = 0; i < 30 && after === before; i++, await sleep(200)) after = await deadlocks();
      assert.ok(after > before, 'PostgreSQL saw the deadlock (and the upsert was retried)');
    }
  });

  test('touch, as other modules call it', async () => {
    await putCustomer(t(), 'mv-d');
    await putCustomer(t(), 'mv-e');
    watermark = await currentWatermark(t().store);
    await t().store.writeTransaction(async (trx) => customerRepository.touch(trx, ['mv-e', 'mv-d'], await nextStamp(trx)));
    assert.deepEqual(await sync(), ['mv-d', 'mv-e']);
    assert.deepEqual(idsOf(await t().inject(`/customer/?LastModifiedAfter=/Date(${watermark})/`)), []);
  });
});
