import { readFileSync } from 'node:fs';
import { sql } from 'kysely';
import { openStore } from '../src/store/open-store.js';
import { searchCustomers } from '../src/customers/customer.search.js';
import { searchOrders } from '../src/orders/order.search.js';
import type { SearchCustomersRequest } from '../src/customers/customer.schemas.js';
import type { SearchOrdersRequest } from '../src/orders/order.schemas.js';

/**
 * The text search's query shapes, timed in one process against an existing store (no HTTP):
 * `node --import tsx bench/text-search-probe.ts <DATABASE_URL> [reps] [customers|orders|list]`. Prints the median and the
 * slowest of each shape and how many rows a page held.
 */
const url = process.argv[2];
if (!url) throw new Error('usage: text-search-probe.ts <DATABASE_URL> [reps] [customers|orders|list]');
const REPS = Number(process.argv[3] ?? 10);
const ONLY = process.argv[4];
/** Shapes whose name matches PROBE_SKIP are left out (a regular expression). */
const SKIP = process.env.PROBE_SKIP ? new RegExp(process.env.PROBE_SKIP) : undefined;
// One connection, so that PostgreSQL's work is that one backend's CPU time.
const store = openStore(url, { poolSize: 1 });
const backendPid = url.startsWith('postgres')
  ? Number((await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(store.reader)).rows[0]!.pid)
  : undefined;
