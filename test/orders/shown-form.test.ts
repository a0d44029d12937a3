import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { describeEachBackend, json } from '../helpers/test-app.js';
import { confirm, confirmation, createOrder, unique } from './order-fixtures.js';

// The feed and GetOrder send a masked confirmation from the text kept beside the stored form
// (src/orders/order.shown-form.ts). These tests hold that text to the view made afresh: byte for
// byte, as kept and where not made (null), through confirmation, cancellation and erasure.

/** The feed items' texts, cut out of the array at the item boundaries GetOrder's texts give. */
function itemTexts(feedBody: string, orderIds: readonly number[], getBodies: ReadonlyMap<number, string>): Map<number, string> {
  const out = new Map<number, string>();
  for (const id of orderIds) {
    const start = feedBody.indexOf(`{"OrderId":${id},`);
    assert.ok(start >= 0, `order ${id} is in the feed`);
    const prefix = getBodies.get(id)!.slice(0, -1); // GetOrder's text without its closing brace
    assert.equal(feedBody.slice(start, start + prefix.length), prefix, `order ${id}: the feed's text starts as GetOrder's`);
    const rest = /^,"LastModified":"\\\/Date\(\d+-0000\)\\\/"\}/.exec(feedBody.slice(start + prefix.length));
    assert.ok(rest, `order ${id}: then LastModified and the end of the item`);
    out.set(id, feedBody.slice(start, start + prefix.length + rest[0].length));
  }
  return out;
}

describeEachBackend('the order feed and GetOrder send the kept masked confirmation, byte for byte as the view made afresh', (t) => {
  const tag = unique();
  const ids: number[] = [];
  let erasedCustomer = '';
  before(async () => {
    const awkward = confirmation({
      ExternalCustomerId: `${tag}-awkward`,
      Note: 'quote " backslash \\ slash / "/Date(1-0000)/" tab\t line\u2028 emoji 😀 ß',
      CustomerCompany: '/Date(1700000000000-0000)/',
      Payment: { Amount: 0.1, Name: 'x', Date: '/Date(-1000)/', Type: 'PayPal' },
      DeliveryDate: '2024-02-29',
    });
    const plain = confirmation({
      ExternalCustomerId: `${tag}-plain`,
      Payment: undefined,
      CustomerIban: '',
      CustomerBic: '',
      AccountHolderName: '',
    });
    const erased = confirmation({ ExternalCustomerId: `${tag}-erased` });
    for (const [i, body] of [awkward, plain, erased, undefined, awkward].entries()) {
      const id = await createOrder(t(), { OrderNumber: `${tag}-${i}` });
      ids.push(id);
      if (body) {
        const res = await confirm(t(), id, body);
        assert.equal(res.statusCode, 200, res.body);
        if (body === erased) erasedCustomer = json(res).CustomerId;
      }
    }
    // Records of the order's life, with text that JSON must escape: the kept text splices them too.
    const record = async (id: number, kind: 'payments' | 'refunds', body: Record<string, unknown>) => {
      const res = await t().inject({ method: 'POST', url: `/orders/${id}/${kind}`, payload: body });
      assert.equal(res.statusCode, 201, res.body);
    };
    await record(ids[0]!, 'payments', {
      Amount: 0.05,
      Name: 'quote " backslash \\ "/Date(1-0000)/" 😀',
      ReferenceNumber: 'line\u2028',
      Date: '/Date(-1000)/',
    });
    await record(ids[0]!, 'payments', { Amount: 1e11 + 0.01 });
    await record(ids[0]!, 'refunds', { Amount: 0.02, Reason: 'tab\t ß' });
    await record(ids[2]!, 'payments', { Amount: 1, Name: 'erased with the customer', ReferenceNumber: 'R' });
    await record(ids[4]!, 'payments', { Amount: 0.01 });
    assert.equal((await t().inject({ method: 'POST', url: `/orders/${ids[4]}/cancel` })).statusCode, 200);
    assert.equal((await t().inject({ method: 'POST', url: `/customer/${erasedCustomer}/erase` })).statusCode, 200);
  });

  const getBodies = async () => {
    const bodies = new Map<number, string>();
    for (const id of ids) {
      const res = await t().inject(`/orders/${id}`);
      assert.equal(res.statusCode, 200, res.body);
      bodies.set(id, res.body);
    }
    return bodies;
  };

  test('every confirmed order keeps its shown text; the feed equals GetOrder plus LastModified', async () => {
    const kept = await t()
      .store.reader.selectFrom('orders')
      .select(['order_id', 'confirmation', 'confirmation_shown'])
      .where('order_id', 'in', ids)
      .execute();
    for (const row of kept) assert.equal(row.confirmation_shown === null, row.confirmation === null, `order ${row.order_id}`);
    const res = await t().inject(`/orders/?OrderIds=${ids.join(',')}`);
    assert.equal(res.statusCode, 200, res.body);
    itemTexts(res.body, ids, await getBodies());
    const withRecords = json(await t().inject(`/orders/${ids[0]}`));
    assert.deepEqual(
      [withRecords.Payments.length, withRecords.Refunds[0].Reason, withRecords.Paid, withRecords.PaymentStatus],
      [2, 'tab\t ß', 100000000000.16, 'PartiallyRefunded'],
    );
  });

  test('where the text was not made (orders confirmed before it was kept), the feed and GetOrder make the same bytes', async () => {
    const url = `/orders/?OrderIds=${ids.join(',')}`;
    const before = (await t().inject(url)).body;
    const getBefore = await getBodies();
    await t().store.db.updateTable('orders').set({ confirmation_shown: null }).where('order_id', 'in', ids).execute();
    const after = (await t().inject(url)).body;
    assert.equal(after, before);
    const getAfter = await getBodies();
    assert.deepEqual(getAfter, getBefore, "GetOrder's answers from the kept text and from the view made afresh");
    itemTexts(after, ids, getAfter);
  });

  test('other forms (camelCase, ISO dates, JSONP) show the same values as the default form', async () => {
    const pascal = json(await t().inject(`/orders/?OrderIds=${ids.join(',')}`)) as Array<Record<string, unknown>>;
    const camel = json(
      await t().inject({
        url: `/orders/?OrderIds=${ids.join(',')}`,
        headers: { accept: 'application/json' },
        query: { jsconfig: 'EmitCamelCaseNames:true' },
      }),
    ) as Array<Record<string, unknown>>;
    assert.deepEqual(
      camel.map((o) => o.orderId),
      pascal.map((o) => o.OrderId),
    );
    assert.deepEqual((camel[0]!.confirmation as Record<string, unknown>).note, (pascal[0]!.Confirmation as Record<string, unknown>).Note);
    const jsonp = await t().inject(`/orders/?OrderIds=${ids.join(',')}&callback=cb`);
    assert.equal(jsonp.body, `cb(${(await t().inject(`/orders/?OrderIds=${ids.join(',')}`)).body})`);
  });
});
