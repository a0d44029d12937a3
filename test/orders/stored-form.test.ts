import assert from 'node:assert/strict';
import { test } from 'node:test';
import { sha256 } from '../../src/digest.js';
import { CONFIRMATION_STORAGE_NAMES, PAYMENT_STORAGE_NAMES } from '../../src/orders/order.stored-form.js';
import type { Kysely } from 'kysely';
import { migrateToLatest } from '../../src/store/migrate.js';
import * as m004 from '../../src/store/migrations/004-stored-names.js';
import { describeEachBackend, json } from '../helpers/test-app.js';
import { assertConvertedAndUnchanged, keyRow, oldDataBody, orderRow, plantOldConfirmation, rewindBefore004 } from './old-stored-form.js';
import { confirm, confirmation, createOrder, unique } from './order-fixtures.js';

describeEachBackend('stored confirmations in storage names', (t) => {
  test('a new confirmation stores storage names; GET and the answers on the wire stay as they were', async () => {
    const id = await createOrder(t());
    const key = `k-${unique()}`;
    const first = await confirm(t(), id, confirmation(), { 'idempotency-key': key });
    assert.equal(first.statusCode, 200, first.body);

    const row = await orderRow(t(), id);
    const stored = JSON.parse(row.confirmation ?? 'null');
    assert.deepEqual(Object.keys(stored), Object.keys(stored).sort(), 'sorted');
    const storageNames = new Set<string>(Object.values(CONFIRMATION_STORAGE_NAMES));
    for (const k of Object.keys(stored)) assert.ok(storageNames.has(k), `${k} is a storage name`);
    assert.equal(stored.customer_first_name, 'Erika');
    assert.equal(stored.customer_iban, 'DE89370400440532013000');
    assert.equal(stored.customer_sepa_mandate_date, 1700000000000);
    assert.deepEqual(Object.keys(stored.payment).sort(), Object.values(PAYMENT_STORAGE_NAMES).sort());
    assert.equal(stored.payment.amount, 19.99);
    assert.equal(row.confirmation_hash, sha256(row.confirmation ?? ''));

    const answer = json(first);
    assert.deepEqual(JSON.parse((await keyRow(t(), key)).response_body ?? 'null'), {
      order_id: id,
      order_number: answer.OrderNumber,
      status: 'Confirmed',
      customer_id: answer.CustomerId,
      confirmed_at: row.confirmed_at,
    });

    const replay = await confirm(t(), id, confirmation(), { 'idempotency-key': key });
    assert.equal(replay.headers['idempotent-replayed'], 'true');
    assert.equal(replay.body, first.body);
    assert.equal((await confirm(t(), id, confirmation())).body, first.body);
    const view = json(await t().inject(`/orders/${id}`));
    assert.equal(view.Confirmation.CustomerFirstName, 'Erika');
    assert.equal(view.Confirmation.CustomerEMail, 'erika@example.com');
    assert.equal(view.Confirmation.Payment.Amount, 19.99);
    assert.equal(view.Confirmation.Payment.FinancialAccountNumber, '1200');
  });

  test('migration 004 converts rows an earlier release stored: retries, replays and GET answer as before', async () => {
    const current = await createOrder(t());
    const currentKey = `k-${unique()}`;
    assert.equal((await confirm(t(), current, confirmation(), { 'idempotency-key': currentKey })).statusCode, 200);
    // The order's stamp and its kept shown texts are left out: taking the store back before 004 also
    // undoes the later order stamps and the shown texts' columns (009, 013; null then: reads make them).
    const unstamped = async () => {
      const { modified_at: _stamp, confirmation_shown: _shown, content_shown: _content, ...order } = await orderRow(t(), current);
      return [order, await keyRow(t(), currentKey)];
    };
    const currentBefore = await unstamped();

    // The store as the release before this one left it: 004 not applied, rows in the old form.
    const old = await createOrder(t());
    await rewindBefore004(t());
    const planted = await plantOldConfirmation(t(), old, unique());
    assert.match((await orderRow(t(), planted.orderId)).confirmation ?? '', /"CustomerFirstName":"Erika"/);

    assert.equal((await migrateToLatest(t().store))[0], '004-stored-names');

    const control = await createOrder(t());
    assert.equal((await confirm(t(), control, oldDataBody())).statusCode, 200);
    await assertConvertedAndUnchanged(t(), planted, control);
    // Rows already in storage names come through unchanged.
    assert.deepEqual(await unstamped(), currentBefore);
  });

  test('migration 004 down gives back the old form exactly; up again the new one', async () => {
    const planted = await plantOldConfirmation(t(), await createOrder(t()), unique());
    const old = [await orderRow(t(), planted.orderId), await keyRow(t(), planted.key)];
    await m004.up(t().store.db as Kysely<unknown>);
    const converted = [await orderRow(t(), planted.orderId), await keyRow(t(), planted.key)];
    assert.notDeepEqual(converted, old);
    await m004.down(t().store.db as Kysely<unknown>);
    assert.deepEqual([await orderRow(t(), planted.orderId), await keyRow(t(), planted.key)], old);
    await m004.up(t().store.db as Kysely<unknown>);
    assert.deepEqual([await orderRow(t(), planted.orderId), await keyRow(t(), planted.key)], converted);
  });
});
