import { alternatingCpuRatio } from '../lib/alternating.js';
import { cpuMeter } from '../lib/cpu.js';
import { load, type RequestShape } from '../lib/load.js';
import type { ServerProcess } from '../lib/processes.js';
import { searchGetRequests } from './customers.js';
import { QUICK, TIMING } from '../lib/settings.js';
import { incompleteStream, ORDER_START, readStream, rssGrowthDuring, streamRepeatedly } from '../lib/stream.js';
import {
  call,
  checkedLoad,
  customerId,
  describe,
  isMissingRoute,
  loadNote,
  notAvailable,
  spread,
  type Scenario,
  type ScenarioContext,
  type ScenarioResult,
} from './scenario.js';

/** Whole feeds read per run: 10^6 orders take about 10 s each on SQLite. */
const FEED_STREAMS = QUICK ? 1 : 3;
/** Orders of the warm-up page before the measured feeds. */
const WARM_UP = 50_000;

/**
 * The order feed (`GET /orders/`, SearchOrders without filters) of every seeded order, read whole
 * several times; orders counted in the bytes as they arrive, server RSS sampled meanwhile. The bench
 * key has no permission `bank`: bank data is masked, as most clients see it.
 */
export const orderFeed: Scenario = {
  id: 'orders-feed',
  label: 'order feed: stream of every order',
  usesOrders: true,
  async run(ctx) {
    if (ctx.orders === 0) return { status: 'failed', note: 'no orders were seeded' };
    return measureFeed(ctx.server, ctx.orders, ctx.confirmedOrders.length / ctx.orders);
  },
};

/**
 * The order feed of a server holding `orders` orders, read whole several times: orders/s, CPU per
 * order, RSS growth. `query` filters it (SearchOrders' parameters); a filtered feed must return at
 * least `expected` orders, the whole feed `orders`.
 */
export async function measureFeed(
  server: ServerProcess,
  orders: number,
  confirmedShare: number,
  filter: { readonly query: string; readonly expected: number } = { query: '', expected: orders },
): Promise<ScenarioResult> {
  const path = filter.query ? `/orders/?${filter.query}&` : '/orders/?';
  const feed = () => readStream(server.url, path.slice(0, -1), ORDER_START);
  await readStream(server.url, `${path}Take=${WARM_UP}`, ORDER_START);
  const cpu = cpuMeter(server.servingPids);
  const { value, before, peak } = await rssGrowthDuring(server, () => streamRepeatedly(feed, TIMING.seconds, FEED_STREAMS));
  const cores = cpu();
  const bad = incompleteStream(value.streams, filter.expected, 'orders');
  if (bad) return { status: 'failed', note: bad };
  return {
    status: 'ok',
    extra: {
      ordersPerSec: value.itemsPerSec,
      // Server CPU per order: the figure that other work on the machine moves least.
      cpuUsPerOrder: (cores.server * 1e6) / value.itemsPerSec,
      serverCores: cores.server,
      // What the reader of the feeds took of the same cores.
      generatorCores: cores.generator,
      streams: value.streams.length,
      tableSize: value.streams[0]!.items,
      confirmedShare,
      rssGrowthMb: peak - before,
    },
  };
}

/**
 * `GET /orders/{OrderId}` of confirmed orders (bank data masked): the counterpart of the customer
 * search by id. After its own load, it takes turns with the search by id for the CPU comparison.
 */
/** 1,000 different confirmed orders in turn. */
const orderReads = (ctx: ScenarioContext): RequestShape[] =>
  spread(1000, ctx.confirmedOrders.length, 13).map((i) => ({ path: `/orders/${ctx.confirmedOrders[i - 1]}` }));

