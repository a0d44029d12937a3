import type { RequestShape } from '../lib/load.js';
import { checkedLoad, describe, spread, type Scenario, type ScenarioContext, type ScenarioResult } from './scenario.js';

/**
 * The text search (`Query`) as a call centre uses it: a page of 20, by what a caller says. The demo
 * data has few distinct names (12 first names, 10 last names, 5 cities), so a name and a city
 * match about 2 % of all rows: the hard case of a prefix index, where the page must be cut from
 * many matches in sync order. Ids, e-mails and order numbers match one row or a few.
 */
const TAKE = 20;
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
function measure(ctx: ScenarioContext, requests: RequestShape[]): Promise<ScenarioResult> {
  return checkedLoad(ctx, requests, (answer) => {
    const ok = answer.status === 200 && Array.isArray(answer.body) && answer.body.length > 0 && answer.body.length <= TAKE;
    return ok ? undefined : `expected a page of 1 to ${TAKE}, got ${describe(answer)}`;
  });
}

export const textSearchCustomers: Scenario = {
  id: 'text-search-customers',
  label: 'SearchCustomers by Query (names, ids, companies), Take=20',
  run: (ctx) =>
    measure(
      ctx,
      spread(200, ctx.customers, 5).flatMap((n) => customerQueries(n).map((q) => page('/customer/', q))),
    ),
};

export const textSearchOrders: Scenario = {
  id: 'text-search-orders',
  label: 'SearchOrders by Query (e-mails, order numbers, names, customer ids), Take=20',
  usesOrders: true,
  run: (ctx) => {
    // Confirmed orders carry the customer's data: the first of them were confirmed by customers 1…
    const confirmedBy = Math.min(ctx.customers, ctx.confirmedOrders.length);
    return measure(
      ctx,
      spread(200, confirmedBy, 9).flatMap((n) => orderQueries(n).map((q) => page('/orders/', q))),
    );
  },
};

export const textSearchScenarios: readonly Scenario[] = [textSearchCustomers, textSearchOrders];
