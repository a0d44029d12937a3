import type { FulfillmentStatus, PaymentStatus } from '../store/database.js';
import { dateText, toJson, wireDate, type DateWriter, type WireDateValue } from '../wire/serializer.js';
import type { OrderRecords, RecordLine, ShownReturn, ShownShipment } from './order-life.records.js';
import type { StoredPayment, StoredRefund } from './order-life.repository.js';

// The records of an order's life as the API shows them: alone (the 201 of a payment or a refund, the
// CLI) and as lists within the order (GetOrder, the feed, events, exports). One mapping serves both,
// so that a record reads the same wherever it is shown.

/** A payment as the API shows it. */
export const paymentView = (p: StoredPayment, date: DateWriter = wireDate) => ({
  PaymentId: p.payment_id,
  OrderId: p.order_id,
  Amount: Number(p.amount),
  Type: p.type,
  Name: p.name,
  ReferenceNumber: p.reference_number,
  Date: date(p.paid_at) as WireDateValue,
});

/** A refund as the API shows it. */
export const refundView = (r: StoredRefund, date: DateWriter = wireDate) => ({
  RefundId: r.refund_id,
  OrderId: r.order_id,
  Amount: Number(r.amount),
  Reason: r.reason,
  ReferenceNumber: r.reference_number,
  Date: date(r.refunded_at) as WireDateValue,
});

const linesView = (lines: readonly RecordLine[]) => lines.map((l) => ({ LineNumber: l.line_number, Quantity: l.quantity }));

/** A shipment as the API shows it. */
export const shipmentView = (s: ShownShipment, date: DateWriter = wireDate) => ({
  ShipmentId: s.shipment_id,
  OrderId: s.order_id,
  Lines: linesView(s.lines),
  Carrier: s.carrier,
  TrackingNumber: s.tracking_number,
  TrackingUrl: s.tracking_url,
  ShippedAt: date(s.shipped_at) as WireDateValue,
});

/** A return as the API shows it. */
export const returnView = (r: ShownReturn, date: DateWriter = wireDate) => ({
  ReturnId: r.return_id,
  OrderId: r.order_id,
  Lines: linesView(r.lines),
  Reason: r.reason,
  ReceivedAt: date(r.received_at) as WireDateValue,
});

/** What an order shows of its life: its two statuses and amounts (its columns) and its records. */
export interface LifeOfShownOrder {
  readonly payment_status: PaymentStatus;
  readonly fulfillment_status: FulfillmentStatus;
  /** Exact decimal text at the currency's minor unit, as the other amounts of an order. */
  readonly paid: string;
  readonly refunded: string;
  readonly records: OrderRecords;
}

/** The order's fields of its life after the confirmation, as the order shows them (after Totals). */
export function lifeView(order: LifeOfShownOrder, date: DateWriter = wireDate) {
  const r = order.records;
  return {
    FulfillmentStatus: order.fulfillment_status,
    PaymentStatus: order.payment_status,
    Shipments: r.shipments.map((s) => shipmentView(s, date)),
    Payments: r.payments.map((p) => paymentView(p, date)),
    Refunds: r.refunds.map((x) => refundView(x, date)),
    Returns: r.returns.map((x) => returnView(x, date)),
    Paid: Number(order.paid),
    Refunded: Number(order.refunded),
  };
}

const WCF = dateText('wcf');

const hasRecords = (r: OrderRecords): boolean =>
  r.shipments.length > 0 || r.payments.length > 0 || r.refunds.length > 0 || r.returns.length > 0;

/**
 * lifeView as JSON text in the default form (PascalCase, WCF dates), without its braces: the
 * fields the feed and GetOrder splice after the content. Most orders have no records: their text is
 * written directly, the others' through the view.
 */
export function lifeText(order: LifeOfShownOrder): string {
  if (hasRecords(order.records)) return toJson(lifeView(order, WCF), 'pascal', 'wcf', true).slice(1, -1);
  return (
    `"FulfillmentStatus":${JSON.stringify(order.fulfillment_status)},"PaymentStatus":${JSON.stringify(order.payment_status)},` +
    `"Shipments":[],"Payments":[],"Refunds":[],"Returns":[],"Paid":${JSON.stringify(Number(order.paid))},` +
    `"Refunded":${JSON.stringify(Number(order.refunded))}`
  );
}
