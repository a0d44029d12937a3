import { n0 } from '../lib/format.js';
import type { RequestShape } from '../lib/load.js';
import { startService, type ServerProcess } from '../lib/processes.js';
import { QUICK, SCENARIO_FILTER, type Backend } from '../lib/settings.js';
import { createTextSearchData, type TextSearchData } from '../lib/text-search-data.js';
import { checkedLoad, describe, spread, type Scenario, type ScenarioContext, type ScenarioResult } from './scenario.js';

/**
 * The text search (`Query`) as a call centre uses it: a page of 20, by what a caller says. The demo
 * data has few distinct names (12 first names, 10 last names, 5 cities), so a name and a city
 * match about 2 % of all rows: the hard case of a prefix index, where the page must be cut from
 * many matches in sync order. Ids, e-mails and order numbers match one row or a few.
 */
const TAKE = 20;

/**
 * Customers and orders of the text search's own data set: the issue's 10^6 of each (the other
 * scenarios' data set is smaller), seeded once per backend for both scenarios. `BENCH_TEXT_ROWS=N`.
 */
const ROWS = Number(process.env.BENCH_TEXT_ROWS ?? (QUICK ? 20_000 : 1_000_000));
/** One search at a time: its latency is its own, not the wait behind others'. */
const CONNECTIONS = 1;
const IDS = ['text-search-customers', 'text-search-orders', 'text-search-order-list'];

interface Prepared {
  readonly backend: Backend;
  readonly data: TextSearchData;
  readonly server: ServerProcess;
}
let prepared: Promise<Prepared> | undefined;

async function prepare(backend: Backend): Promise<Prepared> {
  const data = await createTextSearchData(backend, ROWS);
  try {
    return { backend, data, server: await startService({ databaseUrl: data.db.url }) };
  } catch (err) {
    await data.db.drop();
    throw err;
  }
}

async function release(): Promise<void> {
  const p = prepared;
  prepared = undefined;
  const done = await p?.catch(() => undefined);
  if (!done) return;
  await done.server.stop();
  await done.data.db.drop();
}

/** The data set of this backend (another backend's is dropped first), and whether this scenario is the last to use it. */
async function dataSet(ctx: ScenarioContext, id: string): Promise<{ set: Prepared; last: boolean }> {
  if (prepared && (await prepared.catch(() => undefined))?.backend !== ctx.backend) await release();
  prepared ??= prepare(ctx.backend);
  const selected = IDS.filter((x) => !SCENARIO_FILTER || SCENARIO_FILTER.has(x));
  return { set: await prepared, last: selected[selected.length - 1] === id };
}

/** Runs a scenario's load on the text search's data set and says how it was made. */
async function onOwnData(ctx: ScenarioContext, id: string, requests: (d: TextSearchData) => RequestShape[]): Promise<ScenarioResult> {
  const { set, last } = await dataSet(ctx, id);
  try {
    const result = await measure({ ...ctx, server: set.server }, requests(set.data));
    const seeded = `${n0(set.data.rows)} customers and ${n0(set.data.rows)} orders (${n0(set.data.confirmed)} confirmed), seeded in ${set.data.seconds.toFixed(0)} s`;
    return {
      ...result,
      note: [seeded, result.note].filter(Boolean).join('; '),
      extra: { tableSize: set.data.rows, seedSeconds: set.data.seconds },
    };
  } finally {
    if (last) await release();
  }
}
// Pairs the demo data holds (customer.seed.ts: first name n % 12, last name 7n % 10, city n % 5).
const NAMES = ['müll berl', 'anna sch', 'weber köln', 'FISCH frank', 'greta web', 'klara wag 80331', 'be mey'];

function customerQueries(n: number): string[] {
  return [
    NAMES[n % NAMES.length]!,
    `EXT-${n}`,
    `C${String(n).padStart(8, '0').slice(0, 7)}`,
    `firma ${n - (n % 5) || 5}`,
    `${NAMES[(n * 3) % NAMES.length]!.split(' ')[0]} ${n}`,
  ];
}

function orderQueries(n: number): string[] {
  return [
    `kunde.${n}@example`,
    `SEED-${String(n).padStart(8, '0').slice(0, 7)}`,
    NAMES[n % NAMES.length]!.split(' ')[0]!,
    `C${String(n).padStart(8, '0')}`,
  ];
}

