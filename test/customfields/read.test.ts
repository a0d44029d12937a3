import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { describeEachBackend, json } from '../helpers/test-app.js';
import { customer, define, errorOf, setValue } from './cf-helpers.js';

const SEVEN = ['Number', 'Label', 'IsReadOnly', 'FieldType', 'Value', 'AllowedValues', 'Sort'];

describeEachBackend('GetCustomerCustomFields (reads)', (t) => {
  // Numbers 1..4 belong to this suite: sorted by Sort (2, 4 share 5), then Number.
  before(async () => {
    await define(t(), 1, { Label: 'Tier', FieldType: 'Select', AllowedValues: ['Gold', 'Silver'], Sort: 20 });
    await define(t(), 2, { Label: 'Notes', FieldType: 'Text', Sort: 5 });
    await define(t(), 3, { Label: 'Since', FieldType: 'Date', Sort: 30, IsReadOnly: true });
    await define(t(), 4, { Label: 'Visits', FieldType: 'Number', Sort: 5 });
    await customer(t(), 'r-1');
    for (const [n, v] of [
      [1, 'Gold'],
      [2, 'hello'],
      [3, '2024-02-29T12:00:00Z'],
    ] as const)
      assert.equal((await setValue(t(), 'r-1', n, v)).statusCode, 200);
  });

  test('all fields: the same list as the definitions, sorted by Sort then Number, seven properties each', async () => {
    const res = await t().inject('/customer/r-1/customfields/');
    assert.equal(res.statusCode, 200, res.body);
    const fields = json(res);
    const defs = json(await t().inject('/customfields/'));
    assert.deepEqual(
      fields.map((f: any) => f.Number),
      defs.map((d: any) => d.Number),
    );
    const mine = fields.filter((f: any) => f.Number <= 4);
    assert.deepEqual(
      mine.map((f: any) => f.Number),
      [2, 4, 1, 3],
    );
    for (const f of fields) assert.deepEqual(Object.keys(f), SEVEN);
    assert.deepEqual(mine[0], {
      Number: 2,
      Label: 'Notes',
      IsReadOnly: false,
      FieldType: 'Text',
      Value: 'hello',
      AllowedValues: null,
      Sort: 5,
    });
    assert.deepEqual(mine[1].Value, null, 'an unset value is null');
    assert.deepEqual(mine[2].AllowedValues, ['Gold', 'Silver']);
    assert.equal(mine[3].IsReadOnly, true);
  });

  test('dates are written in the wire date style, raw backslashes included; ISO on request', async () => {
    const res = await t().inject('/customer/r-1/customfields/3');
    assert.match(res.body, /"Value":"\\\/Date\(1709208000000-0000\)\\\/"/);
    const iso = await t().inject('/customer/r-1/customfields/3?jsconfig=DateHandler:ISO8601');
    assert.equal(json(iso)[0].Value, '2024-02-29T12:00:00.000Z');
  });

  test('the numbers route: 1,3 and [1,3] in the path, sorted, unknown numbers left out', async () => {
    for (const path of ['3,1', '[3,1]', '1,3,999999,2147483648,-4']) {
      const res = await t().inject(`/customer/r-1/customfields/${path}`);
      assert.equal(res.statusCode, 200, res.body);
      assert.deepEqual(
        json(res).map((f: any) => f.Number),
        [1, 3],
        path,
      );
    }
    assert.deepEqual(json(await t().inject('/customer/r-1/customfields/999998')), []);
  });

  test('POST reads with {CustomerId, CustomFieldNumbers}; equal or absent body id', async () => {
    for (const payload of [{ CustomerId: 'r-1', CustomFieldNumbers: [4, 2] }, { customFieldNumbers: [4, 2] }]) {
      const res = await t().inject({ method: 'POST', url: '/customer/r-1/customfields/', payload });
      assert.equal(res.statusCode, 200, res.body);
      assert.deepEqual(
        json(res).map((f: any) => f.Number),
        [2, 4],
      );
    }
    const all = await t().inject({ method: 'POST', url: '/customer/r-1/customfields/', payload: { CustomerId: 'r-1' } });
    assert.ok(json(all).length >= 4);
  });

  test('predefined routes and the .json suffix read the same', async () => {
    const expected = json(await t().inject('/customer/r-1/customfields/1,2'));
    const forms = [
      t().inject('/api/GetCustomerCustomFields?CustomerId=r-1&CustomFieldNumbers=1,2'),
      t().inject({
        method: 'POST',
        url: '/json/reply/GetCustomerCustomFields',
        payload: { CustomerId: 'r-1', CustomFieldNumbers: [2, 1] },
      }),
      t().inject('/customer/r-1/customfields/1,2.json'),
      t().inject('/customer/r-1/customfields/?CustomFieldNumbers=1&CustomFieldNumbers=2'),
    ];
    for (const res of await Promise.all(forms)) {
      assert.equal(res.statusCode, 200, res.body);
      assert.deepEqual(json(res), expected);
    }
  });

  test('an ETag header comes with every read and changes with a write', async () => {
    await customer(t(), 'r-etag');
    const a = await t().inject('/customer/r-etag/customfields/');
    const b = await t().inject('/customer/r-etag/customfields/2');
    assert.match(String(a.headers.etag), /^"[0-9a-z]+-\d+"$/);
    assert.equal(a.headers.etag, b.headers.etag);
    await setValue(t(), 'r-etag', 2, 'x');
    const c = await t().inject('/customer/r-etag/customfields/');
    assert.notEqual(c.headers.etag, a.headers.etag);
  });

  test('unknown customer → 404 on every form', async () => {
    for (const res of [
      await t().inject('/customer/nobody/customfields/'),
      await t().inject('/customer/nobody/customfields/1'),
      await t().inject({ method: 'POST', url: '/customer/nobody/customfields/', payload: {} }),
    ]) {
      assert.equal(errorOf(res, 404).ErrorCode, 'NotFound');
    }
  });

  test('a body CustomerId different from the path → 400 naming CustomerId', async () => {
    const res = await t().inject({
      method: 'POST',
      url: '/customer/r-1/customfields/',
      payload: { CustomerId: 'r-2', CustomFieldNumbers: [1] },
    });
    const status = errorOf(res, 400);
    assert.equal(status.ErrorCode, 'Equal');
    assert.equal(status.Errors[0]!.FieldName, 'CustomerId');
  });

  test('numbers that are not integers → 400 SerializationException naming CustomFieldNumbers', async () => {
    const status = errorOf(await t().inject('/customer/r-1/customfields/1,abc'), 400);
    assert.equal(status.ErrorCode, 'SerializationException');
    assert.equal(status.Errors[0]!.FieldName, 'CustomFieldNumbers');
    const many = Array.from({ length: 1001 }, (_, i) => i + 1);
    const tooMany = errorOf(
      await t().inject({ method: 'POST', url: '/customer/r-1/customfields/', payload: { CustomFieldNumbers: many } }),
      400,
    );
    assert.equal(tooMany.Errors[0]!.FieldName, 'CustomFieldNumbers');
  });

  test('camelCase on request', async () => {
    const res = await t().inject('/customer/r-1/customfields/2?jsconfig=EmitCamelCaseNames:true');
    assert.deepEqual(
      Object.keys(json(res)[0]),
      SEVEN.map((k) => k[0]!.toLowerCase() + k.slice(1)),
    );
  });

  test('a customer without definitions in the selection reads as []; other verbs → 405', async () => {
    assert.deepEqual(json(await t().inject('/customer/r-1/customfields/777777')), []);
    const res = await t().inject({ method: 'DELETE', url: '/customer/r-1/customfields/' });
    assert.equal(res.statusCode, 405);
    assert.equal(res.headers.allow, 'GET, POST, PATCH');
    const one = await t().inject({ method: 'DELETE', url: '/customer/r-1/customfields/1' });
    assert.equal(one.statusCode, 405);
    assert.equal(one.headers.allow, 'GET, PUT', 'the numbers route and the one-field write share a path');
  });
});
