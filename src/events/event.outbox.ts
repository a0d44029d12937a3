import { randomUUID } from 'node:crypto';
import type { EventRow } from '../store/database.js';
import type { DbHandle } from '../store/store.js';
import type { Outbox } from '../writes/unit.js';
import type { Emission } from '../writes/event-types.js';
import { encodeEventData } from './event.json.js';
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

/** An event's payload and the customer it is about (null: about none). */
export interface EventData {
  readonly data: unknown;
  readonly customerId: string | null;
}

/**
 * What the module that owns a kind of row offers the outbox: the rows, read in the transaction as it
 * left them, and the payload of an event about one of them. Each module builds its own events' JSON.
 */
export interface EventSource<Id> {
  read(db: DbHandle, ids: readonly Id[]): Promise<ReadonlyMap<Id, object>>;
  /** The payload of an event about this row (as its unit handed it over or as read), stamped with the transaction's stamp. */
  eventData(row: object, stamp: number): EventData;
}

/** The modules whose events name a row: orders by number, customers by id. */
export interface EventSources {
  readonly order: EventSource<number>;
  readonly customer: EventSource<string>;
}

const readsCustomer = (e: Emission): e is Extract<Emission, { type: 'customer.created' | 'customer.updated' }> =>
  e.type === 'customer.created' || e.type === 'customer.updated';

/**
 * The outbox: the write door hands it a transaction's events once every unit has written. Orders
 * and customers are read in that transaction, so each event holds the resource after its change,
 * as a key without `bank` sees it. A transaction whose every event came with the row its unit's
 * statement returned (a batch of confirmations) reads nothing: on PostgreSQL two round trips fewer.
 * They are read before the stamp is taken (outside the sync clock's lock); an order's event means
 * the order changed in this transaction, so the door stamps it, and its `LastModified` is the
 * stamp. The events are numbered with the stamp (commit order) and take it as their time.
 */
export function createOutbox(sources: EventSources): Outbox {
  return {
    async prepare(db, emissions) {
      // Rows handed over are taken only when every emission of the transaction came with its row: any
      // other change in it (an erasure, a cancellation, a custom field write) may have changed them
      // after their unit wrote them, and then all are read as the transaction left them.
      const handed = emissions.every((e) => 'row' in e && e.row !== undefined);
      let orders: ReadonlyMap<number, object>;
      let customers: ReadonlyMap<string, object>;
      if (handed) {
        // In unit order: the last row handed over for an id is its latest write.
        const handedOrders = new Map<number, object>();
        const handedCustomers = new Map<string, object>();
        for (const e of emissions) {
          if ('orderId' in e) handedOrders.set(e.orderId, e.row!);
          else if (readsCustomer(e)) handedCustomers.set(e.customerId, e.row!);
        }
        orders = handedOrders;
        customers = handedCustomers;
      } else {
        const orderIds = [...new Set(emissions.flatMap((e) => ('orderId' in e ? [e.orderId] : [])))];
        // Customers are read for their created and updated events only (the others carry their data).
        const customerIds = [...new Set(emissions.flatMap((e) => (readsCustomer(e) ? [e.customerId] : [])))];
        orders = await sources.order.read(db, orderIds);
        customers = await sources.customer.read(db, customerIds);
      }
      return async (stamp, firstEvent) => {
        const rows = emissions.map((e, i): EventRow => {
          const { data, customerId } = dataOf(e, stamp);
          return {
            sequence: firstEvent + i,
            event_id: newEventId(),
            type: e.type,
            occurred_at: stamp,
            customer_id: customerId,
            order_id: 'orderId' in e ? e.orderId : null,
            data: encodeEventData(data),
          };
        });
        await eventRepository.insertMany(db, rows);
      };

      function dataOf(e: Emission, stamp: number): EventData {
        switch (e.type) {
          case 'order.created':
          case 'order.updated':
          case 'order.confirmed':
          case 'order.cancelled':
          case 'order.shipment_created':
          case 'order.payment_created':
          case 'order.refund_created':
          case 'order.return_created': {
            const order = orders.get(e.orderId);
            if (!order) throw new Error(`event ${e.type}: order ${e.orderId} not found in its own transaction`);
            return sources.order.eventData(order, stamp);
          }
          case 'customer.created':
          case 'customer.updated': {
            const customer = customers.get(e.customerId);
            if (!customer) throw new Error(`event ${e.type}: customer not found in its own transaction`);
            return sources.customer.eventData(customer, stamp);
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
    },
  };
}
