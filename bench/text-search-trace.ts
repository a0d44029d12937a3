import { CompiledQuery } from 'kysely';
import { openStore } from '../src/store/open-store.js';
import { searchCustomers } from '../src/customers/customer.search.js';
import { searchOrders } from '../src/orders/order.search.js';
import type { SearchCustomersRequest } from '../src/customers/customer.schemas.js';
import type { SearchOrdersRequest } from '../src/orders/order.schemas.js';

/**
 * Each statement of one search, with its time and its plan (EXPLAIN QUERY PLAN / EXPLAIN ANALYZE),
 * against an existing store: `node --import tsx bench/text-search-trace.ts <DATABASE_URL>
 * <customers|orders> '<request as JSON>'`, e.g. `'{"Query":"anna","Take":20}'`.
 */
const [url, kind, json] = process.argv.slice(2);
if (!url || (kind !== 'customers' && kind !== 'orders') || !json)
  throw new Error("usage: text-search-trace.ts <DATABASE_URL> <customers|orders> '<request JSON>'");
const store = openStore(url, { poolSize: 1 });
const pg = url.startsWith('postgres');
const executor = store.reader.getExecutor();
const run = executor.executeQuery.bind(executor);
const seen: Array<{ query: CompiledQuery; ms: number }> = [];
let tracing = true;
executor.executeQuery = (async (query: CompiledQuery, id: unknown) => {
  const t = performance.now();
  const res = await (run as (q: CompiledQuery, id: unknown) => Promise<unknown>)(query, id);
  if (tracing) seen.push({ query, ms: performance.now() - t });
  return res;
}) as typeof executor.executeQuery;

async function drain(chunks: AsyncIterable<unknown[]> | unknown[]): Promise<number> {
  if (Array.isArray(chunks)) return chunks.length;
  let n = 0;
  for await (const c of chunks) n += c.length;
  return n;
}
const request = JSON.parse(json) as SearchCustomersRequest & SearchOrdersRequest;
const search = async () =>
  kind === 'customers' ? drain((await searchCustomers(store, request)).customers) : drain((await searchOrders(store, request)).orders());

try {
  await search(); // warm
  seen.length = 0;
  const t = performance.now();
  const rows = await search();
  const total = performance.now() - t;
  tracing = false;
  console.log(`${kind} ${json}: ${rows} rows in ${total.toFixed(2)} ms, ${seen.length} statements`);
  for (const { query, ms } of seen) {
    const text = query.sql.replace(/^\/\*[^*]*\*\/\s*/, '');
    console.log(`\n${ms.toFixed(2).padStart(8)} ms  ${text.slice(0, 600)}${text.length > 600 ? ' …' : ''}`);
    console.log(`           params ${JSON.stringify(query.parameters).slice(0, 200)}`);
    const explain = pg ? `explain (analyze, buffers) ${text}` : `explain query plan ${text}`;
    const plan = await (run as (q: CompiledQuery, id: unknown) => Promise<unknown>)(
      CompiledQuery.raw(explain, [...query.parameters]),
      undefined,
    );
    for (const r of (plan as { rows: Array<Record<string, unknown>> }).rows)
      console.log(`           ${String(pg ? r['QUERY PLAN'] : r.detail)}`);
  }
} finally {
  await store.close();
}
