import assert from 'node:assert/strict';
import { test } from 'node:test';
import { describeEachBackend, json, type TestApp } from '../helpers/test-app.js';
import { confirm, confirmation, createOrder, unique } from './order-fixtures.js';

async function customersWithExternalIds(app: TestApp, ids: string[]): Promise<Array<{ CustomerId: string; ExternalId: string }>> {
  return json(await app.inject({ method: 'POST', url: '/customer/', payload: { Identifiers: ids } }));
}

describeEachBackend('ConfirmOrder under concurrency', (t) => {
  test('parallel confirmations of one order with different bodies: exactly one wins, one customer is made', async () => {
    const id = await createOrder(t());
    const exts = Array.from({ length: 24 }, (_, i) => `cc-${unique()}-${i}`);
    const answers = await Promise.all(exts.map((ext) => confirm(t(), id, confirmation({ ExternalCustomerId: ext }))));
    const won = answers.filter((r) => r.statusCode === 200);
    assert.equal(won.length, 1, answers.map((r) => r.statusCode).join(','));
    for (const r of answers) if (r.statusCode !== 200) assert.equal(json(r).ResponseStatus.ErrorCode, 'AlreadyConfirmed');
    const made = await customersWithExternalIds(t(), exts);
    assert.equal(made.length, 1);
    assert.equal(made[0]!.CustomerId, json(won[0]!).CustomerId);
    assert.equal(json(await t().inject(`/orders/${id}`)).CustomerId, made[0]!.CustomerId);
  });

  test('parallel retries of one body: every answer is the same 200, one customer', async () => {
    const id = await createOrder(t());
    const ext = `cc-${unique()}`;
    const answers = await Promise.all(Array.from({ length: 16 }, () => confirm(t(), id, confirmation({ ExternalCustomerId: ext }))));
    for (const r of answers) {
      assert.equal(r.statusCode, 200);
      assert.equal(r.body, answers[0]!.body);
    }
    assert.equal((await customersWithExternalIds(t(), [ext])).length, 1);
  });

  test('parallel confirmations of different orders naming one new ExternalCustomerId: one customer for all', async () => {
    const ext = `cc-${unique()}`;
    const orders = await Promise.all(Array.from({ length: 12 }, () => createOrder(t())));
    const answers = await Promise.all(orders.map((id) => confirm(t(), id, confirmation({ ExternalCustomerId: ext }))));
    const customerIds = new Set(answers.map((r) => json(r).CustomerId));
    assert.equal(customerIds.size, 1);
    assert.equal((await customersWithExternalIds(t(), [ext])).length, 1);
  });

  test('a refused confirmation among parallel good ones changes nothing, and the good ones all commit', async () => {
    const orders = await Promise.all(Array.from({ length: 10 }, () => createOrder(t())));
    const tag = unique();
    const answers = await Promise.all(
      orders.map((id, i) =>
        confirm(
          t(),
          id,
          confirmation(
            i % 3 === 1 ? { CustomerId: `missing-${tag}`, ExternalCustomerId: `cc-${tag}-${i}` } : { ExternalCustomerId: `cc-${tag}-${i}` },
          ),
        ),
      ),
    );
    answers.forEach((r, i) => assert.equal(r.statusCode, i % 3 === 1 ? 400 : 200, `${i}: ${r.body}`));
    const made = await customersWithExternalIds(
      t(),
      orders.map((_, i) => `cc-${tag}-${i}`),
    );
    assert.deepEqual(
      made.map((c) => c.ExternalId).sort(),
      orders
        .map((_, i) => `cc-${tag}-${i}`)
        .filter((_, i) => i % 3 !== 1)
        .sort(),
    );
    for (const [i, id] of orders.entries())
      assert.equal(json(await t().inject(`/orders/${id}`)).Status, i % 3 === 1 ? 'Open' : 'Confirmed');
  });
});
