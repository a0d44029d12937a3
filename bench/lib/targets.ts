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

/** Server CPU per successful request, in µs: steadier than req/s when other work shares the cores. */
export const cpuPerRequest = (r: Pick<RowData, 'serverCores' | 'reqPerSec'>): number | undefined =>
  r.serverCores === undefined || !r.reqPerSec ? undefined : (r.serverCores * 1e6) / r.reqPerSec;

/** A figure of another backend shown beside a target's, which the target does not judge (`PostgreSQL 0.98`). */
type Beside = (rows: Rows) => string | undefined;

/** A figure that was not measured (no successful answer: NaN, stored as null) counts as absent. */
const finite = (v: number | null | undefined): number | undefined => (v === null || v === undefined || !Number.isFinite(v) ? undefined : v);

const ok = (rows: Rows, key: string): RowData | undefined => {
  const r = rows.get(key);
  return r?.status === 'ok' ? r : undefined;
};

const withBeside = (display: string, rows: Rows, beside?: Beside): string => {
  const other = beside?.(rows);
  return other ? `${display}; ${other}` : display;
};

function atLeast(id: string, label: string, goal: number, pick: (rows: Rows) => number | undefined, fmt: (v: number) => string, beside?: Beside) {
  return (rows: Rows): TargetResult => {
    const value = finite(pick(rows));
    const pass = value === undefined ? undefined : value >= goal;
    const gap = pass === false ? (value! > 0 ? `needs ×${(goal / value!).toFixed(1)}` : 'nothing measured') : undefined;
    const display = withBeside(value === undefined ? 'not measured' : fmt(value), rows, beside);
    return { id, label, goal: `≥ ${fmt(goal)}`, value, display, pass, ...(gap ? { gap } : {}) };
  };
}

function atMost(id: string, label: string, goal: number, pick: (rows: Rows) => { value: number; where: string } | undefined, fmt: (v: number) => string, beside?: Beside) {
  return (rows: Rows): TargetResult => {
    const hit = pick(rows);
    const pass = hit === undefined ? undefined : hit.value <= goal;
    return {
      id,
      label,
      goal: `≤ ${fmt(goal)}`,
      value: hit?.value,
      display: withBeside(hit === undefined ? 'not measured' : `${fmt(hit.value)}${hit.where ? ` (${hit.where})` : ''}`, rows, beside),
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
const P99_SCENARIOS = ['search-get', 'search-post', 'search-50', 'cf-read', 'cf-write', 'order-get', 'confirm'];

/** A figure without a goal, as a target shows it for the other backend. */
const single = (v: number | undefined): { value: number; where: string } | undefined => (v === undefined ? undefined : { value: v, where: '' });

const feedExtra = (rows: Rows, backend: string, key: 'ordersPerSec' | 'rssGrowthMb'): number | undefined =>
  finite(ok(rows, `${backend}/orders-feed`)?.extra?.[key]);

/**
 * Server CPU per order lookup by id over that of the customer search by one id, on one backend: as
 * measured in loads taking turns (the order-get scenario), else from the two rows.
 */
function lookupCpuRatio(rows: Rows, backend: string): number | undefined {
  const order = ok(rows, `${backend}/order-get`);
  const alternating = finite(order?.extra?.cpuRatioToSearch);
  if (alternating !== undefined) return alternating;
  const search = ok(rows, `${backend}/search-get`);
  const a = order && cpuPerRequest(order);
  const b = search && cpuPerRequest(search);
  return a === undefined || b === undefined ? undefined : finite(a / b);
}

/** What PostgreSQL measured for a target judged on SQLite (its order feed has fewer orders: say how many). */
const onPostgres = (fmt: (v: number) => string, pick: (rows: Rows) => number | undefined, tableSize = false): Beside => (rows) => {
  const v = pick(rows);
  if (v === undefined) return undefined;
  const size = tableSize ? finite(ok(rows, 'postgres/orders-feed')?.extra?.tableSize) : undefined;
  return `PostgreSQL ${fmt(v)}${size === undefined ? '' : ` (${Math.round(size).toLocaleString('en-US')} orders)`}`;
};

/** Confirmations per second with one webhook endpoint receiving every event, over those without. */
function webhookShare(rows: Rows, backend: string): number | undefined {
  const withHook = ok(rows, `${backend}/confirm-webhook`)?.reqPerSec;
  const without = ok(rows, `${backend}/confirm`)?.reqPerSec;
  return withHook === undefined || !without ? undefined : finite(withHook / without);
}

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
  atMost('sync-rss', 'SQLite sync RSS growth (constant memory)', 100, (r) => single(finite(ok(r, 'sqlite/sync')?.extra?.rssGrowthMb)), mb),
  atMost('sync-lookups', 'SQLite id lookup p99 while a sync streams', 20, (r) => single(finite(ok(r, 'sqlite/sync')?.extra?.lookupP99)), ms),
  atLeast('orders-feed', 'SQLite order feed, orders/s', 100_000, (r) => feedExtra(r, 'sqlite', 'ordersPerSec'), perSec,
    onPostgres(perSec, (r) => feedExtra(r, 'postgres', 'ordersPerSec'), true)),
  atMost('orders-feed-rss', 'SQLite order feed RSS growth', 50, (r) => single(feedExtra(r, 'sqlite', 'rssGrowthMb')), mb,
    onPostgres(mb, (r) => feedExtra(r, 'postgres', 'rssGrowthMb'))),
  atMost('order-get-cpu', 'SQLite order lookup by id CPU / search by id CPU', 1.1, (r) => single(lookupCpuRatio(r, 'sqlite')), ratio,
    onPostgres(ratio, (r) => lookupCpuRatio(r, 'postgres'))),
  atLeast('confirm-webhook', 'SQLite confirmations with a webhook endpoint / without', 0.9, (r) => webhookShare(r, 'sqlite'), ratio,
    onPostgres(ratio, (r) => webhookShare(r, 'postgres'))),
  atLeast('webhook-delivery', 'SQLite webhook delivery to a local receiver, events/s', 1000, (r) => finite(ok(r, 'sqlite/webhook-delivery')?.extra?.eventsPerSec), perSec,
    onPostgres(perSec, (r) => finite(ok(r, 'postgres/webhook-delivery')?.extra?.eventsPerSec))),
  atLeast('pg-search-get', 'PostgreSQL search GET / yardstick', 0.35, (r) => ok(r, 'postgres/search-get')?.ratio, ratio),
  atMost('idle-rss', 'idle RSS per worker', 120, (r) => worst(r, ['sqlite/idle-rss', 'postgres/idle-rss'], (x) => x.extra?.maxWorkerRssMb), mb),
];
