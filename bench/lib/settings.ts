import { fileURLToPath } from 'node:url';
import { dirname, resolve } from 'node:path';

/** Repository root (bench/lib/ → ../..). */
export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** `BENCH_QUICK=1`: a smoke run (about a second per scenario) that proves the harness works. */
export const QUICK = process.env.BENCH_QUICK === '1' || process.env.BENCH_QUICK === 'true';

export interface Timing {
  /** Seconds of load that are measured. */
  readonly seconds: number;
  /** Seconds of load before the measurement, so the JIT and the caches are warm. */
  readonly warmupSeconds: number;
}

export const TIMING: Timing = QUICK ? { seconds: 1, warmupSeconds: 0.5 } : { seconds: 6, warmupSeconds: 2 };

export const CONNECTIONS = 10;

/** Customers in the data set of `npm run bench` (the 10^5). */
export const CUSTOMERS = Number(process.env.BENCH_CUSTOMERS ?? (QUICK ? 10_000 : 100_000));

/**
 * Orders of the data set, and how many of them are seeded confirmed (the rest stay open for the
 * confirmations). The 10^6 on SQLite; on PostgreSQL seeding and streaming 10^6 would take
 * about two minutes, so fewer (every row of the order feed names its table size).
 * `BENCH_ORDERS=N` sets both.
 */
export function orderCounts(backend: Backend): { readonly orders: number; readonly confirmed: number } {
  const orders = Number(process.env.BENCH_ORDERS ?? (QUICK ? 20_000 : backend === 'sqlite' ? 1_000_000 : 250_000));
  return { orders, confirmed: Math.round(orders * CONFIRMED_SHARE) };
}

/** Share of the seeded orders that are confirmed. */
export const CONFIRMED_SHARE = 0.6;

/**
 * Which scenarios to run: `BENCH_SCENARIOS=orders-feed,order-get` (ids as in the tables; default:
 * every one). A run of some scenarios only prints: it never rewrites BENCHMARKS.md.
 */
export const SCENARIO_FILTER: ReadonlySet<string> | undefined = process.env.BENCH_SCENARIOS
  ? new Set(
      process.env.BENCH_SCENARIOS.split(',')
        .map((s) => s.trim())
        .filter(Boolean),
    )
  : undefined;

export const PG_URL = process.env.PG_TEST_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

/** Which backends to run: `BENCH_BACKENDS=sqlite,postgres` (the default). */
export const BACKENDS = (process.env.BENCH_BACKENDS ?? 'sqlite,postgres')
  .split(',')
  .map((s) => s.trim())
  .filter((s): s is 'sqlite' | 'postgres' => s === 'sqlite' || s === 'postgres');

export type Backend = (typeof BACKENDS)[number];

/** The key every spawned server is started with (ORDERGATE_BOOTSTRAP_KEY): all,admin. */
export const BENCH_KEY = 'bench-key-0123456789abcdef0123456789abcdef';