export const orderGet: Scenario = {
  id: 'order-get',
  label: 'order by id, GET (confirmed orders)',
  limitRequests: orderReads,
  usesOrders: true,
  async run(ctx) {
    if (ctx.confirmedOrders.length === 0) return { status: 'failed', note: 'no confirmed orders were seeded' };
    const requests = orderReads(ctx);
    const result = await checkedLoad(ctx, requests, (answer) => {
      const order = answer.body as { Status?: string; Confirmation?: { CustomerIban?: string } } | undefined;
      const ok = answer.status === 200 && order?.Status === 'Confirmed' && order.Confirmation?.CustomerIban === 'DE89********3000';
      return ok ? undefined : `expected a confirmed order with its IBAN masked, got ${describe(answer)}`;
    });
    if (result.status !== 'ok' || ctx.againstLimit) return result;
    return {
      ...result,
      extra: {
        cpuRatioToSearch: await alternatingCpuRatio(
          { server: ctx.server, requests },
          { server: ctx.server, requests: searchGetRequests(ctx) },
        ),
      },
    };
  },
};

/**
 * A complete confirmation as a shop sends it: every other one for a known customer (by id), the
 * others for a new customer (by a fresh external id), with bank and payment data to validate.
 */
export function confirmation(orderId: number, i: number, customers: number): Record<string, unknown> {
  const known = i % 2 === 0;
  return {
    OrderId: orderId,
    ...(known ? { CustomerId: customerId((i % customers) + 1) } : { ExternalCustomerId: `BENCH-${orderId}` }),
    CustomerSalutation: 'Frau',
    CustomerFirstName: 'Greta',
    CustomerLastName: `Fischer ${i}`,
    CustomerPostalCode: '80331',
    CustomerCity: 'München',
    CustomerCountry: 'DE',
    CustomerStreet: 'Hauptstraße',
    CustomerStreetNumber: '43',
    CustomerEMail: `greta.${i}@example.org`,
    CustomerIban: 'DE89370400440532013000',
    CustomerBic: 'COBADEFFXXX',
    AccountHolderName: 'Greta Fischer',
    PaymentMethod: 'Lastschrift',
    ShippingMethod: 'DHL',
    DeliveryDate: '/Date(1767225600000-0000)/',
    Payment: { Amount: 49.95, Name: 'Anzahlung', Type: 'PayPal' },
    Note: `bench ${orderId}`,
  };
}

export const confirm: Scenario = {
  id: 'confirm',
  label: 'order confirmation (durable)',
  usesOrders: true,
  async run(ctx: ScenarioContext): Promise<ScenarioResult> {
    const orders = ctx.openOrders;
    const firstId = orders.shift();
    if (firstId === undefined) return { status: 'failed', note: 'no open orders were seeded' };
    const first = await call(ctx.server, 'POST', `/orders/${firstId}/confirm`, confirmation(firstId, 0, ctx.customers));
    if (isMissingRoute(first)) return notAvailable('ConfirmOrder');
    if (first.status !== 200) return { status: 'failed', note: `confirmation: ${describe(first)}` };
    let i = 1;
    let exhausted = 0;
    const next = () => {
      const orderId = orders.shift();
      if (orderId === undefined) {
        // Out of fresh orders: an unknown order id answers 404 and is not counted as a confirmation.
        exhausted++;
        return {
          method: 'POST' as const,
          path: '/orders/2147483000/confirm',
          body: JSON.stringify(confirmation(2147483000, 0, ctx.customers)),
        };
      }
      return {
        method: 'POST' as const,
        path: `/orders/${orderId}/confirm`,
        body: JSON.stringify(confirmation(orderId, i++, ctx.customers)),
      };
    };
    const result = await load({ url: ctx.server.url, next, servingPids: ctx.server.servingPids });
    const note = [loadNote(result), exhausted > 0 ? `ran out of open orders (${exhausted} requests without one)` : undefined]
      .filter(Boolean)
      .join('; ');
    return { status: 'ok', load: result, ...(note ? { note } : {}) };
  },
};

/** Reads first: the confirmations change what they read. */
export const orderScenarios: readonly Scenario[] = [orderFeed, orderGet, confirm];
