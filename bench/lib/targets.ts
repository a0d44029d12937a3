import { n0 } from './format.js';

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
  /** Cores PostgreSQL's processes kept busy (PostgreSQL rows only; absent in runs before it was measured). */
  readonly databaseCores?: number;
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

/** A target judged on one run's rows and the yardstick's server CPU per request (not a row). */
export type Target = (rows: Rows, yardstickCpuUs: number | undefined) => TargetResult;

/** The framework floor (`GET /health/live`), measured on SQLite only: the floor of both backends. */
export const FLOOR_KEY = 'sqlite/floor';

/** The row of a scenario measured on the limit server (bench/limit-server.ts): `sqlite/search-get@limit`. */
export const LIMIT_SUFFIX = '@limit';

/** Server CPU per successful request, in µs: steadier than req/s when other work shares the cores. */
export const cpuPerRequest = (r: Pick<RowData, 'serverCores' | 'reqPerSec'>): number | undefined =>
  r.serverCores === undefined || !r.reqPerSec ? undefined : (r.serverCores * 1e6) / r.reqPerSec;

/** PostgreSQL's own CPU per successful request, in µs (the database work the server's figure leaves out). */
export const databaseCpuPerRequest = (r: Pick<RowData, 'databaseCores' | 'reqPerSec'>): number | undefined =>
  r.databaseCores === undefined || !r.reqPerSec ? undefined : (r.databaseCores * 1e6) / r.reqPerSec;

/** A figure that was not measured (no successful answer: NaN, stored as null) counts as absent. */
const finite = (v: number | null | undefined): number | undefined => (v === null || v === undefined || !Number.isFinite(v) ? undefined : v);

/** a / b when both were measured. */
export const over = (a: number | undefined, b: number | undefined): number | undefined =>
  a === undefined || b === undefined || b === 0 ? undefined : finite(a / b);

/** A figure with where it comes from (`sqlite/search-50`, `50 / 16 µs`; '' when that goes without saying). */
interface Hit {
  readonly value: number;
  readonly where: string;
}

/** A figure of another backend shown beside a target's, which the target does not judge (`PostgreSQL 0.98`). */
type Beside = (rows: Rows) => string | undefined;

const ok = (rows: Rows, key: string): RowData | undefined => {
  const r = rows.get(key);
  return r?.status === 'ok' ? r : undefined;
};

const cpuOf = (rows: Rows, key: string): number | undefined => {
  const r = ok(rows, key);
  return r && finite(cpuPerRequest(r));
};

const withBeside = (display: string, rows: Rows, beside?: Beside): string => {
  const other = beside?.(rows);
  return other ? `${display}; ${other}` : display;
};

function atLeast(
  id: string,
  label: string,
  goal: number,
  pick: (rows: Rows) => number | undefined,
  fmt: (v: number) => string,
  beside?: Beside,
): Target {
  return (rows) => {
    const value = finite(pick(rows));
    const pass = value === undefined ? undefined : value >= goal;
    const gap = pass === false ? (value! > 0 ? `needs ×${(goal / value!).toFixed(1)}` : 'nothing measured') : undefined;
    const display = withBeside(value === undefined ? 'not measured' : fmt(value), rows, beside);
    return { id, label, goal: `≥ ${fmt(goal)}`, value, display, pass, ...(gap ? { gap } : {}) };
  };
}

