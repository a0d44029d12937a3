import assert from 'node:assert/strict';
import { test } from 'node:test';
import { bearer, describeEachBackend, json } from '../helpers/test-app.js';
import { customer, define, errorOf, freshNumber, readFields, setValue } from './cf-helpers.js';

describeEachBackend(
  'custom-field definitions (operator)',
  (t) => {
    const put = (n: number | string, payload: object, headers: Record<string, string> = {}) =>
      t().inject({ method: 'PUT', url: `/customfields/${n}`, payload, headers });

    test('PUT creates (201) then replaces (200); GET lists by Sort then Number', async () => {
      const [a, b, c] = [freshNumber(), freshNumber(), freshNumber()];
      const created = await put(a, { Label: ' Tier ', FieldType: 'select', AllowedValues: ['Gold', ' Silver'], Sort: -1000 });
      assert.equal(created.statusCode, 201, created.body);
      assert.deepEqual(json(created), {
        Number: a,
        Label: 'Tier',
        FieldType: 'Select',
        IsReadOnly: false,
        AllowedValues: ['Gold', 'Silver'],
        Sort: -1000,
      });
      const replaced = await put(a, {
        Label: 'Tier 2',
        FieldType: 'Select',
        AllowedValues: ['Gold', 'Silver', 'Bronze'],
        IsReadOnly: true,
        Sort: -999,
      });
      assert.equal(replaced.statusCode, 200, replaced.body);
      await define(t(), c, { Label: 'C', FieldType: 'Text', Sort: -999 });
      await define(t(), b, { Label: 'B', FieldType: 'Boolean', Sort: -998, AllowedValues: [] });
      const list = json(await t().inject({ url: '/customfields/', headers: bearer(t().keys.all) }));
      const mine = list.filter((d: any) => [a, b, c].includes(d.Number));
      assert.deepEqual(
        mine.map((d: any) => d.Number),
        [a, c, b],
      );
      assert.deepEqual(mine[0], {
        Number: a,
        Label: 'Tier 2',
        FieldType: 'Select',
        IsReadOnly: true,
        AllowedValues: ['Gold', 'Silver', 'Bronze'],
        Sort: -999,
      });
      assert.equal(mine[2].AllowedValues, null);
    });

    test('every invalid definition → 400 naming the field, one entry each, nothing stored', async () => {
      const n = freshNumber();
      const cases: Array<[number | string, object, string, string]> = [
        [n, { FieldType: 'Text' }, 'Label', 'NotEmpty'],
        [n, { Label: 'x'.repeat(256), FieldType: 'Text' }, 'Label', 'Length'],
        [n, { Label: 'L' }, 'FieldType', 'NotEmpty'],
        [n, { Label: 'L', FieldType: 'Color' }, 'FieldType', 'Enum'],
        [n, { Label: 'L', FieldType: 'Select' }, 'AllowedValues', 'NotEmpty'],
        [n, { Label: 'L', FieldType: 'MultiSelect', AllowedValues: [] }, 'AllowedValues', 'NotEmpty'],
        [n, { Label: 'L', FieldType: 'Text', AllowedValues: ['a'] }, 'AllowedValues', 'Null'],
        [n, { Label: 'L', FieldType: 'Select', AllowedValues: ['a', ' '] }, 'AllowedValues[1]', 'NotEmpty'],
        [n, { Label: 'L', FieldType: 'Select', AllowedValues: ['a', 'b', 'a'] }, 'AllowedValues[2]', 'Unique'],
        [n, { Label: 'L', FieldType: 'Select', AllowedValues: ['y'.repeat(256)] }, 'AllowedValues[0]', 'Length'],
        [n, { Label: 'L', FieldType: 'Text', Sort: 2147483648 }, 'Sort', 'InclusiveBetween'],
        [0, { Label: 'L', FieldType: 'Text' }, 'Number', 'InclusiveBetween'],
        [2147483648, { Label: 'L', FieldType: 'Text' }, 'Number', 'InclusiveBetween'],
        ['abc', { Label: 'L', FieldType: 'Text' }, 'Number', 'SerializationException'],
        [n, { Label: 'L', FieldType: 'Text', IsReadOnly: 'maybe' }, 'IsReadOnly', 'SerializationException'],
      ];
      for (const [num, body, field, code] of cases) {
        const status = errorOf(await put(num, body), 400);
        assert.deepEqual(
          status.Errors.map((e) => [e.FieldName, e.ErrorCode]),
          [[field, code]],
          JSON.stringify(body),
        );
      }
      const both = errorOf(await put(n, { Label: '', FieldType: 'x', Sort: 2 ** 40 }), 400);
      assert.deepEqual(
        both.Errors.map((e) => e.FieldName),
        ['Label', 'FieldType', 'Sort'],
      );
      const list = json(await t().inject('/customfields/'));
      assert.ok(!list.some((d: any) => d.Number === n));
    });

    test('definitions need admin to change; all may list them', async () => {
      const n = freshNumber();
      const all = bearer(t().keys.all);
      assert.equal(errorOf(await put(n, { Label: 'L', FieldType: 'Text' }, all), 403).ErrorCode, 'Forbidden');
      await define(t(), n, { Label: 'L', FieldType: 'Text' });
      assert.equal((await t().inject({ method: 'DELETE', url: `/customfields/${n}`, headers: all })).statusCode, 403);
      assert.equal((await t().inject({ url: '/customfields/', headers: all })).statusCode, 200);
      assert.equal((await t().inject({ url: '/customfields/', headers: bearer(t().keys.adminOnly) })).statusCode, 403);
    });

    test('FieldType can change while the field has no values, never once it has some (409)', async () => {
      const n = freshNumber();
      await define(t(), n, { Label: 'L', FieldType: 'Text' });
      await define(t(), n, { Label: 'L', FieldType: 'Number' });
      await customer(t(), 'd-1');
      assert.equal((await setValue(t(), 'd-1', n, 5)).statusCode, 200);
      const status = errorOf(await put(n, { Label: 'L', FieldType: 'Decimal' }), 409);
      assert.equal(status.ErrorCode, 'FieldTypeImmutable');
      assert.equal(status.Errors[0]!.FieldName, 'FieldType');
      assert.equal((await put(n, { Label: 'Renamed', FieldType: 'number', Sort: 3 })).statusCode, 200, 'other properties may change');
      assert.equal((await setValue(t(), 'd-1', n, null)).statusCode, 200);
      assert.equal((await put(n, { Label: 'L', FieldType: 'Decimal' })).statusCode, 200, 'no values left');
    });

    test('an allowed value in use cannot be removed (409); unused ones can', async () => {
      const [sel, multi] = [freshNumber(), freshNumber()];
      await define(t(), sel, { Label: 'S', FieldType: 'Select', AllowedValues: ['A', 'B', 'C'] });
      await define(t(), multi, { Label: 'M', FieldType: 'MultiSelect', AllowedValues: ['A', 'B', 'C'] });
      await customer(t(), 'd-2');
      await setValue(t(), 'd-2', sel, 'B');
      await setValue(t(), 'd-2', multi, ['C', 'A']);
      const s = errorOf(await put(sel, { Label: 'S', FieldType: 'Select', AllowedValues: ['A', 'C'] }), 409);
      assert.equal(s.ErrorCode, 'AllowedValueInUse');
      assert.equal(s.Errors[0]!.FieldName, 'AllowedValues');
      assert.match(s.Message, /\bB\b/);
      assert.equal(
        errorOf(await put(multi, { Label: 'M', FieldType: 'MultiSelect', AllowedValues: ['B', 'C'] }), 409).ErrorCode,
        'AllowedValueInUse',
      );
      assert.equal((await put(sel, { Label: 'S', FieldType: 'Select', AllowedValues: ['B', 'D'] })).statusCode, 200);
      assert.equal((await put(multi, { Label: 'M', FieldType: 'MultiSelect', AllowedValues: ['A', 'C'] })).statusCode, 200);
      const defs = json(await t().inject('/customfields/')).filter((d: any) => d.Number === sel);
      assert.deepEqual(defs[0].AllowedValues, ['B', 'D']);
    });

    test('DELETE removes the definition and its values, moves ETag and sync stamp; unknown → 404', async () => {
      const n = freshNumber();
      await define(t(), n, { Label: 'Gone', FieldType: 'Text' });
      await customer(t(), 'd-3');
      await setValue(t(), 'd-3', n, 'v');
      const before = await t().inject('/customer/d-3/customfields/');
      const mark = String((await t().inject('/customer/?Identifiers=nobody')).headers['x-sync-watermark']);
      const del = await t().inject({ method: 'DELETE', url: `/customfields/${n}` });
      assert.equal(del.statusCode, 204, del.body);
      assert.deepEqual(await readFields(t(), 'd-3', [n]), []);
      const after = await t().inject('/customer/d-3/customfields/');
      assert.notEqual(after.headers.etag, before.headers.etag);
      const feed = json(await t().inject(`/customer/?LastModifiedAfter=${encodeURIComponent(mark)}`));
      assert.ok(feed.some((c: any) => c.CustomerId === 'd-3'));
      assert.equal(errorOf(await t().inject({ method: 'DELETE', url: `/customfields/${n}` }), 404).ErrorCode, 'NotFound');
      assert.equal(errorOf(await setValue(t(), 'd-3', n, 'v'), 404).ErrorCode, 'NotFound');
      await define(t(), n, { Label: 'Back', FieldType: 'Number' });
      assert.equal((await readFields(t(), 'd-3', [n]))[0].Value, null, 'a re-created field starts empty');
    });
  },
  {},
  { pgbouncer: true },
);
