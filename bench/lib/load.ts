import { createHistogram } from 'node:perf_hooks';
import autocannon from 'autocannon';
import { cpuMeter } from './cpu.js';
import { BENCH_KEY, CONNECTIONS, TIMING, type Timing } from './settings.js';

export interface RequestShape {
  readonly method?: 'GET' | 'POST' | 'PUT' | 'PATCH';
  readonly path: string;
  readonly body?: string;
}

export interface LoadSpec {
  readonly url: string;
  /** Prebuilt requests, sent in turn on every connection (the load generator does no work per request). */
  readonly requests?: readonly RequestShape[];
  /** Builds every request anew, for unique ids and bodies; takes precedence over `requests`. */
  readonly next?: () => RequestShape;
  readonly headers?: Record<string, string>;
  readonly connections?: number;
  readonly timing?: Timing;
  /** The serving processes, to measure their CPU during the run. */
  readonly servingPids?: () => readonly number[];
}

export interface LoadResult {
  readonly seconds: number;
  /** 2xx answers per second: only successful work counts. */
  readonly reqPerSec: number;
  readonly ok: number;
  readonly non2xx: number;
  readonly errors: number;
  /** Latency of the 2xx answers in ms, measured with µs resolution. */
  readonly p50: number;
  readonly p99: number;
  readonly statusCodes: Record<string, number>;
  /** Cores kept busy by the server processes and by the load generator (this process). */
  readonly serverCores: number;
  readonly generatorCores: number;
  /**
   * Cores kept busy by every `postgres` process of the machine (on a PostgreSQL run, the database's
   * share of the work); undefined when none is visible.
   */
  readonly databaseCores?: number;
}

export const authHeaders = (key = BENCH_KEY): Record<string, string> => ({ authorization: `Bearer ${key}`, accept: 'application/json' });

function toAutocannon(spec: LoadSpec): autocannon.Request[] {
  const next = spec.next;
  if (next) {
    const first = next();
    return [
      {
        method: first.method ?? 'GET',
        path: first.path,
        body: first.body ?? '',
        setupRequest: (req: autocannon.Request) => {
          const r = next();
          return { ...req, method: r.method ?? 'GET', path: r.path, body: r.body ?? '' };
        },
      },
    ];
  }
  const list = spec.requests ?? [];
  if (list.length === 0) throw new Error('a load needs requests or next()');
  return list.map((r) => ({ method: r.method ?? 'GET', path: r.path, ...(r.body !== undefined ? { body: r.body } : {}) }));
}

function once(spec: LoadSpec, seconds: number): Promise<LoadResult> {
  const latency = createHistogram();
  const statusCodes: Record<string, number> = {};
  let ok = 0;
  let non2xx = 0;
  const headers = { ...authHeaders(), 'content-type': 'application/json', ...spec.headers };
  const requests = toAutocannon(spec);
  return new Promise((resolve, reject) => {
    const meter = cpuMeter(spec.servingPids ?? (() => []));
    const started = performance.now();
    const instance = autocannon(
      { url: spec.url, connections: spec.connections ?? CONNECTIONS, duration: seconds, headers, requests, timeout: 30 },
      (err, result) => {
        if (err) return reject(err as Error);
        const cpu = meter();
        const elapsed = Math.min(seconds, (performance.now() - started) / 1000);
        // No successful answer at all: the latency is unknown, not zero.
        const pct = (p: number): number => (latency.count === 0 ? NaN : latency.percentile(p) / 1000);
        resolve({
          seconds: elapsed,
          reqPerSec: ok / elapsed,
          ok,
          non2xx,
          errors: result.errors + result.timeouts,
          p50: pct(50),
          p99: pct(99),
          statusCodes,
          serverCores: cpu.server,
          generatorCores: cpu.generator,
          ...(cpu.database === undefined ? {} : { databaseCores: cpu.database }),
        });
      },
    );
    instance.on('response', (_client, statusCode, _bytes, responseTime) => {
      statusCodes[statusCode] = (statusCodes[statusCode] ?? 0) + 1;
      if (statusCode >= 200 && statusCode < 300) {
        ok++;
        latency.record(Math.max(1, Math.round(responseTime * 1000)));
      } else {
        non2xx++;
      }
    });
  });
}

/** A warm-up (discarded), then the measured run: 10 connections, 2xx/s and p50/p99 latency. */
export async function load(spec: LoadSpec): Promise<LoadResult> {
  const timing = spec.timing ?? TIMING;
  if (timing.warmupSeconds > 0) await once(spec, timing.warmupSeconds);
  return once(spec, timing.seconds);
}
