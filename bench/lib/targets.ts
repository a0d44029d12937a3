/** One measured row of a run, as stored in BENCHMARKS.md (and read back as "previous"). */
export interface RowData {
  readonly key: string;
  readonly label: string;
  readonly status: 'ok' | 'not available' | 'failed';
  readonly reqPerSec?: number;
  readonly p50?: number;
  readonly p99?: number;
  readonly ratio?: number;
  readonly serverCores?: number;
  readonly generatorCores?: number;
  readonly extra?: Readonly<Record<string, number>>;
  readonly note?: string;
}

export interface TargetResult {
  readonly id: string;
  readonly label: string;
  readonly goal: string;
  /** Undefined when the figure could not be measured in this run. */
  readonly value?: number;
  readonly display: string;
  readonly pass?: boolean;
  /** How far a miss is from the goal, e.g. `×3.8 short` or `×2.1 over`. */
  readonly gap?: string;
}

type Rows = ReadonlyMap<string, RowData>;

/** A figure that was not measured (no successful answer: NaN, stored as null) counts as absent. */
const finite = (v: number | null | undefined): number | undefined => (v === null || v === undefined || !Number.isFinite(v) ? undefined : v);

const ok = (rows: Rows, key: string): RowData | undefined => {
  const r = rows.get(key);
  return r?.status === 'ok' ? r : undefined;
};

function atLeast(id: string, label: string, goal: number, pick: (rows: Rows) => number | undefined, fmt: (v: number) => string) {
  return (rows: Rows): TargetResult => {
    const value = finite(pick(rows));
    const pass = value === undefined ? undefined : value >= goal;
    const gap = pass === false ? (value! > 0 ? `needs ×${(goal / value!).toFixed(1)}` : 'nothing measured') : undefined;
    return { id, label, goal: `≥ ${fmt(goal)}`, value, display: value === undefined ? 'not measured' : fmt(value), pass, ...(gap ? { gap } : {}) };
  };
}

function atMost(id: string, label: string, goal: number, pick: (rows: Rows) => { value: number; where: string } | undefined, fmt: (v: number) => string) {
  return (rows: Rows): TargetResult => {
    const hit = pick(rows);
    const pass = hit === undefined ? undefined : hit.value <= goal;
    return {
      id,
      label,
      goal: `≤ ${fmt(goal)}`,
      value: hit?.value,
      display: hit === undefined ? 'not measured' : `${fmt(hit.value)}${hit.where ? ` (${hit.where})` : ''}`,
      pass,
      ...(pass === false ? { gap: `×${(hit!.value / goal).toFixed(1)} over` } : {}),
    };
  };
}

const ratio = (v: number): string => v.toFixed(2);
const perSec = (v: number): string => `${Math.round(v).toLocaleString('en-US')}/s`;
const ms = (v: number): string => `${v.toFixed(2)} ms`;
const mb = (v: number): string => `${v.toFixed(0)} MB`;

/** Request/response scenarios whose p99 the 5 ms target covers. */
const P99_SCENARIOS = ['search-get', 'search-post', 'search-50', 'cf-read', 'cf-write', 'confirm'];

function worst(rows: Rows, keys: readonly string[], pick: (r: RowData) => number | undefined): { value: number; where: string } | undefined {
  let best: { value: number; where: string } | undefined;
  for (const key of keys) {
    const r = ok(rows, key);
    const v = r ? finite(pick(r)) : undefined;
    if (v !== undefined && (!best || v > best.value)) best = { value: v, where: key };
  }
  return best;
}

/** The targets of the performance issue, evaluated on one run's rows. */
export const TARGETS: ReadonlyArray<(rows: Rows) => TargetResult> = [
  atLeast('search-get', 'SQLite search GET / yardstick', 0.6, (r) => ok(r, 'sqlite/search-get')?.ratio, ratio),
  atLeast('search-post', 'SQLite search POST / yardstick', 0.55, (r) => ok(r, 'sqlite/search-post')?.ratio, ratio),
  atLeast('cf-read', 'SQLite custom fields read / yardstick', 0.55, (r) => ok(r, 'sqlite/cf-read')?.ratio, ratio),
  atLeast('confirm', 'SQLite durable confirmations', 2000, (r) => ok(r, 'sqlite/confirm')?.reqPerSec, perSec),
  atMost('p99', 'SQLite p99 latency, worst scenario', 5, (r) => worst(r, P99_SCENARIOS.map((s) => `sqlite/${s}`), (x) => x.p99), ms),
  atLeast('sync', 'SQLite sync stream, customers/s', 100_000, (r) => ok(r, 'sqlite/sync')?.extra?.customersPerSec, perSec),
  atMost('sync-rss', 'SQLite sync RSS growth (constant memory)', 100, (r) => {
    const v = finite(ok(r, 'sqlite/sync')?.extra?.rssGrowthMb);
    return v === undefined ? undefined : { value: v, where: '' };
  }, mb),
  atMost('sync-lookups', 'SQLite id lookup p99 while a sync streams', 20, (r) => {
    const v = finite(ok(r, 'sqlite/sync')?.extra?.lookupP99);
    return v === undefined ? undefined : { value: v, where: '' };
  }, ms),
  atLeast('pg-search-get', 'PostgreSQL search GET / yardstick', 0.35, (r) => ok(r, 'postgres/search-get')?.ratio, ratio),
  atMost('idle-rss', 'idle RSS per worker', 120, (r) => worst(r, ['sqlite/idle-rss', 'postgres/idle-rss'], (x) => x.extra?.maxWorkerRssMb), mb),
];
