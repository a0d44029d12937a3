import assert from 'node:assert/strict';
import { test } from 'node:test';
import { describeEachBackend } from '../helpers/test-app.js';

describeEachBackend('SearchOrders pages by keyset with Cursor (X-Sync-Cursor)', (t) => {
  test('pages of Take continue after each other: every order once, in sync order; the last page has no cursor', async () => {
    const ids: number[] = [];
    for (let i = 0; i < 7; i++) {
      const res = await t().inject({ method: 'POST', url: '/orders', payload: { OrderNumber: `CUR-${i}`, Note: 'cursor' } });
      assert.equal(res.statusCode, 201, res.body);
      ids.push((res.json() as { OrderId: number }).OrderId);
    }
    const whole = (await t().inject(`/orders/?OrderIds=${ids.join(',')}`)).json() as Array<{ OrderId: number }>;
    const seen: number[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < 5; page++) {
      const res = await t().inject(`/orders/?OrderIds=${ids.join(',')}&Take=3${cursor ? `&Cursor=${cursor}` : ''}`);
      assert.equal(res.statusCode, 200, res.body);
      seen.push(...(res.json() as Array<{ OrderId: number }>).map((o) => o.OrderId));
      cursor = res.headers['x-sync-cursor'] as string | undefined;
      if (!cursor) break;
    }
    assert.deepEqual(
      seen,
      whole.map((o) => o.OrderId),
    );
    assert.equal(seen.length, 7);
    assert.equal(cursor, undefined, 'no cursor once nothing remains');
  });

  test('a cursor the service did not issue for orders → 400 on Cursor', async () => {
    const customerCursor = Buffer.from(JSON.stringify([5, 'C-1'])).toString('base64url');
    for (const bad of ['not a cursor', customerCursor]) {
      const res = await t().inject(`/orders/?Take=2&Cursor=${encodeURIComponent(bad)}`);
      assert.equal(res.statusCode, 400, bad);
      const status = res.json().ResponseStatus;
      assert.equal(status.Errors[0].FieldName, 'Cursor');
      assert.equal(status.Errors[0].ErrorCode, 'Predicate');
    }
  });
});
