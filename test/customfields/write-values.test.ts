import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { describeEachBackend, json } from '../helpers/test-app.js';
import { customer, define, errorOf, setValue, valueOf } from './cf-helpers.js';

// Numbers 11..17 belong to this suite, one per FieldType.
const F = { Text: 11, Number: 12, Decimal: 13, Boolean: 14, Date: 15, Select: 16, MultiSelect: 17 } as const;
const CHOICES = ['Gold', 'Silver', 'a,b'];

describeEachBackend(
  'custom-field values: typing and validation',
  (t) => {
    before(async () => {
      for (const [type, n] of Object.entries(F)) {
        await define(t(), n, { Label: type, FieldType: type, AllowedValues: type.endsWith('Select') ? CHOICES : null });
      }
      await customer(t(), 'v-1');
    });

    test('every FieldType keeps the JSON type of its values (JSON in, text form in)', async () => {
      const cases: Array<[number, unknown, unknown]> = [
        [F.Text, 'hello', 'hello'],
        [F.Text, '', ''],
        [F.Number, 42, 42],
        [F.Number, '-7', -7],
        [F.Decimal, 12.5, 12.5],
        [F.Decimal, '1e3', 1000],
        [F.Boolean, false, false],
        [F.Boolean, 'TRUE', true],
        [F.Date, '\\/Date(1700000000000+0100)\\/', '/Date(1700000000000-0000)/'],
        [F.Date, '2024-01-02', '/Date(1704153600000-0000)/'],
        [F.Select, 'Silver', 'Silver'],
        [F.MultiSelect, ['Silver', 'Gold', 'Silver'], ['Silver', 'Gold']],
        [F.MultiSelect, 'Gold,"a,b"', ['Gold', 'a,b']],
        [F.MultiSelect, [], []],
      ];
      for (const [n, input, expected] of cases) {
        const res = await setValue(t(), 'v-1', n, input);
        assert.equal(res.statusCode, 200, `${n} ${JSON.stringify(input)}: ${res.body}`);
        assert.deepEqual(json(res).Value, expected, `PUT answer for ${n} ${JSON.stringify(input)}`);
        assert.deepEqual(await valueOf(t(), 'v-1', n), expected, `read of ${n} ${JSON.stringify(input)}`);
      }
    });

    test('the PUT answer is the one field with its seven properties, and an ETag', async () => {
      const res = await setValue(t(), 'v-1', F.Select, 'Gold');
      assert.deepEqual(json(res), {
        Number: F.Select,
        Label: 'Select',
        IsReadOnly: false,
        FieldType: 'Select',
        Value: 'Gold',
        AllowedValues: CHOICES,
        Sort: 0,
      });
      assert.match(String(res.headers.etag), /^".+"$/);
    });

    test('null clears a value; the field then reads null', async () => {
      await setValue(t(), 'v-1', F.Number, 5);
      const res = await setValue(t(), 'v-1', F.Number, null);
      assert.equal(res.statusCode, 200, res.body);
      assert.equal(json(res).Value, null);
      assert.equal(await valueOf(t(), 'v-1', F.Number), null);
    });

    test('a value of the wrong type or outside the choices → 400 naming Value, and the old value stays', async () => {
      await setValue(t(), 'v-1', F.Text, 'kept');
      await setValue(t(), 'v-1', F.Number, 1);
      const bad: Array<[number, unknown, string]> = [
        [F.Text, 5, 'TypeMismatch'],
        [F.Text, 'x'.repeat(1001), 'Length'],
        [F.Text, 'a\u0000b', 'InvalidCharacter'],
        [F.Number, 1.5, 'TypeMismatch'],
        [F.Number, '12abc', 'TypeMismatch'],
        [F.Number, 2 ** 53, 'TypeMismatch'],
        [F.Number, '', 'TypeMismatch'],
        [F.Number, true, 'TypeMismatch'],
        [F.Decimal, 'x', 'TypeMismatch'],
        [F.Decimal, [1], 'TypeMismatch'],
        [F.Boolean, 'yes', 'TypeMismatch'],
        [F.Boolean, 1, 'TypeMismatch'],
        [F.Date, '2023-02-30', 'TypeMismatch'],
        [F.Date, 1700000000000, 'TypeMismatch'],
        [F.Select, 'Bronze', 'Enum'],
        [F.Select, 'gold', 'Enum'],
        [F.Select, ['Gold'], 'TypeMismatch'],
        [F.MultiSelect, ['Gold', 'Bronze'], 'Enum'],
        [F.MultiSelect, ['Gold', 1], 'TypeMismatch'],
        [F.MultiSelect, { Gold: true }, 'TypeMismatch'],
      ];
      for (const [n, input, code] of bad) {
        const status = errorOf(await setValue(t(), 'v-1', n, input), 400);
        assert.equal(status.ErrorCode, code, `${n} ${JSON.stringify(input).slice(0, 30)}`);
        assert.deepEqual(
          status.Errors.map((e) => e.FieldName),
          ['Value'],
        );
      }
      assert.equal(await valueOf(t(), 'v-1', F.Text), 'kept');
      assert.equal(await valueOf(t(), 'v-1', F.Number), 1);
    });

    test('a missing Value is refused (null must be explicit to clear)', async () => {
      const res = await t().inject({ method: 'PUT', url: `/customer/v-1/customfields/${F.Text}`, payload: { Valeu: 'typo' } });
      const status = errorOf(res, 400);
      assert.equal(status.ErrorCode, 'Required');
      assert.equal(status.Errors[0]!.FieldName, 'Value');
    });

    test('form bodies write every type through the text form', async () => {
      const res = await t().inject({
        method: 'PUT',
        url: `/customer/v-1/customfields/${F.Decimal}`,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: 'Value=3.25',
      });
      assert.equal(res.statusCode, 200, res.body);
      assert.equal(await valueOf(t(), 'v-1', F.Decimal), 3.25);
    });

    test('an undefined field → 404; an unknown customer → 404 after validation (invalid value → 400)', async () => {
      for (const n of [999997, 2147483648, 0]) assert.equal(errorOf(await setValue(t(), 'v-1', n, 'x'), 404).ErrorCode, 'NotFound');
      assert.equal(errorOf(await setValue(t(), 'nobody', F.Number, 3), 404).ErrorCode, 'NotFound');
      assert.equal(errorOf(await setValue(t(), 'nobody', F.Number, 'abc'), 400).ErrorCode, 'TypeMismatch');
      const id = errorOf(
        await t().inject({ method: 'PUT', url: `/customer/v-1/customfields/${F.Text}`, payload: { CustomerId: 'v-2', Value: 'x' } }),
        400,
      );
      assert.equal(id.Errors[0]!.FieldName, 'CustomerId');
    });
  },
  {},
  { pgbouncer: true },
);
