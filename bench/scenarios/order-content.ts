import { alternatingCpuRatio } from '../lib/alternating.js';
import { createDatabase, seedWithLines } from '../lib/database.js';
import type { RequestShape } from '../lib/load.js';
import { startService } from '../lib/processes.js';
import { CONFIRMED_SHARE, QUICK, type Backend } from '../lib/settings.js';
import { openStore } from '../../src/store/open-store.js';
import { confirmation, measureFeed } from './orders.js';
import { call, checkedLoad, describe, spread, type Scenario, type ScenarioContext, type ScenarioResult } from './scenario.js';

/** Lines of an order in these scenarios: the "order with 5 lines". */
const LINES = 5;

/** Five lines as a shop sends them: two tax rates, a discount, shipping. */
const FIVE_LINES = {
  Currency: 'EUR',
  Lines: [
    { Sku: 'PEN-BLUE', Name: 'Ballpoint pen, blue', Quantity: 3, UnitPrice: 1.2, TaxRate: 19 },
    { Sku: 'NOTE-A5', Name: 'Notebook A5', Quantity: 2, UnitPrice: 3.49, TaxRate: 19 },
    { Sku: 'BOOK-42', Name: 'Paperback', Quantity: 1, UnitPrice: 12.5, TaxRate: 7, Discount: 1.25 },
    { Sku: 'COFFEE-500', Name: 'Coffee beans, 500 g', Quantity: 2, UnitPrice: 9.99, TaxRate: 7 },
    { Sku: 'CABLE-USBC', Name: 'USB-C cable, 1 m', Quantity: 1, UnitPrice: 14.95, TaxRate: 19 },
  ],
  Shipping: { Name: 'DHL', Amount: 4.9, TaxRate: 19 },
};

/** `POST /orders` with five lines, a generated number each: the content is validated, computed and stored with the order. */
export const createWithLines: Scenario = {
  id: 'order-create-lines',
  label: 'order creation with 5 lines (durable)',
  usesOrders: true,
  async run(ctx) {
    const body = JSON.stringify(FIVE_LINES);
    return checkedLoad(ctx, [{ method: 'POST', path: '/orders', body }], (answer) => {
      const order = answer.body as { Lines?: unknown[]; Totals?: { Gross?: number } } | undefined;
      const ok = answer.status === 201 && (order?.Lines === undefined || order.Lines.length === LINES);
      return ok ? undefined : `expected 201 with ${LINES} lines, got ${describe(answer)}`;
    });
  },
};

/** Confirmed orders without lines, made for the comparison (the seeded ones all hold lines). */
const WITHOUT_LINES = QUICK ? 100 : 500;

async function confirmedWithoutLines(ctx: ScenarioContext): Promise<number[] | string> {
  const ids: number[] = [];
  for (let i = 0; i < WITHOUT_LINES; i++) {
    const created = await call(ctx.server, 'POST', '/orders', {});
    const orderId = (created.body as { OrderId?: number } | undefined)?.OrderId;
    if (created.status !== 201 || orderId === undefined) return `order without lines: ${describe(created)}`;
    const confirmed = await call(ctx.server, 'POST', `/orders/${orderId}/confirm`, confirmation(orderId, i, ctx.customers));
    if (confirmed.status !== 200) return `confirming an order without lines: ${describe(confirmed)}`;
    ids.push(orderId);
  }
  return ids;
}

/** Seeded confirmed orders of exactly five lines (seeded order k holds 1 + 7k mod 5 lines). */
async function confirmedWithFiveLines(ctx: ScenarioContext): Promise<number[]> {
  const store = openStore(ctx.db.url, { poolSize: 1 });
  try {
    const rows = await store.db
      .selectFrom('order_lines')
      .innerJoin('orders', 'orders.order_id', 'order_lines.order_id')
      .select('orders.order_id')
      .where('orders.status', '=', 'Confirmed')
      .groupBy('orders.order_id')
      .having((eb) => eb.fn.countAll(), '=', LINES)
      .orderBy('orders.order_id')
      .limit(20_000)
      .execute();
    return rows.map((r) => Number(r.order_id));
  } finally {
    await store.close();
  }
}

