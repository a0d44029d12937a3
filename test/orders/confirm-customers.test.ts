import assert from 'node:assert/strict';
import { test } from 'node:test';
import { newCustomerId } from '../../src/customers/customer.confirmation.js';
import { describeEachBackend, json, type TestApp } from '../helpers/test-app.js';
import { confirm, confirmation, createOrder, fieldErrors, unique } from './order-fixtures.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

async function customer(app: TestApp, id: string) {
  const res = await app.inject(`/customer/?Identifiers=${encodeURIComponent(id)}`);
  const rows = json(res);
  assert.ok(rows.length <= 1);
  return rows[0];
}

/** The sync watermark now: every change after it shows in a search with LastModifiedAfter = it. */
async function watermark(app: TestApp): Promise<string> {
  const res = await app.inject('/customer/?Identifiers=none-such-customer');
  return String(res.headers['x-sync-watermark']);
}

async function changedSince(app: TestApp, mark: string): Promise<string[]> {
  const res = await app.inject(`/customer/?LastModifiedAfter=${encodeURIComponent(mark)}`);
  return json(res).map((c: { CustomerId: string }) => c.CustomerId);
}

describeEachBackend('ConfirmOrder customer resolution', (t) => {
  test('CustomerId: that customer, its name and address written, its ExternalId kept, and the sync feed shows it', async () => {
    const id = `cr-${unique()}`;
    await t().inject({
      method: 'PUT',
      url: `/customer/${id}`,
      payload: { ExternalId: `${id}-ext`, FirstName: 'Old', City: 'Bonn', Quarter: 'Altstadt', Company: 'ACME' },
    });
    const mark = await watermark(t());
    const order = await createOrder(t());
    const res = await confirm(
      t(),
      order,
      confirmation({ CustomerId: id, ExternalCustomerId: 'ignored-when-CustomerId-given', CustomerCompany: undefined }),
    );
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(json(res).CustomerId, id);
    const c = await customer(t(), id);
    assert.deepEqual(
      [
        c.ExternalId,
        c.FirstName,
        c.LastName,
        c.City,
        c.PostalCode,
        c.Street,
        c.StreetNumber,
        c.Country,
        c.Salutation,
        c.Quarter,
        c.Company,
      ],
      [`${id}-ext`, 'Erika', 'Mustermann', 'Köln', '50667', 'Domkloster', '4', 'DE', 'Frau', 'Altstadt', 'ACME'],
    );
    assert.deepEqual(await changedSince(t(), mark), [id]);
    assert.equal(json(await t().inject(`/orders/${order}`)).CustomerId, id);
  });

  test('an unknown CustomerId is a 400 on that field; the order stays open and no customer is made', async () => {
    const order = await createOrder(t());
    const ext = `cr-none-${unique()}`;
    const res = await confirm(t(), order, confirmation({ CustomerId: `missing-${unique()}`, ExternalCustomerId: ext }));
    assert.equal(res.statusCode, 400);
    assert.deepEqual(fieldErrors(json(res)), { CustomerId: 'Predicate' });
    assert.equal(json(await t().inject(`/orders/${order}`)).Status, 'Open');
    assert.equal(await customer(t(), ext), undefined);
  });

  test('a confirmation of an order that is not open writes no customer and leaves the sync feed alone', async () => {
    const id = `cr-${unique()}`;
    await t().inject({ method: 'PUT', url: `/customer/${id}`, payload: { FirstName: 'Kept', City: 'Bonn' } });
    const confirmed = await createOrder(t());
    const first = await confirm(t(), confirmed, confirmation({ CustomerId: id }));
    assert.equal(first.statusCode, 200);
    const cancelled = await createOrder(t());
    await t().inject({ method: 'POST', url: `/orders/${cancelled}/cancel` });
    const mark = await watermark(t());
    const ext = `cr-new-${unique()}`;
    // Unknown order, also with an unknown CustomerId: the order decides first.
    assert.equal((await confirm(t(), 999999999, confirmation({ ExternalCustomerId: ext }))).statusCode, 404);
    assert.equal((await confirm(t(), 999999999, confirmation({ CustomerId: `missing-${unique()}` }))).statusCode, 404);
    assert.equal((await confirm(t(), cancelled, confirmation({ CustomerId: id, CustomerCity: 'Aachen' }))).statusCode, 409);
    assert.equal((await confirm(t(), confirmed, confirmation({ CustomerId: id, CustomerCity: 'Aachen' }))).statusCode, 409);
    assert.equal((await confirm(t(), confirmed, confirmation({ CustomerId: id }))).body, first.body);
    assert.deepEqual(await changedSince(t(), mark), []);
    assert.equal(await customer(t(), ext), undefined);
    assert.equal((await customer(t(), id)).City, confirmation().CustomerCity);
  });

  test('ExternalCustomerId matching an ExternalId: that customer, updated', async () => {
    const id = `cr-${unique()}`;
    const ext = `${id}-ext`;
    await t().inject({ method: 'PUT', url: `/customer/${id}`, payload: { ExternalId: ext, FirstName: 'Old', LastName: 'Name' } });
    const mark = await watermark(t());
    const res = await confirm(t(), await createOrder(t()), confirmation({ ExternalCustomerId: ext, CustomerFirstName: 'New' }));
    assert.equal(json(res).CustomerId, id);
    const c = await customer(t(), id);
    assert.equal(c.FirstName, 'New');
    assert.equal(c.LastName, 'Mustermann');
    assert.deepEqual(await changedSince(t(), mark), [id]);
  });

  test('ExternalCustomerId matching nobody: a new customer with a generated id and that ExternalId; the next order finds it', async () => {
    const ext = `cr-new-${unique()}`;
    const mark = await watermark(t());
    const first = json(await confirm(t(), await createOrder(t()), confirmation({ ExternalCustomerId: ext })));
    assert.match(first.CustomerId, UUID);
    const c = await customer(t(), ext);
    assert.equal(c.CustomerId, first.CustomerId);
    assert.equal(c.ExternalId, ext);
    assert.equal(c.City, 'Köln');
    assert.deepEqual(await changedSince(t(), mark), [first.CustomerId]);
    const second = json(await confirm(t(), await createOrder(t()), confirmation({ ExternalCustomerId: ext, CustomerCity: 'Bonn' })));
    assert.equal(second.CustomerId, first.CustomerId);
    assert.equal((await customer(t(), ext)).City, 'Bonn');
  });

  test('neither id: a new customer every time, without ExternalId', async () => {
    const a = json(await confirm(t(), await createOrder(t()), confirmation()));
    const b = json(await confirm(t(), await createOrder(t()), confirmation()));
    assert.match(a.CustomerId, UUID);
    assert.notEqual(a.CustomerId, b.CustomerId);
    const c = await customer(t(), a.CustomerId);
    assert.equal(c.ExternalId, null);
    assert.equal(c.LastName, 'Mustermann');
  });

  test('generated ids are UUIDs version 7: unique, and ordered by creation time', () => {
    const ids = [1_700_000_000_000, 1_700_000_000_001, 1_800_000_000_000].map((ms) => newCustomerId(ms));
    for (const id of ids) assert.match(id, UUID);
    assert.deepEqual([...ids].sort(), ids);
    assert.ok(ids[0]!.startsWith('018bcfe5-6800-7'));
    assert.notEqual(newCustomerId(1), newCustomerId(1));
  });

  test('optional address fields: a given value overwrites, an empty one clears, an absent one is kept', async () => {
    const id = `cr-${unique()}`;
    await t().inject({
      method: 'PUT',
      url: `/customer/${id}`,
      payload: { Salutation: 'Herr', Company: 'ACME', Company2: 'Dept', StreetNumber: '9' },
    });
    const body = confirmation({ CustomerId: id, CustomerSalutation: 'Frau', CustomerCompany: '' });
    delete body.CustomerCompany2;
    delete body.CustomerStreetNumber;
    assert.equal((await confirm(t(), await createOrder(t()), body)).statusCode, 200);
    const c = await customer(t(), id);
    assert.deepEqual([c.Salutation, c.Company, c.Company2, c.StreetNumber], ['Frau', null, 'Dept', '9']);
  });
});
