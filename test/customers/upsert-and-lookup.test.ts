import assert from 'node:assert/strict';
import { test } from 'node:test';
import { CUSTOMER_FIELDS } from '../../src/customers/customer.schemas.js';
import { bearer, describeEachBackend, json } from '../helpers/test-app.js';

describeEachBackend('PUT /customer/{id} and search by Identifiers', (t) => {
  test('an upserted customer is found by its id and by its external id, with all 14 fields', async () => {
    const put = await t().inject({
      method: 'PUT',
      url: '/customer/up-1',
      payload: { FirstName: 'Ann', externalid: 'up-ext-1', City: 'Köln' },
    });
    assert.equal(put.statusCode, 201, put.body);
    for (const id of ['up-1', 'up-ext-1']) {
      const res = await t().inject(`/customer/?Identifiers=${id}`);
      assert.equal(res.statusCode, 200);
      const body = json(res);
      assert.equal(body.length, 1);
      assert.deepEqual(Object.keys(body[0]), [...CUSTOMER_FIELDS]);
      assert.equal(body[0].CustomerId, 'up-1');
      assert.equal(body[0].City, 'Köln');
      assert.equal(body[0].LastName, null);
    }
  });

  test('201 when the PUT created the customer, 200 when it replaced it; the same body either way', async () => {
    const created = await t().inject({ method: 'PUT', url: '/customer/up-201', payload: { FirstName: 'New' } });
    assert.equal(created.statusCode, 201, created.body);
    const replaced = await t().inject({ method: 'PUT', url: '/customer/up-201', payload: { FirstName: 'Again' } });
    assert.equal(replaced.statusCode, 200, replaced.body);
    assert.deepEqual([json(created).FirstName, json(replaced).FirstName], ['New', 'Again']);
    assert.deepEqual(Object.keys(json(created)), Object.keys(json(replaced)));
    const viaApi = await t().inject({ method: 'POST', url: '/api/UpsertCustomer', payload: { CustomerId: 'up-202' } });
    assert.equal(viaApi.statusCode, 201, viaApi.body);
    const events: Array<{ Type: string; Data: { CustomerId: string } }> = json(await t().inject('/events/?Take=10000'));
    assert.deepEqual(
      events.filter((e) => e.Data.CustomerId === 'up-201').map((e) => e.Type),
      ['customer.created', 'customer.updated'],
    );
  });

  test('the upsert needs the admin permission', async () => {
    const res = await t().inject({ method: 'PUT', url: '/customer/up-2', headers: bearer(t().keys.all), payload: {} });
    assert.equal(res.statusCode, 403);
    assert.equal(json(res).ResponseStatus.ErrorCode, 'Forbidden');
    const search = await t().inject('/customer/?Identifiers=up-2');
    assert.deepEqual(json(search), []);
  });

  test('an ExternalId held by another customer is a 409 naming the field, and changes nothing', async () => {
    await t().inject({ method: 'PUT', url: '/customer/up-3', payload: { ExternalId: 'up-ext-3' } });
    const res = await t().inject({ method: 'PUT', url: '/customer/up-4', payload: { ExternalId: 'up-ext-3', FirstName: 'X' } });
    assert.equal(res.statusCode, 409);
    assert.equal(json(res).ResponseStatus.Errors[0].FieldName, 'ExternalId');
    assert.deepEqual(json(await t().inject('/customer/?Identifiers=up-4')), []);
  });

  test('a field over 255 characters is a 400 Length error', async () => {
    const res = await t().inject({ method: 'PUT', url: '/customer/up-5', payload: { Street: 'x'.repeat(256) } });
    assert.equal(res.statusCode, 400);
    const status = json(res).ResponseStatus;
    assert.equal(status.ErrorCode, 'Length');
    assert.equal(status.Errors[0].FieldName, 'Street');
  });
});
