import { load, type RequestShape } from '../lib/load.js';
import { measureFeed } from './orders.js';
import {
  call,
  describe,
  isMissingRoute,
  loadNote,
  notAvailable,
  type Scenario,
  type ScenarioContext,
  type ScenarioResult,
} from './scenario.js';

// The order's life after the confirmation (issue 28, "Numbers"): the feed filtered by the statuses a
// warehouse or an accountant asks for, and the records they post back. The reads run before the
// writes, so the filtered feeds see the seeded statuses: every order Unfulfilled, open orders Unpaid.

/**
 * A feed filtered by a status, measured as the order feed is (measureFeed). `expected` is the least
 * number of orders the filter must return; the rate is of the orders returned.
 */
function filteredFeed(id: string, label: string, query: string, expected: (ctx: ScenarioContext) => number): Scenario {
  return {
    id,
    label,
    usesOrders: true,
    async run(ctx) {
      if (ctx.orders === 0) return { status: 'failed', note: 'no orders were seeded' };
      const path = `/orders/?${query}`;
      const first = await call(ctx.server, 'GET', `${path}&Take=1`);
      if (isMissingRoute(first) || first.status === 400) return notAvailable(`SearchOrders ${query}`);
      const result = await measureFeed(ctx.server, ctx.orders, ctx.confirmedOrders.length / ctx.orders, { query, expected: expected(ctx) });
      const matched = result.extra?.tableSize;
      if (result.status !== 'ok' || typeof matched !== 'number') return result;
      return { ...result, note: `${query}: ${matched.toLocaleString('en-US')} of ${ctx.orders.toLocaleString('en-US')} orders match` };
    },
  };
}

/** Nothing is shipped before this scenario: every order, open or confirmed, is Unfulfilled. */
export const feedUnfulfilled = filteredFeed(
  'orders-feed-unfulfilled',
  'order feed: FulfillmentStatuses=Unfulfilled',
  'FulfillmentStatuses=Unfulfilled',
  (ctx) => ctx.orders,
);

/**
 * The open orders (never paid) and any confirmation without a payment: a filter that skips the
 * seeded confirmed orders. The confirmations of the run before it take open orders away (each with
 * a payment), so only a whole answer with some orders is required; the note says how many.
 */
export const feedUnpaid = filteredFeed('orders-feed-unpaid', 'order feed: PaymentStatuses=Unpaid', 'PaymentStatuses=Unpaid', () => 1);

/**
 * The seeded confirmed orders the writes below take, newest first: the reads of other scenarios
 * (order by id) take theirs from the whole range and still find each confirmed, shipped or not.
 * One list per database: each backend's run has its own orders.
 */
const unshippedOf = new Map<string, number[]>();

/** A shipment POST as a warehouse sends it: the rest of the order (no Lines), carrier and tracking. */
const shipment = (orderId: number): RequestShape => ({
  method: 'POST',
  path: `/orders/${orderId}/shipments`,
  body: JSON.stringify({
    Carrier: 'DHL',
    TrackingNumber: `00340434${String(orderId).padStart(10, '0')}`,
    TrackingUrl: `https://www.dhl.de/track?piececode=00340434${orderId}`,
  }),
});

/**
 * `POST /orders/{id}/shipments` of a fresh seeded confirmed order each time (1–5 lines, all shipped):
 * durable, as the confirmation. When the unshipped orders run out, the rest goes to an order shipped
 * already (409 NothingToShip, not counted) and the notes say so.
 */
export const shipmentPost: Scenario = {
  id: 'shipment',
  label: 'shipment, POST (durable)',
  usesOrders: true,
  async run(ctx): Promise<ScenarioResult> {
    let unshipped = unshippedOf.get(ctx.db.url);
    if (!unshipped) unshippedOf.set(ctx.db.url, (unshipped = [...ctx.confirmedOrders].reverse()));
    const firstId = unshipped.shift();
    if (firstId === undefined) return { status: 'failed', note: 'no confirmed orders were seeded' };
    const first = await call(ctx.server, 'POST', shipment(firstId).path, JSON.parse(shipment(firstId).body!));
    if (isMissingRoute(first)) return notAvailable('CreateOrderShipment');
    const shipped = first.body as { Lines?: unknown[] } | undefined;
    if (first.status !== 201 || !shipped?.Lines?.length) return { status: 'failed', note: `shipment: ${describe(first)}` };
    let exhausted = 0;
    const next = (): RequestShape => {
      const orderId = unshipped.shift();
      if (orderId !== undefined) return shipment(orderId);
      exhausted++;
      return shipment(firstId);
    };
    const result = await load({ url: ctx.server.url, next, servingPids: ctx.server.servingPids });
    const note = [loadNote(result), exhausted > 0 ? `ran out of unshipped orders (${exhausted} requests without one)` : undefined]
      .filter(Boolean)
      .join('; ');
    return { status: 'ok', load: result, ...(note ? { note } : {}) };
  },
};

/**
 * `POST /orders/{id}/payments` as a payment provider reports them: 10.00 EUR at a time, the seeded
 * confirmed orders in turn (each order takes many; a payment is never refused for being more than
 * the gross), a unique reference each time.
 */
export const paymentPost: Scenario = {
  id: 'payment',
  label: 'payment, POST (durable)',
  usesOrders: true,
  async run(ctx): Promise<ScenarioResult> {
    const orders = ctx.confirmedOrders;
    if (orders.length === 0) return { status: 'failed', note: 'no confirmed orders were seeded' };
    let i = 0;
    const payment = (): RequestShape => {
      const orderId = orders[i++ % orders.length]!;
      return {
        method: 'POST',
        path: `/orders/${orderId}/payments`,
        body: JSON.stringify({ Amount: 10, Name: 'Rate', Type: 'PayPal', ReferenceNumber: `PP-${i}` }),
      };
    };
    const req = payment();
    const first = await call(ctx.server, 'POST', req.path, JSON.parse(req.body!));
    if (isMissingRoute(first)) return notAvailable('CreateOrderPayment');
    if (first.status !== 201) return { status: 'failed', note: `payment: ${describe(first)}` };
    const result = await load({ url: ctx.server.url, next: payment, servingPids: ctx.server.servingPids });
    const note = loadNote(result);
    return { status: 'ok', load: result, ...(note ? { note } : {}) };
  },
};

/** Reads first: the shipments and payments change what the filters match. */
export const orderLifeScenarios: readonly Scenario[] = [feedUnfulfilled, feedUnpaid, shipmentPost, paymentPost];
