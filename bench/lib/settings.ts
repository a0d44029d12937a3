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

export const PG_URL = process.env.PG_TEST_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

/** Which backends to run: `BENCH_BACKENDS=sqlite,postgres` (the default). */
export const BACKENDS = (process.env.BENCH_BACKENDS ?? 'sqlite,postgres')
  .split(',')
  .map((s) => s.trim())
  .filter((s): s is 'sqlite' | 'postgres' => s === 'sqlite' || s === 'postgres');

export type Backend = (typeof BACKENDS)[number];

/** The key every spawned server is started with (ORDERGATE_BOOTSTRAP_KEY): all,admin. */
export const BENCH_KEY = 'bench-key-0123456789abcdef0123456789abcdef';
