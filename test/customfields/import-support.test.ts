import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  customFieldColumn,
  customFieldDefinitions,
  isFieldError,
  parseCustomFieldText,
  storeCustomFieldValues,
  type CustomFieldDefinition,
} from '../../src/customfields/customfield.import.js';
import { describeEachBackend, json } from '../helpers/test-app.js';
import { customer, define, readFields } from './cf-helpers.js';

const def = (FieldType: CustomFieldDefinition['FieldType'], AllowedValues: string[] | null = null): CustomFieldDefinition => ({
  Number: 3,
  Label: 'L',
  FieldType,
  IsReadOnly: false,
  AllowedValues,
  Sort: 0,
});

test('parseCustomFieldText: every type from text, blank clears', () => {
  assert.equal(parseCustomFieldText(def('Text'), ' as is '), ' as is ');
  assert.equal(parseCustomFieldText(def('Number'), ' -12 '), -12);
  assert.equal(parseCustomFieldText(def('Decimal'), '2.50'), 2.5);
  assert.equal(parseCustomFieldText(def('Boolean'), 'False'), false);
  assert.equal(parseCustomFieldText(def('Boolean'), '1'), true);
  assert.equal(parseCustomFieldText(def('Date'), '2024-03-01'), Date.UTC(2024, 2, 1));
  assert.equal(parseCustomFieldText(def('Date'), '/Date(1700000000000)/'), 1700000000000);
  assert.equal(parseCustomFieldText(def('Select', ['A', 'B']), ' B '), 'B');
  assert.deepEqual(parseCustomFieldText(def('MultiSelect', ['A', 'B', 'x,y']), 'B,"x,y",B'), ['B', 'x,y']);
  for (const t of ['Text', 'Number', 'Boolean', 'Date', 'MultiSelect'] as const)
    assert.equal(parseCustomFieldText(def(t, ['A']), '  '), null);
});

test('parseCustomFieldText: refusals name the import column cf.<Number> (or the given name)', () => {
  const cases: Array<[CustomFieldDefinition, string, string]> = [
    [def('Number'), '1.5', 'TypeMismatch'],
    [def('Number'), '99999999999999999', 'TypeMismatch'],
    [def('Decimal'), '1,5', 'TypeMismatch'],
    [def('Boolean'), 'ja', 'TypeMismatch'],
    [def('Date'), '31.12.2024', 'TypeMismatch'],
    [def('Select', ['A']), 'a', 'Enum'],
    [def('MultiSelect', ['A']), 'A,C', 'Enum'],
    [def('Text'), 'x'.repeat(1001), 'Length'],
  ];
  for (const [d, text, code] of cases) {
    const r = parseCustomFieldText(d, text);
    assert.ok(isFieldError(r), `${d.FieldType} ${text}`);
    assert.equal(r.errorCode, code);
    assert.equal(r.fieldName, 'cf.3');
  }
  const named = parseCustomFieldText(def('Number'), 'x', 'row 7: cf.3');
  assert.ok(isFieldError(named) && named.fieldName === 'row 7: cf.3');
  assert.ok(!isFieldError(parseCustomFieldText(def('MultiSelect', ['A']), 'A')));
});

test('customFieldColumn reads cf.<Number> headers only', () => {
  assert.equal(customFieldColumn('cf.3'), 3);
  assert.equal(customFieldColumn(' CF.12 '), 12);
  for (const name of ['cf.', 'cf.x', 'FirstName', 'cf.3.1', 'xcf.3']) assert.equal(customFieldColumn(name), undefined);
});

describeEachBackend('storeCustomFieldValues (import support)', (t) => {
  test('stores and clears values in the caller transaction and moves the ETag', async () => {
    await define(t(), 41, { Label: 'Imported', FieldType: 'Number' });
    await define(t(), 42, { Label: 'Tags', FieldType: 'MultiSelect', AllowedValues: ['a', 'b'] });
    await customer(t(), 'imp-1');
    await customer(t(), 'imp-2');
    const before = (await t().inject('/customer/imp-1/customfields/')).headers.etag;
    const defs = await t().store.writeTransaction(async (trx) => {
      const found = await customFieldDefinitions(trx, true);
      await storeCustomFieldValues(trx, [
        { customerId: 'imp-1', number: 41, value: parseCustomFieldText(found.get(41)!, '7') as number },
        { customerId: 'imp-1', number: 42, value: ['b'] },
        { customerId: 'imp-2', number: 41, value: 8 },
      ]);
      return found;
    });
    assert.equal(defs.get(42)?.FieldType, 'MultiSelect');
    assert.deepEqual(
      (await readFields(t(), 'imp-1', [41, 42])).map((f) => f.Value),
      [7, ['b']],
    );
    assert.deepEqual(
      (await readFields(t(), 'imp-2', [41, 42])).map((f) => f.Value),
      [8, null],
    );
    assert.notEqual((await t().inject('/customer/imp-1/customfields/')).headers.etag, before);
    await t().store.writeTransaction((trx) => storeCustomFieldValues(trx, [{ customerId: 'imp-1', number: 41, value: null }]));
    assert.deepEqual(json(await t().inject('/customer/imp-1/customfields/41'))[0].Value, null);
    assert.equal((await customFieldDefinitions(t().store.reader)).get(41)?.Label, 'Imported');
  });
});
