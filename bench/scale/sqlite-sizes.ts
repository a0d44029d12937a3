import { n2 } from '../lib/format.js';
import { statSync } from 'node:fs';
import { seed, type BenchDatabase } from '../lib/database.js';
import { load, type LoadResult } from '../lib/load.js';
import { startService, type ServerProcess } from '../lib/processes.js';
import { TIMING } from '../lib/settings.js';
import { readSync, rssGrowthDuring, type StreamResult } from '../lib/stream.js';
import { customerId, spread } from '../scenarios/scenario.js';

export interface SizeResult {
  readonly size: number;
  /** New customers per second of `seed` (from the previous size up to this one). */
  readonly seedRate: number;
  readonly seedSeconds: number;
  readonly fileMb: number;
  /** cpuUsPerRequest: server CPU per lookup, the figure least moved by other work on the machine. */
  readonly lookup: Pick<LoadResult, 'reqPerSec' | 'p50' | 'p99'> & { readonly cpuUsPerRequest?: number };
  readonly sync: { readonly customersPerSec: number; readonly customers: number; readonly complete: boolean; readonly rssGrowthMb: number };
  readonly lookupDuringSync: Pick<LoadResult, 'reqPerSec' | 'p50' | 'p99'>;
}

/** Longest a single sync is read at a size too big to stream whole within the run. */
const SYNC_CAP_SECONDS = 20;

const pick = (l: LoadResult) => ({ reqPerSec: l.reqPerSec, p50: l.p50, p99: l.p99 });

function lookups(server: ServerProcess, size: number, connections: number, seconds: number, warmupSeconds: number): Promise<LoadResult> {
  // 10,000 distinct ids spread over the whole table, so the lookups do not stay in a few pages.
  const requests = spread(10_000, size, 17).map((n) => ({ path: `/customer/?Identifiers=${customerId(n)}` }));
  return load({ url: server.url, requests, connections, timing: { seconds, warmupSeconds }, servingPids: server.servingPids });
}

async function syncWithRss(server: ServerProcess, cap: number): Promise<{ stream: StreamResult; growth: number }> {
  const { value, before, peak } = await rssGrowthDuring(server, () => readSync(server.url, '/customer/', cap));
  return { stream: value, growth: peak - before };
}

/** Grows one SQLite database through the sizes; at each: seed rate, id lookups, sync throughput. */
export async function measureSizes(db: BenchDatabase, sizes: readonly number[], log: (line: string) => void): Promise<SizeResult[]> {
  const results: SizeResult[] = [];
  let have = 0;
  for (const size of sizes) {
    const seeded = await seed(db, size);
    const seedRate = (size - have) / seeded.seconds;
    have = size;
    const fileMb = statSync(db.url.slice('sqlite:'.length)).size / 1024 ** 2;
    log(
      `sqlite ${size.toLocaleString('en-US')}: seeded at ${Math.round(seedRate).toLocaleString('en-US')} customers/s, file ${fileMb.toFixed(0)} MB`,
    );
    const server = await startService({ databaseUrl: db.url });
    try {
      const lookup = await lookups(server, size, 10, TIMING.seconds, TIMING.warmupSeconds);
      log(
        `  id lookups: ${Math.round(lookup.reqPerSec)} req/s, p50 ${n2(lookup.p50)} ms, p99 ${n2(lookup.p99)} ms, server ${Math.round((lookup.serverCores * 1e6) / lookup.reqPerSec)} µs CPU/lookup`,
      );
      const cap = size > 1_000_000 ? SYNC_CAP_SECONDS : Infinity;
      const { stream, growth } = await syncWithRss(server, cap);
      log(
        `  sync: ${Math.round(stream.items / stream.seconds).toLocaleString('en-US')} customers/s (${stream.items.toLocaleString('en-US')} in ${stream.seconds.toFixed(1)} s${stream.complete ? '' : ', capped'}), RSS +${growth.toFixed(0)} MB`,
      );
      // Lookups while a sync streams: the small requests must keep answering.
      let measuring = true;
      const syncing = (async () => {
        while (measuring) await readSync(server.url, '/customer/', Math.min(cap, TIMING.seconds + 2));
      })();
      const during = await lookups(server, size, 2, TIMING.seconds, 0);
      measuring = false;
      await syncing;
      log(`  id lookups during a sync: p50 ${n2(during.p50)} ms, p99 ${n2(during.p99)} ms`);
      results.push({
        size,
        seedRate,
        seedSeconds: seeded.seconds,
        fileMb,
        lookup: { ...pick(lookup), cpuUsPerRequest: (lookup.serverCores * 1e6) / lookup.reqPerSec },
        sync: { customersPerSec: stream.items / stream.seconds, customers: stream.items, complete: stream.complete, rssGrowthMb: growth },
        lookupDuringSync: pick(during),
      });
    } finally {
      await server.stop();
    }
  }
  return results;
}
