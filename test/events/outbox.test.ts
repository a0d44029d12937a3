import assert from 'node:assert/strict';
import { test } from 'node:test';
import { customerRepository } from '../../src/customers/customer.repository.js';
import { eventRepository } from '../../src/events/event.repository.js';
import { confirmOrderWrite } from '../../src/orders/confirmation.service.js';
import { sha256 } from '../../src/digest.js';
import { confirmationJson } from '../../src/orders/order.mapping.js';
import { orderRepository } from '../../src/orders/order.repository.js';
import { eraseCustomerWrite } from '../../src/privacy/privacy.erasure.js';
import { createCustomer, describeEachStore } from '../helpers/store-suite.js';

// What an order or customer event holds when its unit handed over the row its statement returned
// (the outbox then does not read it), and when another emission of the same transaction came
// without a row (then every row is read as the transaction left it).
describeEachStore('outbox', (s) => {
  const eventsOf = (customerId: string) => eventRepository.ofCustomer(s().store.reader, customerId);

  test('a customer event holds the row its unit handed over, without reading it again', async () => {
    const id = await createCustomer(s());
    await s().write(async (unit) => {
      const row = await customerRepository.updateAddress(unit.db, id, { first_name: 'Erika', city: 'Köln' });
      unit.touch('customer', id);
      // Not what the table holds: only a row taken as handed over can show up in the event.
      unit.emit({ type: 'customer.updated', customerId: id, row: { ...row!, first_name: 'Handed over' } });
    });
    const [event] = await eventsOf(id);
    assert.equal(event?.type, 'customer.updated');
    assert.match(event!.data, /"Handed over"/);
    assert.match(event!.data, /"Köln"/);
  });

  test('with an emission without a row in the transaction the rows are read: an erasure after a write leaves no personal data in the event', async () => {
    const id = await createCustomer(s());
    await s().write(async (unit) => {
      const row = await customerRepository.updateAddress(unit.db, id, { first_name: 'Erika', city: 'Köln' });
      unit.touch('customer', id);
      unit.emit({ type: 'customer.updated', customerId: id, row: row! });
      await customerRepository.blank(unit.db, id, Date.now());
      unit.emit({ type: 'customer.erased', customerId: id });
    });
    const events = await eventsOf(id);
    assert.deepEqual(
      events.map((e) => e.type),
      ['customer.updated', 'customer.erased'],
    );
    assert.doesNotMatch(events[0]!.data, /Erika|Köln/);
  });

  test('a confirmation and an erasure of its customer in one transaction: the order event holds the erased confirmation', async () => {
    const customerId = await createCustomer(s());
    const orderId = await s().write((unit) =>
      orderRepository.insert(unit.db, { order_number: `O-${customerId}`, note: null, created_at: 1000 }),
    );
    const data = { CustomerId: customerId, CustomerFirstName: 'Erika', CustomerCity: 'Köln', CustomerEMail: 'erika@example.com' };
    const text = confirmationJson(data);
    // Queued in the same turn: one group commit, the confirmation first, then the erasure (which
    // changes the order without naming it in an event of its own).
    await Promise.all([
      s().write((unit) => confirmOrderWrite.run(unit, { c: { orderId, data }, stored: { text, hash: sha256(text) } })),
      s().write((unit) => eraseCustomerWrite.run(unit, { customerId, keyId: 'test', now: Date.now() })),
    ]);
    const events = await eventsOf(customerId);
    const confirmed = events.find((e) => e.type === 'order.confirmed');
    assert.ok(confirmed, `events: ${events.map((e) => e.type).join(', ')}`);
    assert.doesNotMatch(confirmed.data, /Erika|Köln|erika@example\.com/);
    assert.ok(events.some((e) => e.type === 'customer.erased'));
  });
});
