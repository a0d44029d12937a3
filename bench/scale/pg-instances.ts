import { n2 } from '../lib/format.js';
import { createHash } from 'node:crypto';
import { seed, type BenchDatabase } from '../lib/database.js';
import { load, type LoadResult } from '../lib/load.js';
import { startService, type ServerProcess } from '../lib/processes.js';
import { TIMING } from '../lib/settings.js';
import { call, customerId, describe, spread } from '../scenarios/scenario.js';

export interface InstancesResult {
  readonly customers: number;
  readonly perInstance: ReadonlyArray<Pick<LoadResult, 'reqPerSec' | 'p50' | 'p99' | 'non2xx' | 'errors'>>;
  readonly combinedReqPerSec: number;
  /** Writes through instance A, each read back at once through instance B. */
  readonly writes: number;
  readonly staleReads: number;
  readonly failedWrites: number;
  /** Both instances' full syncs hash the same after the load. */
  readonly syncsAgree: boolean;
  readonly syncCount: number;
}

/** Customer numbers the writer changes; the readers' load spreads over the whole table. */
const WRITTEN = 500;

/** Writes a customer through one instance and reads it back through the other, until stopped. */
async function writeAndCrossRead(a: ServerProcess, b: ServerProcess, customers: number, running: () => boolean) {
  let writes = 0;
  let stale = 0;
  let failed = 0;
  const targets = spread(WRITTEN, customers, 23);
  while (running()) {
    const id = customerId(targets[writes % targets.length]!);
    const city = `Stadt ${writes}`;
    const put = await call(a, 'PUT', `/customer/${id}`, { City: city, LastName: 'Scale', Country: 'DE' });
    writes++;
    if (put.status !== 200) {
      failed++;
      if (failed === 1) process.stderr.write(`write through instance A failed: ${describe(put)}\n`);
      continue;
    }
    const read = await call(b, 'GET', `/customer/?Identifiers=${id}`);
    const seen = Array.isArray(read.body) ? (read.body[0] as { City?: string } | undefined)?.City : undefined;
    if (seen !== city) stale++;
  }
  return { writes, stale, failed };
}

async function syncDigest(server: ServerProcess): Promise<{ digest: string; count: number }> {
  const answer = await call(server, 'GET', '/customer/');
  if (!Array.isArray(answer.body)) throw new Error(`sync: ${describe(answer)}`);
  return { digest: createHash('sha256').update(JSON.stringify(answer.body)).digest('hex'), count: answer.body.length };
}

/**
 * Two service processes on one PostgreSQL database under read load on both, while a writer goes
 * through one and reads back through the other: every write must be visible at once on the other.
 */
export async function twoInstances(db: BenchDatabase, customers: number, log: (line: string) => void): Promise<InstancesResult> {
  await seed(db, customers);
  const a = await startService({ databaseUrl: db.url });
  const b = await startService({ databaseUrl: db.url });
  try {
    const requests = spread(10_000, customers, 29).map((n) => ({ path: `/customer/?Identifiers=${customerId(n)}` }));
    const opts = { requests, connections: 5, timing: TIMING };
    let running = true;
    // The writer starts with the measured part of the load and stops with it.
    const writer = new Promise((r) => setTimeout(r, TIMING.warmupSeconds * 1000)).then(() =>
      writeAndCrossRead(a, b, customers, () => running),
    );
    const [la, lb] = await Promise.all([
      load({ ...opts, url: a.url, servingPids: a.servingPids }),
      load({ ...opts, url: b.url, servingPids: b.servingPids }),
    ]);
    running = false;
    const w = await writer;
    const [da, dbb] = await Promise.all([syncDigest(a), syncDigest(b)]);
    const result: InstancesResult = {
      customers,
      perInstance: [la, lb].map((l) => ({ reqPerSec: l.reqPerSec, p50: l.p50, p99: l.p99, non2xx: l.non2xx, errors: l.errors })),
      combinedReqPerSec: la.reqPerSec + lb.reqPerSec,
      writes: w.writes,
      staleReads: w.stale,
      failedWrites: w.failed,
      syncsAgree: da.digest === dbb.digest && da.count === dbb.count,
      syncCount: da.count,
    };
    log(
      `postgres two instances: ${Math.round(result.combinedReqPerSec)} lookups/s combined ` +
        `(A p99 ${n2(la.p99)} ms, B p99 ${n2(lb.p99)} ms); ${w.writes} writes via A read back via B, ` +
        `${w.stale} stale, ${w.failed} failed; full syncs ${result.syncsAgree ? 'identical' : 'DIFFER'} (${da.count} customers)`,
    );
    return result;
  } finally {
    await Promise.all([a.stop(), b.stop()]);
  }
}