const page = (path: string, query: string): RequestShape => ({ path: `${path}?Take=${TAKE}&Query=${encodeURIComponent(query)}` });

/** Expects a page: a 200 with an array of at most TAKE items. */
export function measure(ctx: ScenarioContext, requests: RequestShape[]): Promise<ScenarioResult> {
  return checkedLoad(
    ctx,
    requests,
    (answer) => {
      const ok = answer.status === 200 && Array.isArray(answer.body) && answer.body.length > 0 && answer.body.length <= TAKE;
      return ok ? undefined : `expected a page of 1 to ${TAKE}, got ${describe(answer)}`;
    },
    CONNECTIONS,
  );
}

/** A page of each customer query of 200 customers spread over 1..rows. */
export const customerRequests = (rows: number): RequestShape[] =>
  spread(200, rows, 5).flatMap((n) => customerQueries(n).map((q) => page('/customer/', q)));

/** A page of each order query of 200 orders spread over the confirmed ones (1..confirmed). */
export const orderRequests = (confirmed: number): RequestShape[] =>
  spread(200, confirmed, 9).flatMap((n) => orderQueries(n).map((q) => page('/orders/', q)));

export const textSearchCustomers: Scenario = {
  id: 'text-search-customers',
  label: `SearchCustomers by Query (names, ids, companies), Take=20, ${CONNECTIONS} connection, own data set`,
  run: (ctx) => onOwnData(ctx, 'text-search-customers', (d) => customerRequests(d.rows)),
};

export const textSearchOrders: Scenario = {
  id: 'text-search-orders',
  label: `SearchOrders by Query (e-mails, order numbers, names, customer ids), Take=20, ${CONNECTIONS} connection, own data set`,
  // Confirmed orders carry the customer's data: order n was confirmed by customer n.
  run: (ctx) =>
    onOwnData(ctx, 'text-search-orders', (d) =>
      spread(200, d.confirmed, 9).flatMap((n) => orderQueries(n).map((q) => page('/orders/', q))),
    ),
};

/** The console's order list (console/src/pages/orders-page.tsx): a page of 50, by status, fulfilment, payment, date and Query. */
const LIST_PAGE = 50;
const LIST_FILTERS = [
  '',
  '&Statuses=Open',
  '&Statuses=Confirmed',
  '&Statuses=Cancelled',
  '&FulfillmentStatuses=Unfulfilled',
  '&FulfillmentStatuses=Fulfilled',
  '&PaymentStatuses=Unpaid',
  '&PaymentStatuses=Paid',
  '&LastModifiedAfter=2000-01-01T00:00:00Z',
];
const LIST_QUERIES = ['', 'anna', 'seed', 'kunde 4567', 'SEED-0001234'];

/** Every filter with every query: the first one a page of every order, as the list opens. */
export const orderListRequests = (): RequestShape[] =>
  LIST_QUERIES.flatMap((q) =>
    LIST_FILTERS.map((f) => ({ path: `/orders/?Take=${LIST_PAGE}${f}${q ? `&Query=${encodeURIComponent(q)}` : ''}` })),
  );

/** Expects a page of the list: a 200 with an array of at most LIST_PAGE items (a filter may match none). */
export function measureList(ctx: ScenarioContext, requests: RequestShape[]): Promise<ScenarioResult> {
  return checkedLoad(
    ctx,
    requests,
    (answer) => {
      const ok = answer.status === 200 && Array.isArray(answer.body) && answer.body.length <= LIST_PAGE;
      return ok ? undefined : `expected a page of at most ${LIST_PAGE}, got ${describe(answer)}`;
    },
    CONNECTIONS,
  );
}

export const textSearchOrderList: Scenario = {
  id: 'text-search-order-list',
  label: `SearchOrders as the console's order list: Take=${LIST_PAGE} by status, fulfilment, payment, date, with and without Query, ${CONNECTIONS} connection, own data set`,
  run: async (ctx) => {
    const { set, last } = await dataSet(ctx, 'text-search-order-list');
    try {
      const result = await measureList({ ...ctx, server: set.server }, orderListRequests());
      return { ...result, extra: { tableSize: set.data.rows, seedSeconds: set.data.seconds } };
    } finally {
      if (last) await release();
    }
  },
};

export const textSearchScenarios: readonly Scenario[] = [textSearchCustomers, textSearchOrders, textSearchOrderList];
