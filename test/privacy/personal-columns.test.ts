import assert from 'node:assert/strict';
import { test } from 'node:test';
import { PERSONAL_CUSTOMER_COLUMNS } from '../../src/customers/index.js';
import { sha256 } from '../../src/digest.js';
import { PERSONAL_ORDER_COLUMNS, PERSONAL_PAYMENT_COLUMNS, PERSONAL_REFUND_COLUMNS } from '../../src/orders/index.js';
import { PERSONAL_CONFIRMATION_FIELDS } from '../../src/orders/order.erasure.js';
import { confirmationJson } from '../../src/orders/order.mapping.js';
import { orderRepository } from '../../src/orders/order.repository.js';
import { eraseCustomerWrite } from '../../src/privacy/privacy.erasure.js';
import { createCustomer, describeEachStore } from '../helpers/store-suite.js';

// Each module lists the columns of its rows that hold personal data. A value is written straight
// into every listed column, then the customer is erased: the erasure must reach each one, so a
// column added to a list is covered by this test without a change to it.
describeEachStore('an erasure reaches every column a module marks personal', (s) => {
  const erase = (customerId: string) => s().write((unit) => eraseCustomerWrite.run(unit, { customerId, keyId: 'test', now: Date.now() }));

  test('customers: every personal column of the customer is null afterwards', async () => {
    const id = await createCustomer(s());
    const secret = (column: string) => `secret-${column}-${id}`.slice(0, 60);
    const values = Object.fromEntries(PERSONAL_CUSTOMER_COLUMNS.map((c) => [c, secret(c)]));
    await s().write(async (unit) => {
      await unit.db.updateTable('customers').set(values).where('customer_id', '=', id).execute();
      // The text index holds words of those columns: written as a write of them would.
      await unit.db
        .updateTable('customer_words')
        .set({ words: `secretword${id.replace(/\W/g, '')}` })
        .where('customer_id', '=', id)
        .execute();
    });
    const before = await s().store.db.selectFrom('customers').selectAll().where('customer_id', '=', id).executeTakeFirstOrThrow();
    for (const c of PERSONAL_CUSTOMER_COLUMNS) assert.equal(before[c], secret(c), `${c} written`);

    await erase(id);
    const after = await s().store.db.selectFrom('customers').selectAll().where('customer_id', '=', id).executeTakeFirstOrThrow();
    for (const c of PERSONAL_CUSTOMER_COLUMNS) assert.equal(after[c], null, `customers.${c} after the erasure`);
    const words = await s().store.db.selectFrom('customer_words').select('words').where('customer_id', '=', id).executeTakeFirst();
    assert.doesNotMatch(words?.words ?? '', /secretword/, 'the text index after the erasure');
  });

  test("orders: no personal column of the customer's order holds the personal data afterwards", async () => {
    const customerId = await createCustomer(s());
    const secret = `secret-order-${customerId}`;
    const orderId = await s().write((unit) =>
      orderRepository.insert(unit.db, { order_number: `O-${customerId}`, note: null, created_at: 1000 }),
    );
    // Every personal field of the confirmation carries the secret (a date field as a date).
    const data = Object.fromEntries(
      PERSONAL_CONFIRMATION_FIELDS.map((f) => [f, f === 'CustomerSepaMandateDate' ? '2024-01-02T00:00:00Z' : `${secret}-${f}`]),
    );
    const confirmation = confirmationJson({ ...data, CustomerId: customerId, CustomerCountry: 'DE' } as Parameters<
      typeof confirmationJson
    >[0]);
    const values: Record<(typeof PERSONAL_ORDER_COLUMNS)[number], string> = {
      confirmation,
      confirmation_shown: `{"CustomerFirstName":"${secret}"}`,
      confirmation_hash: `${secret}-hash`,
      note: `${secret}-note`,
    };
    await s().write(async (unit) => {
      await unit.db
        .updateTable('orders')
        .set({ ...values, customer_id: customerId, confirmed_at: 2000 })
        .where('order_id', '=', orderId)
        .execute();
      await unit.db
        .updateTable('order_words')
        .set({ words: `secretword${orderId}` })
        .where('order_id', '=', orderId)
        .execute();
    });
    const before = await s().store.db.selectFrom('orders').selectAll().where('order_id', '=', orderId).executeTakeFirstOrThrow();
    for (const c of PERSONAL_ORDER_COLUMNS) assert.match(String(before[c]), new RegExp(secret), `${c} written`);

    await erase(customerId);
    const after = await s().store.db.selectFrom('orders').selectAll().where('order_id', '=', orderId).executeTakeFirstOrThrow();
    for (const c of PERSONAL_ORDER_COLUMNS) assert.doesNotMatch(String(after[c]), new RegExp(secret), `orders.${c} after the erasure`);
    assert.equal(after.note, null);
    const words = await s().store.db.selectFrom('order_words').select('words').where('order_id', '=', orderId).executeTakeFirst();
    assert.doesNotMatch(words?.words ?? '', /secretword/, 'the text index after the erasure');
    assert.equal(after.confirmation_hash, sha256(after.confirmation!), 'the erased confirmation is hashed anew');
  });

  test("payments and refunds: every personal column of the customer's orders' records is null afterwards; the amounts stay", async () => {
    const customerId = await createCustomer(s());
    const secret = (column: string) => `secret-${column}-${customerId}`.slice(0, 60);
    const orderId = await s().write((unit) =>
      orderRepository.insert(unit.db, { order_number: `L-${customerId}`, note: null, created_at: 1000 }),
    );
    await s().write(async (unit) => {
      await unit.db
        .updateTable('orders')
        .set({ customer_id: customerId, status: 'Confirmed', confirmed_at: 2000 })
        .where('order_id', '=', orderId)
        .execute();
      const record = { order_id: orderId, amount: '1.00', created_at: 3000 };
      await unit.db
        .insertInto('order_payments')
        .values({ ...record, paid_at: 3000, ...Object.fromEntries(PERSONAL_PAYMENT_COLUMNS.map((c) => [c, secret(c)])) })
        .execute();
      await unit.db
        .insertInto('order_refunds')
        .values({ ...record, refunded_at: 3000, ...Object.fromEntries(PERSONAL_REFUND_COLUMNS.map((c) => [c, secret(c)])) })
        .execute();
    });
    const read = async () => ({
      payment: await s().store.db.selectFrom('order_payments').selectAll().where('order_id', '=', orderId).executeTakeFirstOrThrow(),
      refund: await s().store.db.selectFrom('order_refunds').selectAll().where('order_id', '=', orderId).executeTakeFirstOrThrow(),
    });
    const before = await read();
    for (const c of PERSONAL_PAYMENT_COLUMNS) assert.equal(before.payment[c], secret(c), `order_payments.${c} written`);
    for (const c of PERSONAL_REFUND_COLUMNS) assert.equal(before.refund[c], secret(c), `order_refunds.${c} written`);

    await erase(customerId);
    const after = await read();
    for (const c of PERSONAL_PAYMENT_COLUMNS) assert.equal(after.payment[c], null, `order_payments.${c} after the erasure`);
    for (const c of PERSONAL_REFUND_COLUMNS) assert.equal(after.refund[c], null, `order_refunds.${c} after the erasure`);
    assert.equal(after.payment.amount, '1.00');
    assert.equal(after.refund.amount, '1.00');
  });
});