const reads = (ids: readonly number[]): RequestShape[] =>
  spread(Math.min(1000, ids.length), ids.length, 7).map((i) => ({ path: `/orders/${ids[i - 1]}` }));

/**
 * `GET /orders/{OrderId}` of confirmed orders with five lines; after its own load it takes turns
 * with the same read of confirmed orders without lines, for the CPU comparison.
 */
/** The reads of the five-line orders of a data set (by its database), found once: the limit server's run reads the same. */
const fiveLineReads = new Map<string, RequestShape[]>();

export const getWithLines: Scenario = {
  id: 'order-get-lines',
  label: 'order by id with 5 lines, GET (confirmed orders)',
  usesOrders: true,
  limitRequests: (ctx) => fiveLineReads.get(ctx.db.url) ?? [],
  async run(ctx) {
    if (!fiveLineReads.has(ctx.db.url)) fiveLineReads.set(ctx.db.url, reads(await confirmedWithFiveLines(ctx)));
    const requests = fiveLineReads.get(ctx.db.url)!;
    if (requests.length === 0) return { status: 'failed', note: 'no confirmed seeded order has five lines' };
    const result = await checkedLoad(ctx, requests, (answer) => {
      const order = answer.body as { Status?: string; Lines?: unknown[] } | undefined;
      const ok = answer.status === 200 && order?.Status === 'Confirmed' && order.Lines?.length === LINES;
      return ok ? undefined : `expected a confirmed order with ${LINES} lines, got ${describe(answer)}`;
    });
    if (result.status !== 'ok' || ctx.againstLimit) return result;
    const none = await confirmedWithoutLines(ctx);
    if (typeof none === 'string') return { status: 'failed', note: none };
    return {
      ...result,
      extra: {
        cpuRatioToNoLines: await alternatingCpuRatio({ server: ctx.server, requests }, { server: ctx.server, requests: reads(none) }),
      },
    };
  },
};

/** Orders of the feed's own data set, five lines each: the 10^6 on SQLite, fewer on PostgreSQL (as the order feed). */
function feedOrders(backend: Backend): number {
  return Number(process.env.BENCH_LINE_ORDERS ?? (QUICK ? 20_000 : backend === 'sqlite' ? 1_000_000 : 250_000));
}
/** Demo customers who confirm the feed's confirmed orders. */
const FEED_CUSTOMERS = QUICK ? 1_000 : 10_000;

/**
 * The order feed (`GET /orders/`) of a data set of its own, every order with five lines and DHL
 * shipping (60 % confirmed, as the main data set): seeded, served and dropped by this scenario.
 */
export const feedWithLines: Scenario = {
  id: 'orders-feed-lines',
  label: 'order feed: stream of every order, 5 lines each',
  async run(ctx): Promise<ScenarioResult> {
    const orders = feedOrders(ctx.backend);
    const confirmed = Math.round(orders * CONFIRMED_SHARE);
    const db = await createDatabase(ctx.backend, 'lines');
    try {
      const seeding = await seedWithLines(db, FEED_CUSTOMERS, orders, confirmed, LINES);
      const server = await startService({ databaseUrl: db.url });
      try {
        const first = await call(server, 'GET', '/orders/1');
        if ((first.body as { Lines?: unknown[] } | undefined)?.Lines?.length !== LINES)
          return { status: 'failed', note: `expected order 1 with ${LINES} lines, got ${describe(first)}` };
        const result = await measureFeed(server, orders, confirmed / orders);
        return result.extra ? { ...result, extra: { ...result.extra, seedingSeconds: seeding.seconds } } : result;
      } finally {
        await server.stop();
      }
    } finally {
      await db.drop();
    }
  },
};

/** The feed first (a server of its own), then the reads, then the creations (they add orders). */
export const orderContentScenarios: readonly Scenario[] = [feedWithLines, getWithLines, createWithLines];
