import type { Registry } from 'prom-client';

/** The requests and their latency of one (method, route, status). */
export class RouteTally {
  count = 0;
  sum = 0;
  /** Observations per bucket (not cumulative); one above every bound counts in `count` only (+Inf). */
  readonly perBucket: Float64Array;

  constructor(
    readonly labels: Readonly<{ method: string; route: string; status: number }>,
    private readonly bounds: readonly number[],
  ) {
    this.perBucket = new Float64Array(bounds.length);
  }

  /** One request, answered in `seconds`. */
  observe(seconds: number): void {
    this.count += 1;
    this.sum += seconds;
    const bounds = this.bounds;
    for (let i = 0; i < bounds.length; i++) {
      if (seconds <= bounds[i]!) {
        this.perBucket[i]! += 1;
        return;
      }
    }
  }
}

interface MetricValue {
  readonly value: number;
  readonly labels: Readonly<Record<string, string | number>>;
  readonly metricName?: string;
}

/**
 * The request counter and latency histogram by method, route and status, as prom-client's Counter
 * and Histogram show them (same names, labels, order of series and values), counted without them:
 * prom-client checks and hashes the labels of every observation, twice per request, where a tally
 * found once per (route, status, method) needs two additions. The registry asks for the values when
 * `/metrics` is read; the text and the cluster's aggregation are prom-client's own.
 */
export class RouteMetrics {
  readonly #tallies: RouteTally[] = [];
  readonly #byRoute = new Map<string, Map<number, Map<string, RouteTally>>>();

  constructor(
    registry: Registry,
    names: { readonly requests: string; readonly latency: string },
    help: { readonly requests: string; readonly latency: string },
    private readonly bounds: readonly number[],
  ) {
    const tallies = this.#tallies;
    // The registry needs only what it reads: the name, get() and reset().
    const metric = (name: string, helpText: string, type: 'counter' | 'histogram', values: () => MetricValue[]) => {
      const shown = { name, help: helpText, type, aggregator: 'sum' } as const;
      return { ...shown, get: async () => ({ ...shown, values: values() }), reset: () => this.reset() } as unknown as Parameters<
        Registry['registerMetric']
      >[0];
    };
    registry.registerMetric(
      metric(names.requests, help.requests, 'counter', () => tallies.map((t): MetricValue => ({ value: t.count, labels: t.labels }))),
    );
    registry.registerMetric(
      metric(names.latency, help.latency, 'histogram', () => tallies.flatMap((t) => this.#histogramValues(names.latency, t))),
    );
  }

  /** The tally of one (route, status, method), looked up one level at a time by strings whose hashes V8 keeps. */
  tally(route: string, status: number, method: string): RouteTally {
    let byStatus = this.#byRoute.get(route);
    if (byStatus === undefined) this.#byRoute.set(route, (byStatus = new Map<number, Map<string, RouteTally>>()));
    let byMethod = byStatus.get(status);
    if (byMethod === undefined) byStatus.set(status, (byMethod = new Map<string, RouteTally>()));
    let tally = byMethod.get(method);
    if (tally === undefined) {
      tally = new RouteTally({ method, route, status }, this.bounds);
      byMethod.set(method, tally);
      this.#tallies.push(tally);
    }
    return tally;
  }

  reset(): void {
    this.#tallies.length = 0;
    this.#byRoute.clear();
  }

  /** A histogram's series of one tally, as prom-client writes them: cumulative buckets, +Inf, sum, count. */
  #histogramValues(name: string, t: RouteTally): MetricValue[] {
    const values: MetricValue[] = [];
    let cumulative = 0;
    for (let i = 0; i < this.bounds.length; i++) {
      cumulative += t.perBucket[i]!;
      values.push({ value: cumulative, labels: { le: this.bounds[i]!, ...t.labels }, metricName: `${name}_bucket` });
    }
    values.push(
      { value: t.count, labels: { le: '+Inf', ...t.labels }, metricName: `${name}_bucket` },
      { value: t.sum, labels: { ...t.labels }, metricName: `${name}_sum` },
      { value: t.count, labels: { ...t.labels }, metricName: `${name}_count` },
    );
    return values;
  }
}
