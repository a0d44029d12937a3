/** Every event type, as docs/events.md names them (webhook filters and the pull feed's `Types`). */
export const EVENT_TYPES = [
  'order.created',
  'order.updated',
  'order.confirmed',
  'order.cancelled',
  'order.shipment_created',
  'order.payment_created',
  'order.refund_created',
  'order.return_created',
  'customer.created',
  'customer.updated',
  'customer.erased',
  'customer.customfields_changed',
  'customfield.defined',
  'customfield.deleted',
] as const;

export type EventType = (typeof EVENT_TYPES)[number];

/** The events whose data is an order after the change. */
export type OrderEventType = Extract<EventType, `order.${string}`>;

export const isEventType = (value: string): value is EventType => (EVENT_TYPES as readonly string[]).includes(value);

/**
 * What a unit of work tells the door about a change: the event's type and what it is about. An
 * order or customer event names the row; the outbox reads the row as the API shows it once the
 * transaction's stamp is on it (the resource after the change, `LastModified` included). A unit
 * whose statement returned the row as it wrote it (RETURNING) hands it over (`row`): a transaction
 * whose every emission came with its row is not read again. Other events carry their data as it is.
 */
export type Emission =
  | { readonly type: OrderEventType; readonly orderId: number; readonly row?: object }
  | { readonly type: 'customer.created' | 'customer.updated'; readonly customerId: string; readonly row?: object }
  | { readonly type: 'customer.erased'; readonly customerId: string }
  | { readonly type: 'customer.customfields_changed'; readonly customerId: string; readonly numbers: readonly number[] }
  | { readonly type: 'customfield.defined' | 'customfield.deleted'; readonly definition: object };
