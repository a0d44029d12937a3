import { randomUUID } from 'node:crypto';
import { toCustomer } from '../customers/customer.mapping.js';
import { customerRepository } from '../customers/customer.repository.js';
import { toFeedItem } from '../orders/order.mapping.js';
import { orderRepository } from '../orders/order.repository.js';
import type { CustomerRow, EventRow } from '../store/database.js';
import type { StoredOrder } from '../orders/order.statements.js';
import type { Outbox } from '../writes/unit.js';
import type { Emission } from '../writes/event-types.js';
import { encodeEventData } from './event-json.js';
import { eventRepository } from './event.repository.js';

/**
 * A new event id: unique without coordination, the same on every delivery attempt. It starts with
 * the time (48 bits, hex), so new ids land at the end of the unique index instead of on a random
 * page of it; 80 random bits follow.
 */
export function newEventId(now = Date.now()): string {
  const random = randomUUID();
  return `evt_${now.toString(16).padStart(12, '0')}${random.slice(0, 8)}${random.slice(24)}`;
}

/**
 * The outbox: the write door hands it a transaction's events once every unit has written. Orders
 * and customers are read in that transaction, so each event holds the resource after its change,
 * as a key without `bank` sees it. A transaction whose every event came with the row its unit's
 * statement returned (a batch of confirmations) reads nothing: on PostgreSQL two round trips fewer.
 * They are read before the stamp is taken (outside the sync clock's lock); an order's event means
 * the order changed in this transaction, so the door stamps it, and its `LastModified` is the
 * stamp. The events are numbered with the stamp (commit order) and take it as their time.
 */
export const outbox: Outbox = {
  async prepare(sql, db, emissions) {
    // Rows handed over are taken only when every emission of the transaction came with its row: any
    // other change in it (an erasure, a cancellation, a custom field write) may have changed them
    // after their unit wrote them, and then all are read as the transaction left them.
    const handed = emissions.every((e) => 'row' in e && e.row !== undefined);
    const orders = new Map<number, StoredOrder>();
    const customers = new Map<string, CustomerRow>();
    if (handed) {
      // In unit order: the last row handed over for an id is its latest write.
      for (const e of emissions) {
        if ('orderId' in e) orders.set(e.orderId, e.row as StoredOrder);
        else if (e.type === 'customer.created' || e.type === 'customer.updated') customers.set(e.customerId, e.row as CustomerRow);
      }
    } else {
      const orderIds = [...new Set(emissions.flatMap((e) => ('orderId' in e ? [e.orderId] : [])))];
      // Customers are read for their created and updated events only (the others carry their data).
      const customerIds = [...new Set(emissions.flatMap((e) => (e.type === 'customer.created' || e.type === 'customer.updated' ? [e.customerId] : [])))];
      for (const o of await orderRepository.findMany(sql, db, orderIds)) orders.set(o.order_id, o);
      for (const c of await customerRepository.findMany(sql, db, customerIds)) customers.set(c.customer_id, c);
    }
    return async (stamp, firstEvent) => {
      for (const order of orders.values()) order.modified_at = stamp;
      const rows = emissions.map((e, i): EventRow => {
        const { data, customerId } = dataOf(e, orders, customers);
        return { sequence: firstEvent + i, event_id: newEventId(), type: e.type, occurred_at: stamp, customer_id: customerId, data: encodeEventData(data) };
      });
      await eventRepository.insertMany(sql, db, rows);
    };
  },
};

function dataOf(
  e: Emission,
  orders: ReadonlyMap<number, StoredOrder>,
  customers: ReadonlyMap<string, CustomerRow>,
): { data: unknown; customerId: string | null } {
  switch (e.type) {
    case 'order.created':
    case 'order.confirmed':
    case 'order.cancelled': {
      const order = orders.get(e.orderId);
      if (!order) throw new Error(`event ${e.type}: order ${e.orderId} not found in its own transaction`);
      return { data: toFeedItem(order, 'masked'), customerId: order.customer_id };
    }
    case 'customer.created':
    case 'customer.updated': {
      const customer = customers.get(e.customerId);
      if (!customer) throw new Error(`event ${e.type}: customer not found in its own transaction`);
      return { data: toCustomer(customer), customerId: e.customerId };
    }
    case 'customer.erased':
      return { data: { CustomerId: e.customerId }, customerId: e.customerId };
    case 'customer.customfields_changed':
      return { data: { CustomerId: e.customerId, Numbers: [...e.numbers].sort((a, b) => a - b) }, customerId: e.customerId };
    case 'customfield.defined':
    case 'customfield.deleted':
      return { data: e.definition, customerId: null };
  }
}
