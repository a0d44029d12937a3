import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { CUSTOMER_FIELDS } from '../../src/customers/customer.schemas.js';
import { describeEachBackend, json } from '../helpers/test-app.js';
import { currentWatermark, idsOf, putCustomer, sorted } from './customer-helpers.js';

const q = (ids: string[]): string => ids.map(encodeURIComponent).join(',');

describeEachBackend('SearchCustomers: Identifiers in every input form', (t) => {
  const ids = ['fi-1', 'fi-2', 'fi-3'];
  const want = ['fi-1', 'fi-2'];
  before(async () => {
    for (const id of ids) await putCustomer(t(), id, { ExternalId: `${id}-ext`, LastName: id });
  });

  const forms: Array<[string, () => Parameters<ReturnType<typeof t>['inject']>[0]]> = [
    ['query a,b', () => `/customer/?Identifiers=${q(want)}`],
    ['query [a,b]', () => `/customer/?Identifiers=[${q(want)}]`],
    ['repeated query keys', () => `/customer/?Identifiers=fi-1&Identifiers=fi-2`],
    ['query key in another casing', () => `/customer/?identifiers=${q(want)}`],
    ['JSON body, PascalCase', () => ({ method: 'POST', url: '/customer/', payload: { Identifiers: want } })],
    ['JSON body, camelCase', () => ({ method: 'POST', url: '/customer/', payload: { identifiers: want } })],
    ['JSON body, upper case', () => ({ method: 'POST', url: '/customer/', payload: { IDENTIFIERS: want } })],
    [
      'JSON body as text/plain',
      () => ({
        method: 'POST',
        url: '/customer/',
        headers: { 'content-type': 'text/plain' },
        payload: JSON.stringify({ Identifiers: want }),
      }),
    ],
    [
      'JSON body without Content-Type',
      () => ({
        method: 'POST',
        url: '/customer/',
        headers: { 'content-type': undefined as unknown as string },
        payload: JSON.stringify({ Identifiers: want }),
      }),
    ],
    [
      'form body a,b',
      () => ({
        method: 'POST',
        url: '/customer/',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: `Identifiers=${q(want)}`,
      }),
    ],
    [
      'form body, repeated keys',
      () => ({
        method: 'POST',
        url: '/customer/',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: 'Identifiers=fi-1&Identifiers=fi-2',
      }),
    ],
    ['/api/SearchCustomers GET', () => `/api/SearchCustomers?Identifiers=${q(want)}`],
    ['/api/SearchCustomers POST', () => ({ method: 'POST', url: '/api/SearchCustomers', payload: { Identifiers: want } })],
    ['/json/reply/SearchCustomers GET', () => `/json/reply/SearchCustomers?Identifiers=[${q(want)}]`],
    [
      '/json/reply/SearchCustomers POST',
      () => ({
        method: 'POST',
        url: '/json/reply/SearchCustomers',
        headers: { 'content-type': 'text/plain' },
        payload: JSON.stringify({ identifiers: want }),
      }),
    ],
    ['external ids', () => `/customer/?Identifiers=fi-1-ext,fi-2-ext`],
    ['one id and the other external id', () => `/customer/?Identifiers=fi-1,fi-2-ext`],
  ];
  for (const [name, request] of forms) {
    test(name, async () => {
      const res = await t().inject(request());
      assert.deepEqual(sorted(idsOf(res)), want);
      assert.ok(res.headers['x-sync-watermark'], 'every answer carries the watermark');
    });
  }

  test('a customer matched by its id and its external id comes once; union over identifiers', async () => {
    assert.deepEqual(sorted(idsOf(await t().inject('/customer/?Identifiers=fi-1,fi-1-ext,fi-1,fi-3-ext'))), ['fi-1', 'fi-3']);
  });

  test("an identifier equal to one customer's id and another's external id finds both", async () => {
    await putCustomer(t(), 'fi-x', { ExternalId: 'fi-y' });
    await putCustomer(t(), 'fi-y', { ExternalId: 'fi-z' });
    assert.deepEqual(sorted(idsOf(await t().inject('/customer/?Identifiers=fi-y'))), ['fi-x', 'fi-y']);
  });

  test('matching is exact: no prefix, no case folding, no wildcard', async () => {
    for (const probe of ['fi', 'FI-1', 'fi-1 ', 'fi-%', 'fi-_']) {
      const res = await t().inject({ method: 'POST', url: '/customer/', payload: { Identifiers: [probe] } });
      assert.deepEqual(idsOf(res), [], probe);
    }
  });

  test('SQL-looking identifiers are plain strings', async () => {
    const evil = ["' OR 1=1 --", "fi-1'; DELETE FROM customers; --", '") OR ("1"="1', "fi-3' UNION SELECT * FROM api_keys --"];
    await putCustomer(t(), evil[0]!, { ExternalId: evil[2] });
    const res = await t().inject({ method: 'POST', url: '/customer/', payload: { Identifiers: evil } });
    assert.deepEqual(idsOf(res), [evil[0]]);
    assert.deepEqual(sorted(idsOf(await t().inject(`/customer/?Identifiers=${q(ids)}`))), ids, 'nothing deleted');
  });

  test('an empty Identifiers is the same as none', async () => {
    const after = (await currentWatermark(t().store)) - 1;
    const since = `LastModifiedAfter=/Date(${after})/`;
    const none = idsOf(await t().inject(`/customer/?${since}`));
    assert.ok(none.length >= 1);
    for (const req of [
      `/customer/?${since}&Identifiers=`,
      `/customer/?${since}&Identifiers=[]`,
      { method: 'POST' as const, url: `/customer/?${since}`, payload: { Identifiers: [] } },
      { method: 'POST' as const, url: `/customer/?${since}`, payload: { Identifiers: null } },
    ]) {
      assert.deepEqual(idsOf(await t().inject(req)), none, JSON.stringify(req));
    }
  });

  test('every answer has exactly the 14 spec fields, strings or null', async () => {
    await putCustomer(t(), 'fi-full', {
      ExternalId: 'fi-full-e',
      Salutation: 'Frau',
      FirstName: 'A',
      LastName: 'B',
      PostalCode: '01067',
      City: 'Dresden',
      Country: 'DE',
      Street: 'S',
      StreetNumber: '1a',
      Company: 'C',
      Company2: 'C2',
      AdditionToAddress: 'Hinterhaus',
      Quarter: 'Q',
    });
    const body = json(await t().inject('/customer/?Identifiers=fi-full,fi-3'));
    assert.equal(body.length, 2);
    for (const c of body) {
      assert.deepEqual(Object.keys(c), [...CUSTOMER_FIELDS]);
      for (const f of CUSTOMER_FIELDS) assert.ok(c[f] === null || typeof c[f] === 'string', f);
    }
    const full = body.find((c: { CustomerId: string }) => c.CustomerId === 'fi-full');
    assert.equal(full.Quarter, 'Q');
    assert.equal(full.PostalCode, '01067');
    const sparse = body.find((c: { CustomerId: string }) => c.CustomerId === 'fi-3');
    assert.equal(sparse.FirstName, null);
    assert.equal(sparse.Company2, null);
  });

  test('camelCase output keeps the 14 fields', async () => {
    const body = json(await t().inject('/customer/?Identifiers=fi-3&jsconfig=EmitCamelCaseNames:true'));
    assert.deepEqual(
      Object.keys(body[0]),
      CUSTOMER_FIELDS.map((f) => f[0]!.toLowerCase() + f.slice(1)),
    );
  });
});

