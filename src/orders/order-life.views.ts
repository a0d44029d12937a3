import type { FulfillmentStatus, PaymentStatus } from '../store/database.js';
import { dateText, toJson, wireDate, type DateWriter, type WireDateValue } from '../wire/serializer.js';
import type { OrderRecords, RecordLine, ShownReturn, ShownShipment } from './order-life.records.js';
import { FULFILLMENT_STATUSES, PAYMENT_STATUSES } from './order-life.status.js';
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

/** The text of an order without records up to its amounts, per pair of statuses, made once. */
const EMPTY_PREFIXES: ReadonlyMap<string, ReadonlyMap<string, string>> = new Map(
  FULFILLMENT_STATUSES.map((f) => [
    f,
    new Map(
      PAYMENT_STATUSES.map((p) => [
        p,
        `"FulfillmentStatus":${JSON.stringify(f)},"PaymentStatus":${JSON.stringify(p)},"Shipments":[],"Payments":[],"Refunds":[],"Returns":[],`,
      ]),
    ),
  ]),
);

/**
 * A stored amount ("49.90", "0.00", "7") as JSON writes its number (49.9, 0, 7): its trailing zeros
 * cut, which is the number's shortest form while the decimal has at most 15 digits (every amount
 * below 10^12 with up to 3 decimals); a longer one goes through the number, as the view does.
 */
function amountJson(text: string): string {
  if (text.length > 16) return JSON.stringify(Number(text));
  if (!text.includes('.')) return text;
  let end = text.length;
  while (text.charCodeAt(end - 1) === 48 /* 0 */) end--;
  if (text.charCodeAt(end - 1) === 46 /* . */) end--;
  return text.slice(0, end);
}

/**
 * lifeView as JSON text in the default form (PascalCase, WCF dates), without its braces: the
 * fields the feed and GetOrder splice after the content. Most orders have no records: their text is
 * written from made parts, the others' through the view.
 */
export function lifeText(order: LifeOfShownOrder): string {
  const prefix = EMPTY_PREFIXES.get(order.fulfillment_status)?.get(order.payment_status);
  if (prefix === undefined || hasRecords(order.records)) return toJson(lifeView(order, WCF), 'pascal', 'wcf', true).slice(1, -1);
  return `${prefix}"Paid":${amountJson(order.paid)},"Refunded":${amountJson(order.refunded)}`;
}
