import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { bearer, describeEachBackend, json } from '../helpers/test-app.js';
import { customer, define, errorOf, readFields, setValue } from './cf-helpers.js';

// Numbers 21..24 belong to this suite; 24 is read-only.
const TEXT = 21,
  NUM = 22,
  SEL = 23,
  LOCKED = 24;

describeEachBackend('custom-field writes: PATCH, read-only, If-Match, sync feed', (t) => {
  before(async () => {
    await define(t(), TEXT, { Label: 'Text', FieldType: 'Text' });
    await define(t(), NUM, { Label: 'Num', FieldType: 'Number' });
    await define(t(), SEL, { Label: 'Sel', FieldType: 'Select', AllowedValues: ['A', 'B'] });
    await define(t(), LOCKED, { Label: 'Locked', FieldType: 'Text', IsReadOnly: true });
  });

  const patch = (id: string, payload: unknown, headers: Record<string, string> = {}) =>
    t().inject({ method: 'PATCH', url: `/customer/${id}/customfields/`, payload: payload as object, headers });
  const values = async (id: string) => (await readFields(t(), id, [TEXT, NUM, SEL, LOCKED])).map((f) => f.Value);

  test('PATCH with a JSON array writes every entry and answers all fields with an ETag', async () => {
    await customer(t(), 'w-1');
    const res = await patch('w-1', [
      { Number: TEXT, Value: 'x' },
      { number: NUM, value: 7 },
      { Number: SEL, Value: 'B' },
    ]);
    assert.equal(res.statusCode, 200, res.body);
    assert.ok(json(res).length >= 4);
    assert.match(String(res.headers.etag), /^".+"$/);
    assert.deepEqual(await values('w-1'), ['x', 7, 'B', null]);
    const clear = await patch('w-1', { Values: [{ Number: NUM, Value: null }] });
    assert.equal(clear.statusCode, 200, clear.body);
    assert.deepEqual(await values('w-1'), ['x', null, 'B', null]);
  });

  test('the predefined route takes {CustomerId, Values}', async () => {
    await customer(t(), 'w-2');
    const res = await t().inject({
      method: 'POST',
      url: '/api/PatchCustomerCustomFields',
      payload: { CustomerId: 'w-2', Values: [{ Number: NUM, Value: 3 }] },
    });
    assert.equal(res.statusCode, 200, res.body);
    assert.deepEqual(await values('w-2'), [null, 3, null, null]);
  });

  test('PATCH is all or nothing: one error per bad entry, nothing written', async () => {
    await customer(t(), 'w-3');
    await patch('w-3', [{ Number: TEXT, Value: 'before' }]);
    const res = await patch('w-3', [
      { Number: TEXT, Value: 'after' },
      { Number: NUM, Value: 'many' },
      { Number: SEL, Value: 'C' },
      { Number: 999996, Value: 1 },
      { Number: TEXT, Value: 'again' },
      { Value: 1 },
      { Number: LOCKED },
    ]);
    const status = errorOf(res, 400);
    assert.deepEqual(
      status.Errors.map((e) => [e.FieldName, e.ErrorCode]),
      [
        ['Values[1].Value', 'TypeMismatch'],
        ['Values[2].Value', 'Enum'],
        ['Values[3].Number', 'UnknownCustomField'],
        ['Values[4].Number', 'Unique'],
        ['Values[5].Number', 'NotNull'],
        ['Values[6].Value', 'Required'],
      ],
    );
    assert.equal(status.ErrorCode, 'TypeMismatch');
    assert.deepEqual(await values('w-3'), ['before', null, null, null]);
  });

  test('PATCH refuses an empty list, a non-integer Number and a body that is neither array nor object', async () => {
    await customer(t(), 'w-4');
    assert.equal(errorOf(await patch('w-4', []), 400).Errors[0]!.FieldName, 'Values');
    assert.equal(errorOf(await patch('w-4', {}), 400).ErrorCode, 'NotEmpty');
    assert.equal(errorOf(await patch('w-4', [{ Number: 'x', Value: 1 }]), 400).ErrorCode, 'SerializationException');
    assert.equal(errorOf(await patch('w-4', [1, 2]), 400).ErrorCode, 'SerializationException');
    assert.equal(errorOf(await patch('nobody', [{ Number: TEXT, Value: 'x' }]), 404).ErrorCode, 'NotFound');
  });

  test('read-only fields: admin writes them; a key with only all gets 403 and nothing changes', async () => {
    await customer(t(), 'w-5');
    assert.equal((await setValue(t(), 'w-5', LOCKED, 'by admin')).statusCode, 200);
    const all = bearer(t().keys.all);
    const put = await t().inject({
      method: 'PUT',
      url: `/customer/w-5/customfields/${LOCKED}`,
      headers: all,
      payload: { Value: 'by all' },
    });
    const status = errorOf(put, 403);
    assert.equal(status.ErrorCode, 'Forbidden');
    assert.deepEqual(
      status.Errors.map((e) => [e.FieldName, e.ErrorCode]),
      [['Value', 'ReadOnly']],
    );
    const mixed = await patch(
      'w-5',
      [
        { Number: TEXT, Value: 'ok' },
        { Number: LOCKED, Value: null },
      ],
      all,
    );
    assert.equal(errorOf(mixed, 403).Errors[0]!.FieldName, 'Values[1].Value');
    assert.deepEqual(await values('w-5'), [null, null, null, 'by admin']);
    const plain = await patch('w-5', [{ Number: TEXT, Value: 'ok' }], all);
    assert.equal(plain.statusCode, 200, plain.body);
    const adminOnly = await t().inject({
      method: 'PATCH',
      url: '/customer/w-5/customfields/',
      headers: bearer(t().keys.adminOnly),
      payload: [],
    });
    assert.equal(adminOnly.statusCode, 403, 'writes need the all permission');
  });

  test('If-Match: the current ETag writes, a stale one → 412 and nothing changes', async () => {
    await customer(t(), 'w-6');
    const read = await t().inject('/customer/w-6/customfields/');
    const etag = String(read.headers.etag);
    const first = await patch('w-6', [{ Number: TEXT, Value: 'one' }], { 'if-match': etag });
    assert.equal(first.statusCode, 200, first.body);
    const stale = await patch('w-6', [{ Number: TEXT, Value: 'two' }], { 'if-match': etag });
    assert.equal(errorOf(stale, 412).ErrorCode, 'PreconditionFailed');
    const stalePut = await t().inject({
      method: 'PUT',
      url: `/customer/w-6/customfields/${TEXT}`,
      headers: { 'if-match': etag },
      payload: { Value: 'two' },
    });
    assert.equal(stalePut.statusCode, 412);
    assert.deepEqual(await values('w-6'), ['one', null, null, null]);
    const current = String(first.headers.etag);
    assert.equal((await patch('w-6', [{ Number: NUM, Value: 1 }], { 'if-match': `"nope", ${current}` })).statusCode, 200);
    assert.equal((await patch('w-6', [{ Number: NUM, Value: 2 }], { 'if-match': '*' })).statusCode, 200);
    const now = String((await t().inject('/customer/w-6/customfields/')).headers.etag);
    assert.equal((await patch('w-6', [{ Number: NUM, Value: 3 }], { 'if-match': `W/${now}` })).statusCode, 412, 'weak tags never match');
    assert.equal(
      (await patch('w-6', [{ Number: NUM, Value: 4 }], { 'if-match': now.slice(1, -1) })).statusCode,
      200,
      'a tag without quotes',
    );
  });

  test('concurrent writes with the same If-Match: exactly one wins', async () => {
    await customer(t(), 'w-7');
    const etag = String((await t().inject('/customer/w-7/customfields/')).headers.etag);
    const results = await Promise.all(['a', 'b', 'c', 'd'].map((v) => patch('w-7', [{ Number: TEXT, Value: v }], { 'if-match': etag })));
    assert.deepEqual(results.map((r) => r.statusCode).sort(), [200, 412, 412, 412]);
    const winner = json(results.find((r) => r.statusCode === 200)!).find((f: any) => f.Number === TEXT).Value;
    assert.deepEqual(await values('w-7'), [winner, null, null, null]);
  });

  test('a write moves the customer into the sync feed; a refused write does not', async () => {
    await customer(t(), 'w-8');
    const feed = async (after: string) => {
      const res = await t().inject(`/customer/?LastModifiedAfter=${encodeURIComponent(after)}`);
      assert.equal(res.statusCode, 200, res.body);
      return { ids: json(res).map((c: any) => c.CustomerId) as string[], watermark: String(res.headers['x-sync-watermark']) };
    };
    const start = (await feed('/Date(0)/')).watermark;
    assert.equal((await setValue(t(), 'w-8', NUM, 'bad')).statusCode, 400);
    assert.ok(!(await feed(start)).ids.includes('w-8'), 'a refused write changes nothing');
    assert.equal((await setValue(t(), 'w-8', NUM, 9)).statusCode, 200);
    const next = await feed(start);
    assert.ok(next.ids.includes('w-8'), 'PUT shows in the feed');
    assert.equal((await patch('w-8', [{ Number: TEXT, Value: 'x' }])).statusCode, 200);
    assert.ok((await feed(next.watermark)).ids.includes('w-8'), 'PATCH shows in the feed');
  });
});
