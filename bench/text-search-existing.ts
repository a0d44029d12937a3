import { n0, n2 } from './lib/format.js';
import { startService } from './lib/processes.js';
import type { Backend } from './lib/settings.js';
import { customerRequests, measure, measureList, orderListRequests, orderRequests } from './scenarios/text-search.js';
import type { ScenarioContext, ScenarioResult } from './scenarios/scenario.js';

/**
 * The text search scenarios (scenarios/text-search.ts) against a store seeded already, so that a
 * change can be measured at 10^6 rows without seeding again:
 * `node --import tsx bench/text-search-existing.ts <DATABASE_URL> <rows> [confirmed]`
 * (demo data as `seed --customers rows --orders rows --confirmed confirmed` writes it; run
 * `npm run build` first). The store is migrated when the service starts.
 */
const [url, rowsArg, confirmedArg] = process.argv.slice(2);
if (!url || !rowsArg) throw new Error('usage: text-search-existing.ts <DATABASE_URL> <rows> [confirmed]');
const rows = Number(rowsArg);
const confirmed = Number(confirmedArg ?? Math.round(rows * 0.6));
const backend: Backend = url.startsWith('sqlite:') ? 'sqlite' : 'postgres';

function show(what: string, r: ScenarioResult): void {
  const l = r.load;
  if (!l) return void console.log(`${backend}/${what}: ${r.status} ${r.note ?? ''}`);
  const db =
    backend === 'postgres' && l.databaseCores !== undefined ? `, PostgreSQL ${n0((l.databaseCores * 1e6) / l.reqPerSec)} µs CPU/req` : '';
  console.log(
    `${backend}/${what}: ${n0(l.reqPerSec)} req/s, p50 ${n2(l.p50)} ms, p99 ${n2(l.p99)} ms, server ${n0((l.serverCores * 1e6) / l.reqPerSec)} µs CPU/req${db}${r.note ? `; ${r.note}` : ''}`,
  );
}

const server = await startService({ databaseUrl: url });
try {
  const ctx = { backend, server } as ScenarioContext;
  show('text-search-customers', await measure(ctx, customerRequests(rows)));
  show('text-search-orders', await measure(ctx, orderRequests(confirmed)));
  show('text-search-order-list', await measureList(ctx, orderListRequests()));
} finally {
  await server.stop();
}
