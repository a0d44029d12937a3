import type { EventSource } from '../events/index.js';
import { NO_RECORDS } from './order-life.records.js';
import { toFeedItem } from './order.mapping.js';
import { orderRepository, type StoredOrder, type StoredOrderWithRecords } from './order.repository.js';

/**
 * An order's events hold the order as a key without `bank` sees it in the feed, its records
 * included. The order changed in the event's transaction, so the door stamps it: its `LastModified`
 * is the stamp. A row its unit handed over is a confirmation's, read without records: an order just
 * confirmed has none (they need a confirmed order, and a transaction that also recorded one reads
 * every order again).
 */
export const orderEventSource: EventSource<number> = {
  async read(db, orderIds) {
    return new Map((await orderRepository.findMany(db, orderIds)).map((o) => [o.order_id, o]));
  },
  eventData(row, stamp) {
    const order = row as StoredOrder & Partial<StoredOrderWithRecords>;
    order.modified_at = stamp;
    order.records ??= NO_RECORDS;
    return { data: toFeedItem(order as StoredOrderWithRecords, 'masked'), customerId: order.customer_id };
  },
};
