import type { FulfillmentStatus } from '../store/database.js';

// An order's fulfilment status, computed from its shipments and returns (docs/orders.md, "After the
// confirmation"). Pure: the writes that record a shipment or a return store the result with the order.

/** One line of the order: its quantity, and how much of it was shipped and returned so far. */
export interface LineTally {
  readonly line_number: number;
  readonly quantity: number;
  readonly shipped: number;
  readonly returned: number;
}

/**
 * Returns decide first (every shipped unit back, or some); then shipments: fulfilled once every
 * line's quantity is shipped, partly fulfilled before.
 */
export function fulfillmentStatusOf(lines: readonly LineTally[]): FulfillmentStatus {
  const shipped = lines.reduce((n, l) => n + l.shipped, 0);
  const returned = lines.reduce((n, l) => n + l.returned, 0);
  if (returned > 0) return returned >= shipped ? 'Returned' : 'PartiallyReturned';
  if (shipped === 0) return 'Unfulfilled';
  return lines.every((l) => l.shipped >= l.quantity) ? 'Fulfilled' : 'PartiallyFulfilled';
}
