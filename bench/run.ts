import { join } from 'node:path';
import { alternatingCpuRatio } from './lib/alternating.js';
import { createDatabase, seedBenchData } from './lib/database.js';
import { load, type LoadResult } from './lib/load.js';
import { n0, n2 } from './lib/format.js';
import { currentLoad, describeMachine } from './lib/machine.js';
import { readMainHeap } from './lib/main-heap.js';
import { budgetExtra, readMemoryBudget, type MemoryBudget } from './lib/memory-budget.js';
import { budgetLine } from './lib/memory-budget-report.js';
import { startLimitServer, startService, startYardstick, YARDSTICK_REQUESTS, type ServerProcess } from './lib/processes.js';
import { cpuPerRequest, evaluateTargets, printSummary, readPrevious, writeBenchmarks, type OrderSet, type RunData } from './lib/report.js';
import { BACKENDS, CUSTOMERS, QUICK, ROOT, SCENARIO_FILTER, TIMING, type Backend } from './lib/settings.js';
import { databaseCpuPerRequest, LIMIT_SUFFIX, type RowData } from './lib/targets.js';
import { selectedScenarios } from './scenarios/all.js';
import { searchGet } from './scenarios/customers.js';
import type { Scenario, ScenarioContext, ScenarioResult } from './scenarios/scenario.js';

const BENCHMARKS_FILE = join(ROOT, 'BENCHMARKS.md');

const log = (line: string): void => void process.stdout.write(`${line}\n`);

async function yardstick(): Promise<LoadResult> {
  const server = await startYardstick();
  try {
    const result = await load({ url: server.url, requests: YARDSTICK_REQUESTS, servingPids: server.servingPids });
    log(
      `yardstick: ${n0(result.reqPerSec)} req/s, p50 ${n2(result.p50)} ms, p99 ${n2(result.p99)} ms, server ${n0((result.serverCores * 1e6) / result.reqPerSec)} µs CPU/req`,
    );
    return result;
  } finally {
    await server.stop();
  }
}

/** PostgreSQL's CPU, kept for PostgreSQL rows only: on SQLite runs it is other work on the machine. */
const databaseCores = (backend: Backend, l: LoadResult): Pick<RowData, 'databaseCores'> =>
  backend === 'postgres' && l.databaseCores !== undefined ? { databaseCores: l.databaseCores } : {};

function toRow(backend: Backend, id: string, label: string, r: ScenarioResult, yardstickRps: number): RowData {
  const l = r.load;
  return {
    key: `${backend}/${id}`,
    label,
    status: r.status,
    ...(l
      ? {
          reqPerSec: l.reqPerSec,
          p50: l.p50,
          p99: l.p99,
          ratio: l.reqPerSec / yardstickRps,
          serverCores: l.serverCores,
          generatorCores: l.generatorCores,
          ...databaseCores(backend, l),
        }
      : {}),
    ...(r.extra ? { extra: r.extra } : {}),
    ...(r.note ? { note: r.note } : {}),
  };
}

async function runScenario(s: Scenario, ctx: ScenarioContext): Promise<ScenarioResult> {
  try {
    return await s.run(ctx);
  } catch (err) {
    return { status: 'failed', note: err instanceof Error ? err.message : String(err) };
  }
}

/** The rate and memory of a streamed scenario (customer sync, order feed), or ''. */
function streamed(e: RowData['extra']): string {
  const rate =
    e?.customersPerSec !== undefined
      ? `${n0(e.customersPerSec)} customers/s`
      : e?.ordersPerSec !== undefined
        ? `${n0(e.ordersPerSec)} orders/s of ${n0(e.tableSize)}, ${n2(e.cpuUsPerOrder)} µs CPU/order`
        : '';
  if (!rate) return '';
  return `${rate}, RSS +${n0(e!.rssGrowthMb!)} MB${e!.lookupP99 !== undefined ? `, lookups during sync p99 ${n2(e!.lookupP99)} ms` : ''}`;
}

