import { n0, n2 } from './format.js';
import { blockData, dataComment, readBlock, writeBlock } from './blocks.js';
import type { Machine } from './machine.js';
import { memoryBudgetTable } from './memory-budget-report.js';
import { measuredObstacle, OBSTACLES } from './obstacles.js';
import {
  cpuPerRequest,
  databaseCpuPerRequest,
  FLOOR_KEY,
  LIMIT_SUFFIX,
  limitCpuRatio,
  over,
  TARGETS,
  type RowData,
  type TargetResult,
} from './targets.js';

export { cpuPerRequest };

export interface RunData {
  readonly date: string;
  readonly command: string;
  readonly machine: Machine;
  readonly customers: number;
  readonly seconds: number;
  readonly yardstick: {
    readonly reqPerSec: number;
    readonly p50: number;
    readonly p99: number;
    readonly runs: readonly number[];
    readonly cpuUsPerRequest?: number;
  };
  readonly rows: readonly RowData[];
  readonly targets: readonly TargetResult[];
  readonly seeding: Readonly<Record<string, number>>;
  /** Orders seeded per backend (absent in runs before the order scenarios). */
  readonly orders?: Readonly<Record<string, OrderSet>>;
}

export interface OrderSet {
  readonly orders: number;
  readonly confirmed: number;
}

/** `1,000,000 orders on sqlite (600,000 confirmed), …` */
function orderSets(run: RunData): string {
  const sets = Object.entries(run.orders ?? {}).filter(([, o]) => o.orders > 0);
  if (sets.length === 0) return '';
  return `, ${sets.map(([backend, o]) => `${n0(o.orders)} orders on ${backend === 'sqlite' ? 'SQLite' : 'PostgreSQL'} (${n0(o.confirmed)} confirmed)`).join(', ')}`;
}

const BLOCK = 'bench';

/** The targets on one run's rows; the yardstick is not a row, so its CPU per request comes apart. */
export function evaluateTargets(rows: readonly RowData[], yardstickCpuUs: number | undefined): TargetResult[] {
  const byKey = new Map(rows.map((r) => [r.key, r]));
  return TARGETS.map((t) => t(byKey, yardstickCpuUs));
}

/** The previous run stored in BENCHMARKS.md (machine-readable, in an HTML comment), if any. */
export function readPrevious(file: string): RunData | undefined {
  return blockData<RunData>(readBlock(file, BLOCK));
}

const verdict = (t: TargetResult): string =>
  t.pass === undefined ? 'not measured' : t.pass ? 'pass' : `MISS${t.gap ? ` (${t.gap})` : ''}`;

function extraText(r: RowData): string {
  const e = r.extra ?? {};
  const parts: string[] = [];
  if (e.customersPerSec !== undefined)
    parts.push(`${n0(e.customersPerSec)} customers/s over ${e.streams} full syncs of ${n0(e.tableSize)}`);
  if (e.ordersPerSec !== undefined) {
    parts.push(
      `${n0(e.ordersPerSec)} orders/s over ${e.streams} full feeds of ${n0(e.tableSize)} orders (${n0((e.confirmedShare ?? 0) * 100)} % confirmed), ` +
        `server ${n2(e.cpuUsPerOrder)} µs CPU/order on ${n2(e.serverCores)} cores (the reader ${n2(e.generatorCores)})`,
    );
  }
  if (e.rssGrowthMb !== undefined)
    parts.push(
      `RSS +${n0(e.rssGrowthMb)} MB${e.rssGrowthWithLookupsMb === undefined ? '' : ` (+${n0(e.rssGrowthWithLookupsMb)} MB with lookups)`}`,
    );
  if (e.lookupP99 !== undefined) parts.push(`id lookups during sync p50 ${n2(e.lookupP50)} / p99 ${n2(e.lookupP99)} ms`);
  if (e.eventsPerSec !== undefined)
    parts.push(
      `${n0(e.eventsPerSec)} events/s: ${n0(e.events)} order.confirmed events replayed by id to one endpoint, until the receiver had each`,
    );
  if (e.delivered !== undefined)
    parts.push(
      `${n0(e.delivered)} events delivered to the endpoint during the load, ${n0(e.afterLoad)} more after it (${e.backlogSeconds === undefined ? 'not all within 120 s' : `all within ${n2(e.backlogSeconds)} s`})`,
    );
  if (e.cpuRatioToLimit !== undefined)
    parts.push(`server CPU per request ×${n2(e.cpuRatioToLimit)} of the limit server's (loads taking turns)`);
  if (e.cpuRatioToYardstick !== undefined)
    parts.push(`server CPU per request ×${n2(e.cpuRatioToYardstick)} of the yardstick's (loads taking turns)`);
  if (e.cpuRatioToSearch !== undefined)
    parts.push(`server CPU per request ×${n2(e.cpuRatioToSearch)} of the search by id's (loads taking turns)`);
  if (e.cpuRatioToNoLines !== undefined)
    parts.push(`server CPU per request ×${n2(e.cpuRatioToNoLines)} of the same read of orders without lines (loads taking turns)`);
  if (e.seedingSeconds !== undefined) parts.push(`its own data set, seeded in ${n0(e.seedingSeconds)} s`);
  if (e.maxWorkerRssMb !== undefined)
    parts.push(`after start ${n0(e.afterStartMb)} MB, after the load ${n0(e.maxWorkerRssMb)} MB per worker`);
  return parts.join('; ');
}

