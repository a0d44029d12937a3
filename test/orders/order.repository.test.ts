import assert from 'node:assert/strict';
import { test } from 'node:test';
import { orderRecordsRepository } from '../../src/orders/order-life.records.js';
import { orderRepository as repo, type ConfirmedState } from '../../src/orders/order.repository.js';
import { createCustomer, describeEachStore } from '../helpers/store-suite.js';
import { unique } from './order-fixtures.js';

describeEachStore('order repository', (s) => {
  const insert = (number: string, note: string | null = null) =>
    s().write((unit) => repo.insert(unit.db, { order_number: number, note, created_at: 1000 }));
  const find = (id: number) => repo.find(s().store.reader, id);
  const confirm = (id: number, state: ConfirmedState) => s().write((unit) => repo.markConfirmed(unit.db, id, state));
  const cancel = (id: number, at: number) => s().write((unit) => repo.markCancelled(unit.db, id, at));
  /** A customer for a confirmation to name (orders reference customers). */
  const customer = () => createCustomer(s());
  const state = (customerId: string, at: number): ConfirmedState => ({
    customer_id: customerId,
    confirmed_at: at,
    confirmation: `{"at":${at}}`,
    confirmation_hash: `h${at}`,
  });

  test('insert stores an open order; find reads it with a numeric id, and nothing for an unknown id', async () => {
    const number = `O-${unique()}`;
    const id = await insert(number, 'ring twice');
    assert.equal(typeof id, 'number');
    const row = await find(id);
    assert.deepEqual(
      row && [row.order_id, row.order_number, row.status, row.note, row.customer_id, row.created_at, row.confirmed_at, row.confirmation],
      [id, number, 'Open', 'ring twice', null, 1000, null, null],
    );
    assert.equal(await find(id + 1_000_000), undefined);
    assert.equal(await repo.orderNumberTaken(s().store.reader, number), true);
    assert.equal(await repo.orderNumberTaken(s().store.reader, `${number}-other`), false);
  });

  test('findShown reads what find reads but the hash and the exact amounts, with numeric ids and its records; nothing for an unknown id', async () => {
    const id = await insert(`O-${unique()}`, 'internal');
    await confirm(id, state(await customer(), 2000));
    const full = (await find(id))!;
    const shown = await repo.findShown(s().store.reader, id);
    const { confirmation_hash: _hash, shipping_name, shipping_amount, shipping_tax_rate, ...rest } = full;
    const { total_net, total_tax, total_gross, total_discount, ...shownColumns } = rest;
    // The view shows the content from its kept text; the exact amounts are for exports and accounting.
    assert.deepEqual(
      [shipping_name, shipping_amount, shipping_tax_rate, total_net, total_tax, total_gross, total_discount],
      [null, null, null, '0.00', '0.00', '0.00', '0.00'],
    );
    const { records, ...shownRow } = shown!;
    assert.deepEqual(shownRow, shownColumns);
    assert.equal(shownRow.note, 'internal', 'the order’s own note is shown');
    assert.deepEqual(
      [shownRow.payment_status, shownRow.fulfillment_status, shownRow.paid, shownRow.refunded],
      ['Unpaid', 'Unfulfilled', '0.00', '0.00'],
    );
    assert.deepEqual(records, { shipments: [], payments: [], refunds: [], returns: [] });
    assert.equal(typeof shown?.modified_at, 'number');
    assert.equal(await repo.findShown(s().store.reader, id + 1_000_000), undefined);
  });

  test('recordsOf reads the records of many orders at once (more ids than one statement binds), each order its own, oldest first', async () => {
    const [a, b] = [await insert(`O-${unique()}`), await insert(`O-${unique()}`)];
    const pay = (order_id: number, amount: string, paid_at: number) =>
      s().write((unit) =>
        unit.db
          .insertInto('order_payments')
          .values({ order_id, amount, type: null, name: null, reference_number: null, paid_at, created_at: paid_at })
          .returning('payment_id')
          .executeTakeFirstOrThrow(),
      );
    const first = Number((await pay(a, '1.00', 3000)).payment_id);
    const second = Number((await pay(a, '2.00', 1000)).payment_id);
    const ofB = Number((await pay(b, '3.00', 2000)).payment_id);
    // 2,000 ids: b's is past the first statement's; the unknown ids find nothing.
    const ids = [a, ...Array.from({ length: 1998 }, (_, i) => 1_000_000_000 + i), b];
    const found = await orderRecordsRepository.recordsOf(s().store.reader, ids);
    assert.deepEqual(
      [...found.keys()].sort((x, y) => x - y),
      [a, b].sort((x, y) => x - y),
    );
    assert.deepEqual(
      found.get(a)!.payments.map((p) => [p.payment_id, p.order_id, p.amount, p.paid_at]),
      [
        [first, a, '1.00', 3000],
        [second, a, '2.00', 1000],
      ],
    );
    assert.deepEqual(
      found.get(b)!.payments.map((p) => p.payment_id),
      [ofB],
    );
    assert.deepEqual([found.get(b)!.refunds, found.get(b)!.shipments, found.get(b)!.returns], [[], [], []]);

    // Ids close together are read as a range: an order between them that was not asked for is left out.
    const c = await insert(`O-${unique()}`);
    const between = await orderRecordsRepository.recordsOf(s().store.reader, [a, c]);
    assert.ok(b > a && b < c);
    assert.deepEqual([...between.keys()], [a]);
    assert.deepEqual(between.get(a), found.get(a));
  });

  test('markConfirmed changes only an open order, once', async () => {
    const number = `O-${unique()}`;
    const id = await insert(number);
    const [first, second] = [await customer(), await customer()];
    const written = await confirm(id, state(first, 2000));
    assert.equal(written?.order_number, number);
    const confirmed = await find(id);
    assert.deepEqual(written, confirmed, 'the row as written');
    assert.deepEqual(
      confirmed && [confirmed.status, confirmed.customer_id, confirmed.confirmed_at, confirmed.confirmation, confirmed.confirmation_hash],
      ['Confirmed', first, 2000, '{"at":2000}', 'h2000'],
    );
    assert.equal(await confirm(id, state(second, 3000)), undefined, 'a confirmed order is not confirmed again');
    assert.deepEqual(await find(id), confirmed);
    assert.equal(await confirm(id + 1_000_000, state(first, 3000)), undefined);
  });

  test('a cancelled order cannot be confirmed', async () => {
    const id = await insert(`O-${unique()}`);
    assert.equal(await cancel(id, 1500), true);
    assert.equal(await confirm(id, state(await customer(), 2000)), undefined);
    const row = await find(id);
    assert.deepEqual(row && [row.status, row.customer_id, row.confirmed_at], ['Cancelled', null, null]);
  });

  test('markCancelled cancels an open or a confirmed order, once; false for an unknown one', async () => {
    const open = await insert(`O-${unique()}`);
    const confirmed = await insert(`O-${unique()}`);
    await confirm(confirmed, state(await customer(), 2000));
    assert.equal(await cancel(open, 3000), true);
    assert.equal(await cancel(confirmed, 3001), true);
    assert.equal(await cancel(open, 4000), false, 'a cancelled order is not cancelled again');
    assert.deepEqual([(await find(open))?.status, (await find(open))?.cancelled_at], ['Cancelled', 3000]);
    assert.deepEqual([(await find(confirmed))?.status, (await find(confirmed))?.confirmed_at], ['Cancelled', 2000]);
    assert.equal(await cancel(open + 1_000_000, 4000), false);
  });

  test('insertNew adds only order numbers not taken yet and counts them; setOrderNumber renames', async () => {
    const t = unique();
    const kept = await insert(`O-${t}-1`, 'first');
    const rows = [1, 2, 3].map((n) => ({ order_number: `O-${t}-${n}`, note: 'seed', created_at: 1000 }));
    assert.equal(
      await s()
        .write((unit) => repo.insertNew(unit.db, rows))
        .then((ids) => ids.length),
      2,
    );
    assert.equal((await find(kept))?.note, 'first');
    assert.equal(
      await s()
        .write((unit) => repo.insertNew(unit.db, rows))
        .then((ids) => ids.length),
      0,
    );
    await s().write((unit) => repo.setOrderNumber(unit.db, kept, `O-${t}-renamed`));
    assert.equal((await find(kept))?.order_number, `O-${t}-renamed`);
  });

  test('count and confirmedIds read the feed filter; takenOrderNumbers names the numbers that exist', async () => {
    const t = unique();
    const [open, confirmed, cancelled] = [await insert(`O-${t}-a`), await insert(`O-${t}-b`), await insert(`O-${t}-c`)];
    await confirm(confirmed, state(await customer(), 2000));
    await cancel(cancelled, 3000);
    const window = { orderIds: [open, confirmed, cancelled], modifiedAtMost: Number.MAX_SAFE_INTEGER };
    const db = s().store.reader;
    assert.equal(await repo.count(db, window), 3);
    assert.equal(await repo.count(db, { ...window, statuses: ['Open', 'Cancelled'] }), 2);
    assert.equal(await repo.count(db, { ...window, modifiedAtMost: 0 }), 0);
    assert.deepEqual(await repo.confirmedIds(db, window), [confirmed]);
    assert.deepEqual(await repo.confirmedIds(db, { ...window, statuses: ['Open'] }), []);
    assert.deepEqual([...(await repo.takenOrderNumbers(db, [`O-${t}-a`, `O-${t}-x`, `O-${t}-c`]))].sort(), [`O-${t}-a`, `O-${t}-c`]);
    assert.deepEqual(await repo.takenOrderNumbers(db, []), new Set());
  });
});