function show(key: string, row: RowData): void {
  if (row.status !== 'ok') return log(`${key}: ${row.status}${row.note ? ` (${row.note})` : ''}`);
  const database = row.databaseCores === undefined ? '' : `, PostgreSQL ${n0(databaseCpuPerRequest(row))} µs CPU/req`;
  const main =
    row.reqPerSec !== undefined
      ? `${n0(row.reqPerSec)} req/s, p50 ${n2(row.p50)} ms, p99 ${n2(row.p99)} ms, ratio ${n2(row.ratio)}, server ${n0(cpuPerRequest(row))} µs CPU/req${database}`
      : '';
  const versus =
    row.extra?.cpuRatioToSearch === undefined ? '' : `CPU/req ×${n2(row.extra.cpuRatioToSearch)} of the search by id (taking turns)`;
  const lines =
    row.extra?.cpuRatioToNoLines === undefined ? '' : `CPU/req ×${n2(row.extra.cpuRatioToNoLines)} of orders without lines (taking turns)`;
  const limit =
    row.extra?.cpuRatioToLimit === undefined ? '' : `CPU/req ×${n2(row.extra.cpuRatioToLimit)} of the limit server (taking turns)`;
  const yardstick =
    row.extra?.cpuRatioToYardstick === undefined ? '' : `CPU/req ×${n2(row.extra.cpuRatioToYardstick)} of the yardstick (taking turns)`;
  log(`${key}: ${[main, streamed(row.extra), versus, lines, limit, yardstick, row.note].filter(Boolean).join('; ')}`);
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const maxRss = (server: ServerProcess): number => Math.max(...server.rssMb());

/**
 * The memory budget of a single worker: smaps first, then V8's figures (the /metrics request itself
 * allocates a little). A budget that cannot be read leaves the RSS figures as they are.
 */
async function budgetOf(server: ServerProcess): Promise<MemoryBudget | undefined> {
  const pids = server.servingPids();
  if (pids.length !== 1) return undefined;
  try {
    const budget = readMemoryBudget(pids[0]!);
    const mainHeap = await readMainHeap(server.url);
    return mainHeap ? { ...budget, mainHeap } : budget;
  } catch (err) {
    log(`memory budget not read: ${err instanceof Error ? err.message : String(err)}`);
    return undefined;
  }
}

/** What the backends' setup records for the report: seeding rates and the orders of each data set. */
interface SetupRecord {
  readonly seeding: Record<string, number>;
  readonly orders: Record<string, OrderSet>;
}

async function runBackend(backend: Backend, yardstickRps: () => number, record: SetupRecord): Promise<RowData[]> {
  const rows: RowData[] = [];
  const db = await createDatabase(backend);
  try {
    const scenarios = selectedScenarios().filter((x) => !x.backends || x.backends.includes(backend));
    const data = await seedBenchData(
      db,
      CUSTOMERS,
      scenarios.some((x) => x.usesOrders),
    );
    const seeded = data.seeding;
    record.seeding[`${backend} customers+orders`] = (seeded.customers + seeded.orders) / seeded.seconds;
    record.orders[backend] = { orders: seeded.orders, confirmed: data.confirmedOrders.length };
    log(
      `${backend}: seeded ${n0(CUSTOMERS)} customers and ${n0(seeded.orders)} orders (${n0(data.confirmedOrders.length)} confirmed) in ${seeded.seconds.toFixed(1)} s`,
    );
    // Webhook scenarios deliver to a receiver on this machine.
    let server = await startService({ databaseUrl: db.url, env: { WEBHOOK_ALLOW_PRIVATE: 'true' } });
    try {
      await sleep(1000);
      const afterStart = maxRss(server);
      const startBudget = await budgetOf(server);
      const ctx: ScenarioContext = { backend, server, db, ...data };
      // The limit server reads the same database, started once the service has stored the bench key.
      let limit: ServerProcess | undefined;
      try {
        for (const s of scenarios) {
          let row = toRow(backend, s.id, s.label, await runScenario(s, ctx), yardstickRps());
          if (s.yardstickRequests && row.status === 'ok') {
            // The yardstick's own rows come at the start and the end of the run, up to an hour apart.
            const yard = await startYardstick();
            try {
              const ratio = await alternatingCpuRatio(
                { server, requests: s.yardstickRequests },
                { server: yard, requests: YARDSTICK_REQUESTS },
              );
              row = { ...row, extra: { ...row.extra, cpuRatioToYardstick: ratio } };
            } finally {
              await yard.stop();
            }
          }
          if (s.limitRequests && row.status === 'ok') {
            limit ??= await startLimitServer(db.url);
            const limitRow = toRow(
              backend,
              `${s.id}${LIMIT_SUFFIX}`,
              `limit server: ${s.label}`,
              await runScenario(s, { ...ctx, server: limit, againstLimit: true }),
              yardstickRps(),
            );
            // The two rows were measured a few seconds apart; loads taking turns compare them under the same conditions.
            if (limitRow.status === 'ok') {
              const requests = s.limitRequests(ctx);
              const ratio = await alternatingCpuRatio({ server, requests }, { server: limit, requests });
              row = { ...row, extra: { ...row.extra, cpuRatioToLimit: ratio } };
            }
            show(row.key, row);
            show(limitRow.key, limitRow);
            rows.push(row, limitRow);
            continue;
          }
          show(row.key, row);
          rows.push(row);
        }
      } finally {
        await limit?.stop();
      }
      // Idle: 15 s after the last request, when the service's own idle timers have run: the write
      // thread stops after 5 s without work; a worker quiet for 4 s collects its heap, and V8's
      // memory reducer shrinks the young generation about 8 s later (src/heap-settings.ts).
      await sleep(QUICK ? 2000 : 15_000);
      const afterLoad = maxRss(server);
      const idleBudget = await budgetOf(server);
      const budgets = { ...(startBudget ? budgetExtra('start', startBudget) : {}), ...(idleBudget ? budgetExtra('idle', idleBudget) : {}) };
      const idle: RowData = {
        key: `${backend}/idle-rss`,
        label: 'idle RSS per worker',
        status: 'ok',
        extra: { afterStartMb: afterStart, maxWorkerRssMb: afterLoad, ...budgets },
      };
      log(`${idle.key}: ${n0(afterStart)} MB after start, ${n0(afterLoad)} MB idle after the load`);
      log(`${idle.key}: ${budgetLine(startBudget, idleBudget)}`);
      rows.push(idle);
      if (backend === 'sqlite' && scenarios.includes(searchGet)) {
        // WORKERS: the same search with two processes on the port (the load generator shares the cores).
        await server.stop();
        server = await startService({ databaseUrl: db.url, workers: 2 });
        const row = toRow(
          'sqlite',
          'search-get@2workers',
          'search by 1 identifier, GET, WORKERS=2',
          await runScenario(searchGet, { ...ctx, server }),
          yardstickRps(),
        );
        show(row.key, row);
        rows.push(row);
      }
    } finally {
      await server.stop();
    }
  } finally {
    await db.drop();
  }
  return rows;
}

/** 1 → 2 workers for the search GET, with the cores the load generator took from the server. */
function workersNote(rows: readonly RowData[]): string | undefined {
  const one = rows.find((r) => r.key === 'sqlite/search-get');
  const two = rows.find((r) => r.key === 'sqlite/search-get@2workers');
  if (!one?.reqPerSec || !two?.reqPerSec) return undefined;
  return (
    `WORKERS: search GET on SQLite ${n0(one.reqPerSec)} req/s with 1 worker, ${n0(two.reqPerSec)} req/s with 2 ` +
    `(×${n2(two.reqPerSec / one.reqPerSec)}). The load generator runs on the same 2 cores: it used ${n2(one.generatorCores)} ` +
    `and ${n2(two.generatorCores)} cores, the servers ${n2(one.serverCores)} and ${n2(two.serverCores)}: a second worker can ` +
    'only add what the generator and any other work on the machine leave of the two cores.'
  );
}

async function main(): Promise<void> {
  selectedScenarios(); // an unknown id in BENCH_SCENARIOS stops the run before anything is measured
  const machine = describeMachine();
  const started = performance.now();
  log(
    `ordergate benchmark${QUICK ? ' (BENCH_QUICK smoke run)' : ''}: ${machine.cores} cores, ${machine.memoryGb} GB, Node ${machine.node}, load average ${machine.loadAtStart.toFixed(2)}`,
  );
  const yard: LoadResult[] = [await yardstick()];
  const yardstickRps = (): number => yard.reduce((s, y) => s + y.reqPerSec, 0) / yard.length;
  const rows: RowData[] = [];
  const record: SetupRecord = { seeding: {}, orders: {} };
  for (const backend of BACKENDS) {
    try {
      rows.push(...(await runBackend(backend, yardstickRps, record)));
    } catch (err) {
      // A backend that cannot be set up (PostgreSQL not running, say) fails alone; the rest is reported.
      const row: RowData = {
        key: `${backend}/setup`,
        label: 'database, seed and server',
        status: 'failed',
        note: err instanceof Error ? err.message : String(err),
      };
      show(row.key, row);
      rows.push(row);
    }
  }
  // The yardstick again at the end: drift between the two shows how steady the machine was.
  yard.push(await yardstick());
  // Ratios use the mean of both yardstick runs.
  const mean = yardstickRps();
  const final = rows.map((r) => (r.reqPerSec !== undefined ? { ...r, ratio: r.reqPerSec / mean } : r));
  machine.loadAtEnd = currentLoad();
  const yardstickCpuUs = yard.reduce((s, y) => s + (y.serverCores * 1e6) / y.reqPerSec, 0) / yard.length;
  const run: RunData = {
    date: new Date().toISOString(),
    command: `${QUICK ? 'BENCH_QUICK=1 ' : ''}${SCENARIO_FILTER ? `BENCH_SCENARIOS=${[...SCENARIO_FILTER].join(',')} ` : ''}npm run bench`,
    machine,
    customers: CUSTOMERS,
    seconds: TIMING.seconds,
    yardstick: {
      reqPerSec: mean,
      p50: yard[0]!.p50,
      p99: yard[0]!.p99,
      runs: yard.map((y) => y.reqPerSec),
      cpuUsPerRequest: yardstickCpuUs,
    },
    rows: final,
    targets: evaluateTargets(final, yardstickCpuUs),
    seeding: record.seeding,
    orders: record.orders,
  };
  const previous = readPrevious(BENCHMARKS_FILE);
  const scaling = workersNote(final);
  if (scaling) log(`\n${scaling}`);
  printSummary(run, previous);
  // A run of some scenarios only prints: BENCHMARKS.md always holds a whole run.
  if (!QUICK && !SCENARIO_FILTER && process.env.BENCH_WRITE !== '0') {
    const busy =
      machine.loadAtStart > 0.5
        ? `The machine was busy with other work when this run started (load average ${machine.loadAtStart.toFixed(2)}); figures are lower and noisier than on an idle machine.`
        : '';
    writeBenchmarks(BENCHMARKS_FILE, run, previous, [busy, scaling].filter(Boolean).join('\n\n'));
    log(`\nwrote ${BENCHMARKS_FILE}`);
  }
  log(`total ${((performance.now() - started) / 1000).toFixed(0)} s`);
  const failed = final.filter((r) => r.status === 'failed');
  if (failed.length > 0) {
    log(`failed: ${failed.map((r) => r.key).join(', ')}`);
    process.exitCode = 1;
  }
}

await main();