/**
 * Yardstick CPU per request over the scenario's: the ratio the two would reach if each had a core
 * to itself. It moves far less than the req/s ratio when other work shares the machine.
 */
const cpuRatio = (yardstickUs: number | undefined, r: RowData): number | undefined => {
  const us = cpuPerRequest(r);
  return yardstickUs === undefined || us === undefined ? undefined : yardstickUs / us;
};

/** A figure that only some rows have: an empty cell for the others. */
const orEmpty = (v: number | undefined, fmt: (v: number) => string): string => (v === undefined ? '' : fmt(v));

/** The floor's server CPU per request in this run, which "× floor" divides by. */
function floorCpu(run: RunData): number | undefined {
  const floor = run.rows.find((r) => r.key === FLOOR_KEY && r.status === 'ok');
  return floor && cpuPerRequest(floor);
}

/** A row's CPU per request over its limit server row's: the server's, and PostgreSQL's own on PostgreSQL rows. */
function timesLimit(r: RowData, byKey: ReadonlyMap<string, RowData>): { server: string; database: string } {
  const l = byKey.get(`${r.key}${LIMIT_SUFFIX}`);
  if (!l || l.status !== 'ok' || r.status !== 'ok') return { server: '', database: '' };
  return {
    server: orEmpty(limitCpuRatio(r, l), n2),
    database: orEmpty(over(databaseCpuPerRequest(r), databaseCpuPerRequest(l)), n2),
  };
}

function scenarioTable(run: RunData, previous: RunData | undefined): string {
  const prev = new Map((previous?.rows ?? []).map((r) => [r.key, r]));
  const byKey = new Map(run.rows.map((r) => [r.key, r]));
  const y = run.yardstick;
  const floor = floorCpu(run);
  const timesFloor = (us: number | undefined): string => orEmpty(over(us, floor), n2);
  const lines = [
    '| backend/scenario | what | req/s | p50 ms | p99 ms | ratio | server CPU µs/req | × floor | × limit | PostgreSQL CPU µs/req | PostgreSQL CPU × limit | ratio by CPU | server / generator cores | previous req/s | previous ratio | previous µs/req | notes |',
    '| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |',
    `| yardstick | bare node:http, one customer | ${n0(y.reqPerSec)} | ${n2(y.p50)} | ${n2(y.p99)} | 1.00 | ${n0(y.cpuUsPerRequest)} | ${timesFloor(y.cpuUsPerRequest)} | | | | 1.00 | | ${n0(previous?.yardstick.reqPerSec)} | | ${n0(previous?.yardstick.cpuUsPerRequest)} | runs: ${y.runs.map(n0).join(', ')} |`,
  ];
  for (const r of run.rows) {
    const p = prev.get(r.key);
    const us = cpuPerRequest(r);
    const cores = r.serverCores === undefined ? '' : `${n2(r.serverCores)} / ${n2(r.generatorCores)}`;
    const notes = [r.status === 'ok' ? '' : r.status, extraText(r), r.note ?? ''].filter(Boolean).join('; ');
    const limit = timesLimit(r, byKey);
    lines.push(
      `| ${r.key} | ${r.label} | ${n0(r.reqPerSec)} | ${n2(r.p50)} | ${n2(r.p99)} | ${n2(r.ratio)} | ${n0(us)} | ${timesFloor(us)} | ${limit.server} | ${orEmpty(databaseCpuPerRequest(r), n0)} | ${limit.database} | ${n2(cpuRatio(y.cpuUsPerRequest, r))} | ${cores} | ${n0(p?.reqPerSec)} | ${n2(p?.ratio)} | ${n0(p && cpuPerRequest(p))} | ${notes} |`,
    );
  }
  return lines.join('\n');
}

/**
 * The previous run's figure of a target, '–' when it lacks the id or used it for another comparison
 * (its label differs); a goal changed since is named, as the verdict was against it.
 */
