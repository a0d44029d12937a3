import type { EventSource } from '../events/index.js';
import { toFeedItem } from './order.mapping.js';
import { orderRepository, type StoredOrder } from './order.repository.js';

/**
 * An order's events hold the order as a key without `bank` sees it in the feed. The order changed in
 * the event's transaction, so the door stamps it: its `LastModified` is the stamp.
 */
export const orderEventSource: EventSource<number> = {
  async read(sql, db, orderIds) {
    return new Map((await orderRepository.findMany(sql, db, orderIds)).map((o) => [o.order_id, o]));
  },
  eventData(row, stamp) {
    const order = row as StoredOrder;
    order.modified_at = stamp;
    return { data: toFeedItem(order, 'masked'), customerId: order.customer_id };
  },
};