describeEachBackend('SearchCustomers: bad input is a 400 naming the field and changes nothing', (t) => {
  const cases: Array<[string, Parameters<ReturnType<typeof t>['inject']>[0], string, string]> = [
    ['unparseable date in the query', '/customer/?LastModifiedAfter=yesterday', 'LastModifiedAfter', 'SerializationException'],
    ['impossible calendar date', '/customer/?LastModifiedAfter=2024-02-30', 'LastModifiedAfter', 'SerializationException'],
    [
      'unparseable date in a JSON body',
      { method: 'POST', url: '/customer/', payload: { LastModifiedAfter: '/Date(abc)/' } },
      'LastModifiedAfter',
      'SerializationException',
    ],
    [
      'a number is not a date',
      { method: 'POST', url: '/customer/', payload: { LastModifiedAfter: 1700000000000 } },
      'LastModifiedAfter',
      'SerializationException',
    ],
    [
      'Identifiers as a string in a JSON body',
      { method: 'POST', url: '/customer/', payload: { Identifiers: 'a,b' } },
      'Identifiers',
      'SerializationException',
    ],
    [
      'Identifiers as an object in a JSON body',
      { method: 'POST', url: '/customer/', payload: { identifiers: { a: 1 } } },
      'Identifiers',
      'SerializationException',
    ],
    [
      '1001 identifiers',
      { method: 'POST', url: '/customer/', payload: { Identifiers: Array.from({ length: 1001 }, (_, i) => `id-${i}`) } },
      'Identifiers',
      'Length',
    ],
    [
      '1001 identifiers in the query',
      `/customer/?Identifiers=${Array.from({ length: 1001 }, (_, i) => i).join(',')}`,
      'Identifiers',
      'Length',
    ],
    ['Take < 0', '/customer/?Take=-1', 'Take', 'GreaterThanOrEqual'],
    ['Skip < 0', { method: 'POST', url: '/customer/', payload: { Skip: -5 } }, 'Skip', 'GreaterThanOrEqual'],
    ['Take not a number', '/customer/?Take=ten', 'Take', 'SerializationException'],
    ['a cursor not issued here', '/customer/?Take=1&Cursor=not-a-cursor', 'Cursor', 'Predicate'],
    [
      'a forged cursor with a NUL',
      `/customer/?Take=1&Cursor=${Buffer.from(JSON.stringify([1, 'a\u0000b'])).toString('base64url')}`,
      'Cursor',
      'Predicate',
    ],
    [
      'a forged cursor with a fractional stamp',
      `/customer/?Cursor=${Buffer.from(JSON.stringify([1.5, 'a'])).toString('base64url')}`,
      'Cursor',
      'Predicate',
    ],
    ['an identifier over 255 characters', `/customer/?Identifiers=ok,${'x'.repeat(256)}`, 'Identifiers[1]', 'Length'],
    ['a NUL in an identifier', '/customer/?Identifiers=a%00b', 'Identifiers', 'SerializationException'],
    [
      'a date beyond the representable range',
      '/customer/?LastModifiedAfter=/Date(8640000000000001)/',
      'LastModifiedAfter',
      'SerializationException',
    ],
  ];
  for (const [name, req, field, code] of cases) {
    test(name, async () => {
      const res = await t().inject(req);
      assert.equal(res.statusCode, 400, res.body);
      const status = json(res).ResponseStatus;
      assert.equal(status.ErrorCode, code);
      assert.ok(
        status.Errors.some((e: { FieldName: string }) => e.FieldName === field),
        JSON.stringify(status),
      );
    });
  }

  test('exactly 1000 identifiers are fine', async () => {
    const res = await t().inject({
      method: 'POST',
      url: '/customer/',
      payload: { Identifiers: Array.from({ length: 1000 }, (_, i) => `none-${i}`) },
    });
    assert.deepEqual(idsOf(res), []);
  });

  test('unknown keys are ignored', async () => {
    const res = await t().inject({ method: 'POST', url: '/customer/', payload: { Identifiers: ['nobody'], Sort: 'x', Foo: [1] } });
    assert.deepEqual(idsOf(res), []);
  });
});