function previousCell(t: TargetResult, p: TargetResult | undefined): string {
  if (!p || p.label !== t.label) return '–';
  const was = p.pass === undefined ? 'not measured' : p.pass ? 'pass' : 'miss';
  return `${p.display}, ${was}${p.goal === t.goal ? '' : ` against ${p.goal}`}`;
}

function targetTable(run: RunData, previous: RunData | undefined): string {
  const prev = new Map((previous?.targets ?? []).map((t) => [t.id, t]));
  const lines = ['| target | goal | this run | result | previous run |', '| --- | --- | --- | --- | --- |'];
  for (const t of run.targets) lines.push(`| ${t.label} | ${t.goal} | ${t.display} | ${verdict(t)} | ${previousCell(t, prev.get(t.id))} |`);
  return lines.join('\n');
}

/** For each missed target, what the profiles say stands in the way. */
function obstacles(run: RunData): string {
  const missed = run.targets.filter((t) => t.pass === false && OBSTACLES[t.id]);
  if (missed.length === 0) return 'No measured target was missed.';
  const text = (id: string): string => [OBSTACLES[id], measuredObstacle(id, run.rows)].filter(Boolean).join(' ');
  return [
    'What stands in the way (from the profiles; details in docs/performance.md):',
    '',
    ...missed.map((t) => `- **${t.label}**: ${text(t.id)}`),
  ].join('\n');
}

const BUDGET_INTRO =
  "Each idle-rss worker's RSS split by what holds it, 1 s after start and 15 s after the whole load: the mappings of " +
  "`/proc/<pid>/smaps` classified by file and shape (bench/lib/memory-budget.ts), and V8's own figures for the main isolate from `/metrics`.";

/** The memory budget section, or a line saying the run has none. */
function budgetSection(run: RunData): string {
  const table = memoryBudgetTable(run.rows);
  return table ? `${BUDGET_INTRO}\n\n${table}` : 'No memory budget was measured in this run.';
}

/** The console summary of a run. */
export function printSummary(run: RunData, previous: RunData | undefined): void {
  const budget = memoryBudgetTable(run.rows);
  process.stdout.write(
    `\n${targetTable(run, previous)}\n\n${scenarioTable(run, previous)}\n${budget ? `\nMemory budget per worker:\n\n${budget}\n` : ''}`,
  );
}

/** BENCHMARKS.md: machine, command, targets, every figure, and the previous run beside this one. */
export function writeBenchmarks(file: string, run: RunData, previous: RunData | undefined, context: string): void {
  const m = run.machine;
  const body = `Run \`${run.command}\` on ${run.date.slice(0, 10)}: ${run.customers.toLocaleString('en-US')} seeded customers per backend${orderSets(run)}; 10 connections,
${run.seconds} s measured per scenario after a warm-up. Servers run as separate processes
(\`node bin/ordergate.js serve\`, \`LOG_LEVEL=warn\`, \`RATE_LIMIT_PER_SECOND=0\`); the load generator
(autocannon) runs in the benchmark process on the same cores. Ratios are against the bare \`node:http\`
yardstick of the same run; "ratio by CPU" compares server CPU per request instead, which other work
on the machine moves much less. "× floor" is a row's server CPU per request over the framework
floor's (\`${FLOOR_KEY}\`, the floor of both backends); "PostgreSQL CPU" is what every \`postgres\`
process on the machine spent per request during a PostgreSQL load. "× limit" is a read's CPU per request
over the limit server's for the same requests on the same database (the \`${LIMIT_SUFFIX}\` rows,
\`bench/limit-server.ts\`: plain \`node:http\`, the driver, one prepared statement, JSON as text): the
server's from loads of the two taking turns, and on PostgreSQL PostgreSQL's own from the two rows. The floor's target
is judged the same way: the floor and the yardstick in loads taking turns. How the suite works and what
the profiles say: docs/performance.md.

Machine: ${m.cores} cores (${m.cpuModel}), ${m.memoryGb} GB memory, Node ${m.node}, Linux ${m.kernel}.
Load average (1 min): ${n2(m.loadAtStart)} at the start, ${n2(m.loadAtEnd)} at the end.
${context}

## Targets

${targetTable(run, previous)}

${obstacles(run)}

## Every scenario

${scenarioTable(run, previous)}

${previous ? `"previous" is the run of ${previous.date.slice(0, 16).replace('T', ' ')} UTC (load average ${n2(previous.machine.loadAtStart)} at its start).` : 'No previous run was recorded.'}
Seeding: ${Object.entries(run.seeding)
    .map(([k, v]) => `${k} ${n0(v)}/s`)
    .join(', ')}.

## Memory budget per worker

${budgetSection(run)}

${dataComment(run)}`;
  // Only this section is rewritten: those of bench:scale, bench:scale-out and soak stay as they were.
  writeBlock(file, BLOCK, body);
}
