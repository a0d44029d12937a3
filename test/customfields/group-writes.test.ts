import assert from 'node:assert/strict';
import { test } from 'node:test';
import { writeValuesWrite, type WriteEntry } from '../../src/customfields/customfield.writes.js';
import { AppError } from '../../src/errors.js';
import { GroupCommit } from '../../src/writes/group-commit.js';
import { writeRegistry } from '../../src/write-registry.js';
import { currentWatermark, stampOf } from '../customers/customer-helpers.js';
import { describeEachBackend, json } from '../helpers/test-app.js';
import { customer, define, errorOf, freshNumber, setValue, valueOf } from './cf-helpers.js';

const entry = (number: number, value: unknown): WriteEntry => ({ number, value, numberField: 'Number', valueField: 'Value' });
const versionOf = (etag: string): number => Number(/-(\d+)"$/.exec(etag)?.[1]);

/** Custom-field writes are committed in groups: many at once land, each with its own outcome. */
describeEachBackend('custom-field writes committed in groups', (t) => {
  test('concurrent PUTs to different and the same customers all land; versions and stamps move', async () => {
    const n = freshNumber();
    await define(t(), n, { Label: 'Group', FieldType: 'Text' });
    const ids = ['gw-a', 'gw-b', 'gw-c', 'gw-d'];
    for (const id of ids) await customer(t(), id);
    const before = new Map(await Promise.all(ids.map(async (id) => [id, await stampOf(t().store, id)] as const)));
    const watermark = await currentWatermark(t().store);
    const writes = Array.from({ length: 40 }, (_, i) => ({ id: ids[i % ids.length]!, value: `v${i}` }));
    const answers = await Promise.all(writes.map((w) => setValue(t(), w.id, n, w.value)));
    for (const res of answers) assert.equal(res.statusCode, 200, res.body);
    for (const id of ids) {
      // Every write of a customer got its own version; the one with the last is the value it keeps.
      const mine = answers.map((res, i) => ({ res, w: writes[i]! })).filter((x) => x.w.id === id);
      const versions = mine.map((x) => versionOf(String(x.res.headers.etag))).sort((a, b) => a - b);
      assert.deepEqual(
        versions,
        Array.from({ length: mine.length }, (_, i) => versions[0]! + i),
      );
      const last = mine.find((x) => versionOf(String(x.res.headers.etag)) === versions.at(-1))!;
      assert.equal(json(last.res).Value, last.w.value);
      assert.equal(await valueOf(t(), id, n), last.w.value);
      const read = await t().inject(`/customer/${id}/customfields/`);
      assert.equal(read.headers.etag, last.res.headers.etag);
      assert.ok((await stampOf(t().store, id)) > before.get(id)!, `${id}: stamp moved`);
    }
    const feed = await t().inject(`/customer/?LastModifiedAfter=/Date(${watermark})/`);
    assert.deepEqual(
      json<Array<{ CustomerId: string }>>(feed)
        .map((c) => c.CustomerId)
        .sort(),
      ids,
    );
  });

  test('one unit of a group fails on a bad value; the others in the same transaction commit', async () => {
    const n = freshNumber();
    await define(t(), n, { Label: 'Count', FieldType: 'Number' });
    for (const id of ['gu-a', 'gu-b', 'gu-c']) await customer(t(), id);
    await setValue(t(), 'gu-b', n, 7);
    const batches: string[][] = [];
    const commits = new GroupCommit(t().store, {
      outbox: writeRegistry.outbox,
      stampers: { customer: async (_db, touched) => void batches.push([...touched].sort()), order: async () => undefined },
    });
    const write = (id: string, value: unknown) =>
      commits.run((unit) => writeValuesWrite.run(unit, { customerId: id, entries: [entry(n, value)], opts: { mayWriteReadOnly: false } }));
    const results = await Promise.allSettled([write('gu-a', 1), write('gu-b', 'many'), write('gu-c', 3), write('gu-x', 4)]);
    assert.deepEqual(
      results.map((r) => r.status),
      ['fulfilled', 'rejected', 'fulfilled', 'rejected'],
    );
    const bad = (results[1] as PromiseRejectedResult).reason as AppError;
    assert.deepEqual([bad.code, bad.fieldErrors[0]?.fieldName], ['TypeMismatch', 'Value']);
    assert.equal(((results[3] as PromiseRejectedResult).reason as AppError).code, 'NotFound');
    assert.deepEqual(batches, [['gu-a', 'gu-c']]);
    assert.deepEqual([await valueOf(t(), 'gu-a', n), await valueOf(t(), 'gu-b', n), await valueOf(t(), 'gu-c', n)], [1, 7, 3]);
  });

  test('concurrent requests keep their own outcomes: 400, 403, 412 and 200 side by side', async () => {
    const n = freshNumber();
    const ro = freshNumber();
    await define(t(), n, { Label: 'Mixed', FieldType: 'Number' });
    await define(t(), ro, { Label: 'Locked', FieldType: 'Text', IsReadOnly: true });
    await customer(t(), 'gm-a');
    await customer(t(), 'gm-b');
    const etag = String((await t().inject('/customer/gm-b/customfields/')).headers.etag);
    const [ok, bad, forbidden, stale, patch] = await Promise.all([
      setValue(t(), 'gm-a', n, 5),
      setValue(t(), 'gm-a', n, 1.5),
      t().inject({
        method: 'PUT',
        url: `/customer/gm-a/customfields/${ro}`,
        payload: { Value: 'x' },
        headers: { authorization: `Bearer ${t().keys.all}` },
      }),
      t().inject({ method: 'PUT', url: `/customer/gm-b/customfields/${n}`, payload: { Value: 2 }, headers: { 'if-match': '"0-0"' } }),
      t().inject({
        method: 'PATCH',
        url: '/customer/gm-b/customfields/',
        payload: [{ Number: n, Value: 9 }],
        headers: { 'if-match': etag },
      }),
    ]);
    assert.equal(json(ok).Value, 5);
    assert.equal(errorOf(bad, 400).Errors[0]?.FieldName, 'Value');
    assert.equal(errorOf(forbidden, 403).Errors[0]?.ErrorCode, 'ReadOnly');
    assert.equal(errorOf(stale, 412).ErrorCode, 'PreconditionFailed');
    assert.equal(patch.statusCode, 200, patch.body);
    assert.deepEqual([await valueOf(t(), 'gm-a', n), await valueOf(t(), 'gm-a', ro), await valueOf(t(), 'gm-b', n)], [5, null, 9]);
  });

  test('of several writers holding the same ETag in one group, exactly one succeeds', async () => {
    const n = freshNumber();
    await define(t(), n, { Label: 'Race', FieldType: 'Text' });
    await customer(t(), 'ge-a');
    const etag = String((await t().inject('/customer/ge-a/customfields/')).headers.etag);
    const answers = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        t().inject({ method: 'PUT', url: `/customer/ge-a/customfields/${n}`, payload: { Value: `w${i}` }, headers: { 'if-match': etag } }),
      ),
    );
    assert.deepEqual(answers.map((r) => r.statusCode).sort(), [200, 412, 412, 412, 412, 412]);
  });

  test('a CustomerId longer than 255 characters is a 400 naming CustomerId, on every custom-field route', async () => {
    const long = 'x'.repeat(256);
    const requests = [
      { method: 'GET' as const, url: `/customer/${long}/customfields/` },
      { method: 'GET' as const, url: `/customer/${long}/customfields/1` },
      { method: 'POST' as const, url: `/customer/${long}/customfields/`, payload: {} },
      { method: 'PUT' as const, url: `/customer/${long}/customfields/1`, payload: { Value: 'x' } },
      { method: 'PATCH' as const, url: `/customer/${long}/customfields/`, payload: [{ Number: 1, Value: 'x' }] },
    ];
    for (const req of requests) {
      const status = errorOf(await t().inject(req), 400);
      assert.equal(status.ErrorCode, 'Length', `${req.method} ${req.url.slice(0, 20)}`);
      assert.deepEqual(
        status.Errors.map((e) => e.FieldName),
        ['CustomerId'],
      );
      assert.match(status.Errors[0]!.Message, /255 characters or fewer/);
    }
    assert.equal((await t().inject(`/customer/${'x'.repeat(255)}/customfields/`)).statusCode, 404);
  });

  test('deleting a definition while values are written concurrently: no deadlock, every write answered', async () => {
    for (let round = 0; round < 3; round++) {
      const doomed = freshNumber();
      const other = freshNumber();
      await define(t(), doomed, { Label: 'Doomed', FieldType: 'Text' });
      await define(t(), other, { Label: 'Other', FieldType: 'Text' });
      const ids = Array.from({ length: 12 }, (_, i) => `gd-${round}-${i}`);
      for (const id of ids) {
        await customer(t(), id);
        await setValue(t(), id, doomed, 'old');
      }
      const watermark = await currentWatermark(t().store);
      // Writes of the other field lock customers that have a value of the doomed one, which the
      // delete must lock too; writes of the doomed field hold its definition.
      const writes = ids.flatMap((id, i) => [
        setValue(t(), id, other, `o${i}`),
        setValue(t(), ids[(i + 5) % ids.length]!, doomed, `d${i}`),
      ]);
      const [deleted, ...answers] = await Promise.all([t().inject({ method: 'DELETE', url: `/customfields/${doomed}` }), ...writes]);
      assert.equal(deleted.statusCode, 204, deleted.body);
      for (const res of answers) assert.ok(res.statusCode === 200 || res.statusCode === 404, `${res.statusCode} ${res.body}`);
      for (const id of ids) {
        const fields = json<Array<{ Number: number }>>(await t().inject(`/customer/${id}/customfields/`));
        assert.ok(!fields.some((f) => f.Number === doomed));
      }
      const feed = await t().inject(`/customer/?LastModifiedAfter=/Date(${watermark})/`);
      assert.deepEqual(
        json<Array<{ CustomerId: string }>>(feed)
          .map((c) => c.CustomerId)
          .sort(),
        [...ids].sort(),
      );
    }
  });
});
