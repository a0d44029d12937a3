import cluster from 'node:cluster';
import { resolve } from 'node:path';
import { answerWorkers, askPrimary, WORKER_ENV } from '../src/ops/cluster-channel.js';
import { clusterLimits, serveClusterLimits } from '../src/ops/cluster-limits.js';
import { createDatabase, seed } from './lib/database.js';
import { startService } from './lib/processes.js';
import { CUSTOMERS } from './lib/settings.js';
import { searchGet } from './scenarios/customers.js';

// What a limit costs a request when a cluster's primary keeps the windows (WORKERS > 1 without
// REDIS_URL).
//   node --import tsx bench/cluster-limits.ts          CPU of the worker and of the primary per
//     counted request, for one IPC round trip per request and for the slices the rate limit leases
//     (burst 2,000 on 2 workers: slices of 62); N=100000 requests a row.
//   node --import tsx bench/cluster-limits.ts --serve  the search GET on a WORKERS=2 server (npm run
//     build first; BENCH_CUSTOMERS=10000 for a quick one), rate limit off, in slices of 62 and in
//     slices of 1 (a round trip per request), two alternating rounds; server CPU includes the primary.
//     With --baseline <checkout> (built), also that build with the rate limit on, for a build that
//     counts in each worker.

const N = Number(process.env.N ?? 100_000);
const cpuMs = (u: NodeJS.CpuUsage): number => (u.user + u.system) / 1000;

if (process.argv.includes('--serve')) {
  const at = process.argv.indexOf('--baseline');
  const baseline = at > 0 ? resolve(process.argv[at + 1]!) : undefined;
  const on = { RATE_LIMIT_PER_SECOND: '100000', RATE_LIMIT_BURST: '2000' };
  const configs: Record<string, { env: Record<string, string>; root?: string }> = {
    'rate limit off': { env: { RATE_LIMIT_PER_SECOND: '0' } },
    'slices of 62 (100,000/s, burst 2,000)': { env: on },
    'slices of 1 (1 ms windows of 31)': { env: { RATE_LIMIT_PER_SECOND: '1000000', RATE_LIMIT_BURST: '31' } },
    ...(baseline ? { 'baseline, rate limit on (100,000/s)': { env: on, root: baseline } } : {}),
  };
  const db = await createDatabase('sqlite', 'cluster-limits');
  try {
    await seed(db, CUSTOMERS);
    for (let round = 0; round < 2; round++) {
      const order = round % 2 === 0 ? Object.entries(configs) : Object.entries(configs).reverse();
      for (const [label, { env, root }] of order) {
        const s = await startService({ databaseUrl: db.url, workers: 2, env, ...(root ? { root } : {}) });
        try {
          const server = { ...s, servingPids: () => [s.pid, ...s.servingPids()] };
          const r = await searchGet.run({
            backend: 'sqlite',
            server,
            db,
            customers: CUSTOMERS,
            orders: 0,
            openOrders: [],
            confirmedOrders: [],
          });
          const l = r.load!;
          const us = ((l.serverCores * 1e6) / l.reqPerSec).toFixed(1);
          process.stdout.write(
            `${label.padEnd(40)} ${String(Math.round(l.reqPerSec)).padStart(6)} req/s  server ${us} µs CPU/req  ${JSON.stringify(l.statusCodes)}\n`,
          );
        } finally {
          await s.stop();
        }
      }
    }
  } finally {
    await db.drop();
  }
} else if (cluster.isPrimary) {
  serveClusterLimits();
  let since = process.cpuUsage();
  answerWorkers<string, number>('bench:phase', (what) => {
    const used = cpuMs(process.cpuUsage(since));
    since = process.cpuUsage();
    return what === 'start' ? 0 : used;
  });
  const worker = cluster.fork(WORKER_ENV);
  worker.on('exit', (code) => process.exit(code ?? 0));
} else {
  const phase = askPrimary<string, number>('bench:phase', 60_000)!;
  const limits = clusterLimits((err) => {
    throw err;
  })!;
  const run = async (label: string, concurrency: number, count: (i: number) => Promise<unknown>): Promise<void> => {
    await phase('start');
    const mine = process.cpuUsage();
    const started = performance.now();
    let next = 0;
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        while (next < N) await count(next++);
      }),
    );
    const wall = performance.now() - started;
    const worker = cpuMs(process.cpuUsage(mine));
    const primary = await phase('end');
    const us = (ms: number): string => ((ms * 1000) / N).toFixed(2).padStart(6);
    process.stdout.write(`${label.padEnd(52)} worker ${us(worker)} µs  primary ${us(primary)} µs  wall ${us(wall)} µs per request\n`);
  };
  const perRequest = limits.counter('bench-each', Number.MAX_SAFE_INTEGER, 60_000);
  // Slices of 62 as with the default burst (2,000) on 2 workers, in a window that does not run out
  // during the run (so that every request is admitted and slices keep being taken).
  const leased = limits.leased('bench-lease', 1_000_000_000, 600_000, Math.floor(1_000_000_000 / (16 * 62)));
  const whole = limits.leased('bench-whole', 1_000_000_000, 600_000, 2);
  for (let round = 0; round < 2; round++) {
    process.stdout.write(`round ${round + 1} (${N} requests, one key)\n`);
    await run('one round trip per request, 1 at a time', 1, () => perRequest('key'));
    await run('one round trip per request, 10 concurrent', 10, () => perRequest('key'));
    await run(`slices of ${leased.slice}, 1 at a time`, 1, () => leased.count('key', 1));
    await run(`slices of ${leased.slice}, 10 concurrent`, 10, () => leased.count('key', 1));
    await run(`one slice for all (local count only), 10 concurrent`, 10, () => whole.count('key', 1));
  }
  process.exit(0);
}