const TICK_MS = 10;
/** CPU ms of this process and of the PostgreSQL backend (clock ticks of 10 ms: summed over the repetitions). */
function cpuMs(): number {
  const own = process.cpuUsage();
  const mine = (own.user + own.system) / 1000;
  if (backendPid === undefined) return mine;
  const fields = readFileSync(`/proc/${backendPid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return mine + (Number(fields[11]) + Number(fields[12])) * TICK_MS;
}

const customerShapes: Array<[string, SearchCustomersRequest]> = [
  ['one common word', { Query: 'anna', Take: 20 }],
  ['common prefix mü', { Query: 'mü', Take: 20 }],
  ['common prefix be', { Query: 'be', Take: 20 }],
  ['two words, frequent pair', { Query: 'müll berl', Take: 20 }],
  ['two words, 2 %', { Query: 'anna sch', Take: 20 }],
  ['three words', { Query: 'klara wag 80331', Take: 20 }],
  ['pair never together', { Query: 'anna schmidt', Take: 20 }],
  ['rare: external id', { Query: 'EXT-12345', Take: 20 }],
  ['rare: customer id prefix', { Query: 'C0001234', Take: 20 }],
  ['rare: company', { Query: 'firma 2400', Take: 20 }],
  ['name and number', { Query: 'anna 12', Take: 20 }],
  ['no match', { Query: 'zzzz', Take: 20 }],
  ['common, Skip=1000', { Query: 'anna', Take: 20, Skip: 1000 }],
  ['rare-ish, Skip=100', { Query: 'anna 12', Take: 20, Skip: 100 }],
  ['common, LastModifiedAfter (none newer)', { Query: 'anna', Take: 20, LastModifiedAfter: 9e15 }],
  ['common, no Take (first 1000 rows read)', { Query: 'müll berl 1000' }],
];

const orderShapes: Array<[string, SearchOrdersRequest]> = [
  ['e-mail', { Query: 'kunde.123@example', Take: 20 }],
  ['order number prefix', { Query: 'SEED-0001234', Take: 20 }],
  ['one common name', { Query: 'anna', Take: 20 }],
  ['customer id', { Query: 'C00001234', Take: 20 }],
  ['every order (seed)', { Query: 'seed', Take: 20 }],
  ['common name, Statuses=Open (none)', { Query: 'anna', Take: 20, Statuses: ['Open'] }],
  ['common name, Statuses=Confirmed', { Query: 'anna', Take: 20, Statuses: ['Confirmed'] }],
  ['rare, Statuses=Confirmed', { Query: 'kunde 4567', Take: 20, Statuses: ['Confirmed'] }],
  ['common name, Skip=1000', { Query: 'anna', Take: 20, Skip: 1000 }],
  ['pair never together', { Query: 'anna schmidt', Take: 20 }],
  ['no match', { Query: 'zzzz', Take: 20 }],
];

/** The console's order list: a page of 50 with each of its filters, with and without a Query. */
const LIST = 50;
const orderListShapes: Array<[string, SearchOrdersRequest]> = [
  ['list', { Take: LIST }],
  ['list Status=Open', { Take: LIST, Statuses: ['Open'] }],
  ['list Status=Confirmed', { Take: LIST, Statuses: ['Confirmed'] }],
  ['list Status=Cancelled (none)', { Take: LIST, Statuses: ['Cancelled'] }],
  ['list Fulfilment=Unfulfilled', { Take: LIST, FulfillmentStatuses: ['Unfulfilled'] }],
  ['list Fulfilment=Fulfilled (none)', { Take: LIST, FulfillmentStatuses: ['Fulfilled'] }],
  ['list Payment=Unpaid', { Take: LIST, PaymentStatuses: ['Unpaid'] }],
  ['list Payment=Paid (none)', { Take: LIST, PaymentStatuses: ['Paid'] }],
  ['list Since=0 (all)', { Take: LIST, LastModifiedAfter: 0 }],
  ['list Since=9e15 (none)', { Take: LIST, LastModifiedAfter: 9e15 }],
  ['list Query=anna', { Take: LIST, Query: 'anna' }],
  ['list Query=anna Status=Open (none)', { Take: LIST, Query: 'anna', Statuses: ['Open'] }],
  ['list Query=anna Status=Confirmed', { Take: LIST, Query: 'anna', Statuses: ['Confirmed'] }],
  ['list Query=anna Status=Cancelled (none)', { Take: LIST, Query: 'anna', Statuses: ['Cancelled'] }],
  ['list Query=anna Fulfilment=Unfulfilled', { Take: LIST, Query: 'anna', FulfillmentStatuses: ['Unfulfilled'] }],
  ['list Query=anna Payment=Paid (none)', { Take: LIST, Query: 'anna', PaymentStatuses: ['Paid'] }],
  ['list Query=anna Since=9e15 (none)', { Take: LIST, Query: 'anna', LastModifiedAfter: 9e15 }],
  ['list Query=seed Status=Open', { Take: LIST, Query: 'seed', Statuses: ['Open'] }],
  ['list Query=kunde 4567 Status=Confirmed', { Take: LIST, Query: 'kunde 4567', Statuses: ['Confirmed'] }],
];

async function drain(chunks: AsyncIterable<unknown[]> | unknown[]): Promise<number> {
  if (Array.isArray(chunks)) return chunks.length;
  let n = 0;
  for await (const c of chunks) n += c.length;
  return n;
}

async function time(run: () => Promise<number>): Promise<{ median: number; max: number; rows: number; cpu: number }> {
  const ms: number[] = [];
  let rows = await run();
  const cpu0 = cpuMs();
  for (let i = 0; i < REPS; i++) {
    const t = performance.now();
    rows = await run();
    ms.push(performance.now() - t);
  }
  const cpu = (cpuMs() - cpu0) / REPS;
  ms.sort((a, b) => a - b);
  return { median: ms[Math.floor(ms.length / 2)]!, max: ms[ms.length - 1]!, rows, cpu };
}

const line = (what: string, r: { median: number; max: number; rows: number; cpu: number }) =>
  console.log(
    `${what.padEnd(48)} CPU ${r.cpu.toFixed(2).padStart(8)} ms  wall median ${r.median.toFixed(2).padStart(8)} ms  max ${r.max.toFixed(2).padStart(8)} ms  rows ${r.rows}`,
  );

try {
  for (const [what, req] of ONLY === 'orders' || ONLY === 'list' ? [] : customerShapes) {
    if (SKIP?.test(what)) continue;
    line(`customers: ${what}`, await time(async () => drain((await searchCustomers(store, req)).customers)));
  }
  for (const [what, req] of ONLY === 'customers' ? [] : ONLY === 'list' ? orderListShapes : [...orderShapes, ...orderListShapes]) {
    if (SKIP?.test(what)) continue;
    line(`orders: ${what}`, await time(async () => drain((await searchOrders(store, req)).orders())));
  }
} finally {
  await store.close();
}
