import assert from 'node:assert/strict';
import { test } from 'node:test';
import { customerRepository } from '../../src/customers/customer.repository.js';
import { eventRepository } from '../../src/events/event.repository.js';
import { createCustomer, describeEachStore } from '../helpers/store-suite.js';

// What an order or customer event holds when its unit handed over the row its statement returned
// (the outbox then does not read it), and when another emission of the transaction named the same
// row without one (then it is read as the transaction left it).
describeEachStore('outbox', (s) => {
  const eventsOf = (customerId: string) => eventRepository.ofCustomer(s().store.reader, customerId);

  test('a customer event holds the row its unit handed over, without reading it again', async () => {
    const id = await createCustomer(s());
    await s().write(async (unit) => {
      const row = await customerRepository.updateAddress(unit.sql, unit.db, id, { first_name: 'Erika', city: 'Köln' });
      unit.touch('customer', id);
      // Not what the table holds: only a row taken as handed over can show up in the event.
      unit.emit({ type: 'customer.updated', customerId: id, row: { ...row!, first_name: 'Handed over' } });
    });
    const [event] = await eventsOf(id);
    assert.equal(event?.type, 'customer.updated');
    assert.match(event!.data, /"Handed over"/);
    assert.match(event!.data, /"Köln"/);
  });

  test('a row named again without one is read as the transaction left it: an erasure after a write leaves no personal data in the event', async () => {
    const id = await createCustomer(s());
    await s().write(async (unit) => {
      const row = await customerRepository.updateAddress(unit.sql, unit.db, id, { first_name: 'Erika', city: 'Köln' });
      unit.touch('customer', id);
      unit.emit({ type: 'customer.updated', customerId: id, row: row! });
      await customerRepository.blank(unit.db, id, Date.now());
      unit.emit({ type: 'customer.erased', customerId: id });
    });
    const events = await eventsOf(id);
    assert.deepEqual(events.map((e) => e.type), ['customer.updated', 'customer.erased']);
    assert.doesNotMatch(events[0]!.data, /Erika|Köln/);
  });
});
