import type { FulfillmentStatus, PaymentStatus } from '../store/database.js';

// An order's two statuses after its confirmation, computed from what was recorded (docs/orders.md,
// "After the confirmation"). Pure: the writes that record something store the result with the order.

export const PAYMENT_STATUSES = [
  'Unpaid',
  'PartiallyPaid',
  'Paid',
  'PartiallyRefunded',
  'Refunded',
] as const satisfies readonly PaymentStatus[];
export const FULFILLMENT_STATUSES = [
  'Unfulfilled',
  'PartiallyFulfilled',
  'Fulfilled',
  'PartiallyReturned',
  'Returned',
] as const satisfies readonly FulfillmentStatus[];

/** What the payment status is computed from: amounts in the currency's minor units. */
export interface PaymentTally {
  readonly paid: bigint;
  readonly refunded: bigint;
  /** The order's `Totals.Gross` (zero for an order without lines). */
  readonly gross: bigint;
  /** Whether any payment was recorded (the confirmation's included), even one of zero. */
  readonly anyPayment: boolean;
}

/**
 * Refunds decide first (every payment refunded, or some); then payments: paid once they reach the
 * gross total — so any payment pays an order without lines — partly paid below it.
 */
export function paymentStatusOf(t: PaymentTally): PaymentStatus {
  if (t.refunded > 0n) return t.refunded >= t.paid ? 'Refunded' : 'PartiallyRefunded';
  if (t.anyPayment && t.paid >= t.gross) return 'Paid';
  return t.paid > 0n ? 'PartiallyPaid' : 'Unpaid';
}