function atMost(
  id: string,
  label: string,
  goal: number,
  pick: (rows: Rows, yardstickCpuUs: number | undefined) => Hit | undefined,
  fmt: (v: number) => string,
  beside?: Beside,
): Target {
  return (rows, yardstickCpuUs) => {
    const hit = pick(rows, yardstickCpuUs);
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

/** The read scenarios whose p99 the 5 ms target covers (the writes wait for the disk). */
const READ_SCENARIOS = ['search-get', 'search-post', 'search-50', 'cf-read', 'order-get'];

/** The reads whose server CPU per request PostgreSQL must keep within ×2 of SQLite's. */
const PG_COMPARED = ['search-get', 'search-post', 'cf-read', 'search-50'];

/** A figure without a goal, as a target shows it for the other backend. */
const single = (v: number | undefined): Hit | undefined => (v === undefined ? undefined : { value: v, where: '' });

/** The ratio of two CPU figures per request, showing both (`3.10 (50 / 16 µs)`). */
function cpuRatio(us: number | undefined, base: number | undefined): Hit | undefined {
  const v = over(us, base);
  return v === undefined ? undefined : { value: v, where: `${n0(us)} / ${n0(base)} µs` };
}

/**
 * The floor's server CPU per request over the yardstick's: as measured in loads taking turns (the
 * floor row's `cpuRatioToYardstick`), else from the floor row and the yardstick's runs at the start
 * and end of the run.
 */
function floorOverYardstick(rows: Rows, yardstickUs: number | undefined): Hit | undefined {
  const floorUs = cpuOf(rows, FLOOR_KEY);
  const turns = finite(ok(rows, FLOOR_KEY)?.extra?.cpuRatioToYardstick);
  if (turns === undefined) return cpuRatio(floorUs, yardstickUs);
  return { value: turns, where: `loads taking turns; rows ${n0(floorUs)} / ${n0(yardstickUs)} µs` };
}

/** A SQLite scenario's server CPU per request over the floor's. */
const overFloor =
  (scenario: string) =>
  (rows: Rows): Hit | undefined =>
    cpuRatio(cpuOf(rows, `sqlite/${scenario}`), cpuOf(rows, FLOOR_KEY));

/**
 * A read's server CPU per request over the limit server's for the same requests: as measured in
 * loads taking turns (the run's `cpuRatioToLimit`), else from the two rows.
 */
export function limitCpuRatio(row: RowData | undefined, limitRow: RowData | undefined): number | undefined {
  if (row?.status !== 'ok' || limitRow?.status !== 'ok') return undefined;
  return finite(row.extra?.cpuRatioToLimit) ?? over(cpuPerRequest(row), cpuPerRequest(limitRow));
}

/** A read against the limit server, showing both rows' CPU per request. */
const overLimit =
  (key: string) =>
  (rows: Rows): Hit | undefined => {
    const v = limitCpuRatio(rows.get(key), rows.get(`${key}${LIMIT_SUFFIX}`));
    return v === undefined ? undefined : { value: v, where: `${n0(cpuOf(rows, key))} / ${n0(cpuOf(rows, `${key}${LIMIT_SUFFIX}`))} µs` };
  };

/** PostgreSQL's own CPU per request of a PostgreSQL row over that of the same scenario on the limit server. */
function databaseOverLimit(rows: Rows, key: string): Hit | undefined {
  const us = (k: string): number | undefined => {
    const r = ok(rows, k);
    return r && finite(databaseCpuPerRequest(r));
  };
  return cpuRatio(us(key), us(`${key}${LIMIT_SUFFIX}`));
}

/** The largest figure of several, with the one it came from. */
function worst(items: readonly string[], figure: (item: string) => number | undefined): Hit | undefined {
  let top: Hit | undefined;
  for (const item of items) {
    const v = finite(figure(item));
    if (v !== undefined && (!top || v > top.value)) top = { value: v, where: item };
  }
  return top;
}

const worstRow = (rows: Rows, keys: readonly string[], pick: (r: RowData) => number | undefined): Hit | undefined =>
  worst(keys, (key) => {
    const r = ok(rows, key);
    return r && pick(r);
  });

/** PostgreSQL's server CPU per request over SQLite's, for the compared reads: the worst one. */
const pgOverSqlite = (rows: Rows): Hit | undefined =>
  worst(PG_COMPARED, (s) => over(cpuOf(rows, `postgres/${s}`), cpuOf(rows, `sqlite/${s}`)));

/** Beside the worst read on PostgreSQL: what PostgreSQL's own processes spent per request of it. */
const pgOwnCpu: Beside = (rows) => {
  const scenario = pgOverSqlite(rows)?.where;
  const r = scenario === undefined ? undefined : ok(rows, `postgres/${scenario}`);
  const us = r && finite(databaseCpuPerRequest(r));
  return us === undefined ? undefined : `PostgreSQL itself ${n0(us)} µs/req`;
};

const rate = (rows: Rows, key: string): number | undefined => ok(rows, key)?.reqPerSec;

const worstReadP99 = (rows: Rows): Hit | undefined =>
  worstRow(
    rows,
    READ_SCENARIOS.map((s) => `sqlite/${s}`),
    (x) => x.p99,
  );

/** Beside the worst read's p99: the limit server's for the same read, queued behind the same 10 connections. */
const limitP99: Beside = (rows) => {
  const worstKey = worstReadP99(rows)?.where;
  const p99 = worstKey === undefined ? undefined : ok(rows, `${worstKey}${LIMIT_SUFFIX}`)?.p99;
  return p99 === undefined ? undefined : `the limit server's ${p99.toFixed(2)} ms`;
};

const IDLE_ROWS = ['sqlite/idle-rss', 'postgres/idle-rss'];

const feedExtra = (rows: Rows, backend: string, key: 'ordersPerSec' | 'rssGrowthMb'): number | undefined =>
  finite(ok(rows, `${backend}/orders-feed`)?.extra?.[key]);

/**
 * Server CPU per order lookup by id over that of the customer search by one id, on one backend: as
 * measured in loads taking turns (the order-get scenario), else from the two rows.
 */
function lookupCpuRatio(rows: Rows, backend: string): number | undefined {
  const alternating = finite(ok(rows, `${backend}/order-get`)?.extra?.cpuRatioToSearch);
  return alternating ?? over(cpuOf(rows, `${backend}/order-get`), cpuOf(rows, `${backend}/search-get`));
}

/** What PostgreSQL measured for a target judged on SQLite (its order feed has fewer orders: say how many). */
const onPostgres =
  (fmt: (v: number) => string, pick: (rows: Rows) => number | undefined, tableSize = false): Beside =>
  (rows) => {
    const v = pick(rows);
    if (v === undefined) return undefined;
    const size = tableSize ? finite(ok(rows, 'postgres/orders-feed')?.extra?.tableSize) : undefined;
    return `PostgreSQL ${fmt(v)}${size === undefined ? '' : ` (${Math.round(size).toLocaleString('en-US')} orders)`}`;
  };

/** Confirmations per second with one webhook endpoint receiving every event, over those without. */
const webhookShare = (rows: Rows, backend: string): number | undefined =>
  over(rate(rows, `${backend}/confirm-webhook`), rate(rows, `${backend}/confirm`));

/** The targets of the performance issue, evaluated on one run's rows. "CPU" is server CPU per request. */
export const TARGETS: readonly Target[] = [
  atMost('floor', 'floor CPU / yardstick CPU', 1.25, floorOverYardstick, ratio),
  atMost('search-get', 'SQLite search GET CPU / floor CPU', 1.4, overFloor('search-get'), ratio),
  atMost('search-post', 'SQLite search POST CPU / floor CPU', 1.5, overFloor('search-post'), ratio),
  atMost('cf-read', 'SQLite custom fields read CPU / floor CPU', 1.6, overFloor('cf-read'), ratio),
  atMost('search-50', 'SQLite search by 50 ids CPU / floor CPU', 4, overFloor('search-50'), ratio),
  atMost('search-get-limit', 'SQLite search by id CPU / limit server CPU', 1.5, overLimit('sqlite/search-get'), ratio),
  atMost('cf-read-limit', 'SQLite custom fields read CPU / limit server CPU', 1.6, overLimit('sqlite/cf-read'), ratio),
  atMost('order-get-limit', 'SQLite order by id CPU / limit server CPU', 1.5, overLimit('sqlite/order-get'), ratio),
  atMost('search-50-limit', 'SQLite search by 50 ids CPU / limit server CPU', 1.5, overLimit('sqlite/search-50'), ratio),
  atMost('pg-search-limit', 'PostgreSQL search by id server CPU / pg limit server CPU', 1.5, overLimit('postgres/search-get'), ratio),
  atMost(
    'pg-search-db-limit',
    "PostgreSQL's own CPU per search by id / the pg limit server's",
    1.2,
    (r) => databaseOverLimit(r, 'postgres/search-get'),
    ratio,
  ),
  atMost('pg-vs-sqlite', 'PostgreSQL CPU / SQLite CPU, worst of 4 reads', 2, pgOverSqlite, ratio, pgOwnCpu),
  atLeast('confirm', 'SQLite durable confirmations', 4000, (r) => rate(r, 'sqlite/confirm'), perSec),
  atLeast('cf-write', 'SQLite custom field writes', 3000, (r) => rate(r, 'sqlite/cf-write'), perSec),
  atLeast('pg-confirm', 'PostgreSQL durable confirmations', 2000, (r) => rate(r, 'postgres/confirm'), perSec),
  atLeast('pg-cf-write', 'PostgreSQL custom field writes', 1500, (r) => rate(r, 'postgres/cf-write'), perSec),
  atMost('p99', 'SQLite p99 latency, worst read', 5, worstReadP99, ms, limitP99),
  atMost('rss', 'RSS per worker after the load', 100, (r) => worstRow(r, IDLE_ROWS, (x) => x.extra?.maxWorkerRssMb), mb),
  atMost('rss-start', 'RSS per worker after start', 80, (r) => worstRow(r, IDLE_ROWS, (x) => x.extra?.afterStartMb), mb),
  atLeast('sync', 'SQLite sync stream, customers/s', 200_000, (r) => ok(r, 'sqlite/sync')?.extra?.customersPerSec, perSec),
  atMost('sync-rss', 'SQLite sync RSS growth (constant memory)', 100, (r) => single(finite(ok(r, 'sqlite/sync')?.extra?.rssGrowthMb)), mb),
  atMost(
    'sync-lookups',
    'SQLite id lookup p99 while a sync streams',
    20,
    (r) => single(finite(ok(r, 'sqlite/sync')?.extra?.lookupP99)),
    ms,
  ),
  atLeast(
    'orders-feed',
    'SQLite order feed, orders/s',
    100_000,
    (r) => feedExtra(r, 'sqlite', 'ordersPerSec'),
    perSec,
    onPostgres(perSec, (r) => feedExtra(r, 'postgres', 'ordersPerSec'), true),
  ),
  atMost(
    'orders-feed-rss',
    'SQLite order feed RSS growth',
    50,
    (r) => single(feedExtra(r, 'sqlite', 'rssGrowthMb')),
    mb,
    onPostgres(mb, (r) => feedExtra(r, 'postgres', 'rssGrowthMb')),
  ),
  atMost(
    'order-get-cpu',
    'SQLite order lookup by id CPU / search by id CPU',
    1.1,
    (r) => single(lookupCpuRatio(r, 'sqlite')),
    ratio,
    onPostgres(ratio, (r) => lookupCpuRatio(r, 'postgres')),
  ),
  atLeast(
    'confirm-webhook',
    'SQLite confirmations with a webhook endpoint / without',
    0.9,
    (r) => webhookShare(r, 'sqlite'),
    ratio,
    onPostgres(ratio, (r) => webhookShare(r, 'postgres')),
  ),
  atLeast(
    'webhook-delivery',
    'SQLite webhook delivery to a local receiver, events/s',
    1000,
    (r) => finite(ok(r, 'sqlite/webhook-delivery')?.extra?.eventsPerSec),
    perSec,
    onPostgres(perSec, (r) => finite(ok(r, 'postgres/webhook-delivery')?.extra?.eventsPerSec)),
  ),
  atLeast('create-lines', 'SQLite durable order creations with 5 lines', 3000, (r) => rate(r, 'sqlite/order-create-lines'), perSec),
  atLeast(
    'pg-create-lines',
    'PostgreSQL durable order creations with 5 lines',
    1500,
    (r) => rate(r, 'postgres/order-create-lines'),
    perSec,
  ),
  atMost(
    'order-get-lines-cpu',
    'SQLite order by id with 5 lines CPU / without lines CPU',
    1.3,
    (r) => single(finite(ok(r, 'sqlite/order-get-lines')?.extra?.cpuRatioToNoLines)),
    ratio,
    onPostgres(ratio, (r) => finite(ok(r, 'postgres/order-get-lines')?.extra?.cpuRatioToNoLines)),
  ),
  atLeast(
    'orders-feed-lines',
    'SQLite order feed with 5 lines per order, orders/s',
    100_000,
    (r) => finite(ok(r, 'sqlite/orders-feed-lines')?.extra?.ordersPerSec),
    perSec,
    onPostgres(perSec, (r) => finite(ok(r, 'postgres/orders-feed-lines')?.extra?.ordersPerSec)),
  ),
  atMost(
    'orders-feed-lines-rss',
    'SQLite order feed with 5 lines per order, RSS growth',
    50,
    (r) => single(finite(ok(r, 'sqlite/orders-feed-lines')?.extra?.rssGrowthMb)),
    mb,
    onPostgres(mb, (r) => finite(ok(r, 'postgres/orders-feed-lines')?.extra?.rssGrowthMb)),
  ),
  ...orderLifeTargets(),
];

/** The order's life after the confirmation: the records posted back and the feed filtered by status. */
function orderLifeTargets(): Target[] {
  const unfulfilled = (r: Rows, backend: string, key: 'ordersPerSec' | 'rssGrowthMb'): number | undefined =>
    finite(ok(r, `${backend}/orders-feed-unfulfilled`)?.extra?.[key]);
  return [
    atLeast('shipment', 'SQLite durable shipments', 3000, (r) => rate(r, 'sqlite/shipment'), perSec),
    atLeast('pg-shipment', 'PostgreSQL durable shipments', 1500, (r) => rate(r, 'postgres/shipment'), perSec),
    atLeast('payment', 'SQLite durable payments', 3000, (r) => rate(r, 'sqlite/payment'), perSec),
    atLeast('pg-payment', 'PostgreSQL durable payments', 1500, (r) => rate(r, 'postgres/payment'), perSec),
    atLeast(
      'orders-feed-unfulfilled',
      'SQLite order feed FulfillmentStatuses=Unfulfilled, orders/s',
      100_000,
      (r) => unfulfilled(r, 'sqlite', 'ordersPerSec'),
      perSec,
      onPostgres(perSec, (r) => unfulfilled(r, 'postgres', 'ordersPerSec')),
    ),
    atMost(
      'orders-feed-unfulfilled-rss',
      'SQLite order feed FulfillmentStatuses=Unfulfilled RSS growth',
      50,
      (r) => single(unfulfilled(r, 'sqlite', 'rssGrowthMb')),
      mb,
      onPostgres(mb, (r) => unfulfilled(r, 'postgres', 'rssGrowthMb')),
    ),
  ];
}
