/**
 * Soak run (`npm run soak`, not part of `npm test`): one server process under a steady mixed load on
 * loopback for SOAK_SECONDS (default 600) at SOAK_RATE requests per second (default 200), with the
 * production defaults (rate limit on, LOG_LEVEL=warn). Reports the error rate, the server's RSS over
 * time and the latency per minute; exits 1 when any request failed.
 *
 * Mix: search by one id (GET) 35 %, search by five ids (POST) 20 %, custom-field read 20 %,
 * custom-field write 15 %, confirmation of a seeded order 10 % (each order once).
 * SOAK_BACKEND=postgres runs it on a fresh PostgreSQL database at PG_TEST_URL. A full-length run writes
 * its figures to the soak section of BENCHMARKS.md, with the previous run's summary beside them
 * (SOAK_WRITE=0 leaves the file alone, SOAK_WRITE=1 writes a shorter run too).
 */
import { createHistogram, type RecordableHistogram } from 'node:perf_hooks';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { blockData, dataComment, readBlock, writeBlock } from '../bench/lib/blocks.js';
import { ROOT } from '../bench/lib/settings.js';
import { loadavg } from 'node:os';
import { createDatabase, orderIds, seed } from '../bench/lib/database.js';
import { startService, type ServerProcess } from '../bench/lib/processes.js';
import { authHeaders } from '../bench/lib/load.js';
import { call, customerId, describe } from '../bench/scenarios/scenario.js';
import { openStore } from '../src/store/open-store.js';

const SECONDS = Number(process.env.SOAK_SECONDS ?? 600);
const RATE = Number(process.env.SOAK_RATE ?? 200);
const BACKEND = process.env.SOAK_BACKEND === 'postgres' ? 'postgres' : 'sqlite';
const CUSTOMERS = 20_000;
const ORDERS = Math.ceil(SECONDS * RATE * 0.1 * 1.2) + 100;
const SAMPLE_MS = 5_000;

interface Request {
  readonly method: 'GET' | 'POST' | 'PUT';
  readonly path: string;
  readonly body?: string;
}

function confirmation(orderId: number, i: number): Record<string, unknown> {
  return {
    OrderId: orderId,
    ...(i % 2 === 0 ? { CustomerId: customerId((i % CUSTOMERS) + 1) } : { ExternalCustomerId: `SOAK-${orderId}` }),
    CustomerFirstName: 'Greta',
    CustomerLastName: `Fischer ${i}`,
    CustomerPostalCode: '80331',
    CustomerCity: 'München',
    CustomerCountry: 'DE',
    CustomerStreet: 'Hauptstraße',
    CustomerEMail: `greta.${i}@example.org`,
    CustomerIban: 'DE89370400440532013000',
    CustomerBic: 'COBADEFFXXX',
    Payment: { Amount: 49.95, Name: 'Anzahlung', Type: 'PayPal' },
  };
}

/** The next request of the mix: a fixed pattern of 20 slots, so the shares hold over any minute. */
function mix(openOrders: number[]): () => Request {
  const PATTERN = 'GGGGGGGPPPPRRRRWWWCC'; // G search GET, P search POST, R cf read, W cf write, C confirm
  let i = 0;
  let random = 42;
  const n = (max: number) => {
    random = (random * 1103515245 + 12345) % 2147483648;
    return (random % max) + 1;
  };
  return () => {
    const slot = PATTERN[i++ % PATTERN.length];
    if (slot === 'C') {
      const orderId = openOrders.shift();
      if (orderId !== undefined)
        return { method: 'POST', path: `/orders/${orderId}/confirm`, body: JSON.stringify(confirmation(orderId, i)) };
    }
    if (slot === 'P')
      return {
        method: 'POST',
        path: '/customer/',
        body: JSON.stringify({ Identifiers: Array.from({ length: 5 }, () => customerId(n(CUSTOMERS))) }),
      };
    if (slot === 'R') return { method: 'GET', path: `/customer/${customerId(n(1000))}/customfields/` };
    if (slot === 'W')
      return { method: 'PUT', path: `/customer/${customerId(n(1000))}/customfields/${n(2)}`, body: JSON.stringify({ Value: `soak ${i}` }) };
    return { method: 'GET', path: `/customer/?Identifiers=${customerId(n(CUSTOMERS))}` };
  };
}

interface Minute {
  readonly histogram: RecordableHistogram;
  ok: number;
  failed: number;
}

async function main(): Promise<number> {
  const started = new Date();
  const loadAtStart = loadavg()[0]!;
  const db = await createDatabase(BACKEND, 'soak');
  let server: ServerProcess | undefined;
  try {
    process.stderr.write(`soak: seeding ${CUSTOMERS} customers and ${ORDERS} orders (${BACKEND})\n`);
    await seed(db, CUSTOMERS, ORDERS);
    const openOrders = await orderIds(db, 'Open');
    server = await startService({ databaseUrl: db.url, env: { RATE_LIMIT_PER_SECOND: '1000' } });
    const s = server;
    for (const [number, type] of [
      [1, 'Text'],
      [2, 'Text'],
    ] as const) {
      const answer = await call(s, 'PUT', `/customfields/${number}`, { Label: `Soak ${number}`, FieldType: type });
      if (answer.status >= 300) throw new Error(`defining custom field ${number}: ${describe(answer)}`);
    }

    const minutes: Minute[] = [];
    const statuses: Record<string, number> = {};
    const rss: Array<{ second: number; mb: number }> = [];
    // The V8 heap in use, read from the service's own metrics: a JS leak grows it, while memory that
    // the allocator keeps after a peak grows only the RSS.
    const heap: Array<{ second: number; mb: number }> = [];
    const sampleHeap = async (): Promise<void> => {
      const second = Math.round((performance.now() - t0) / 1000);
      try {
        const text = await (await fetch(`${s.url}/metrics`, { headers: authHeaders() })).text();
        const used = /^ordergate_nodejs_heap_size_used_bytes (\S+)$/m.exec(text)?.[1];
        if (used !== undefined) heap.push({ second, mb: Number(used) / 1024 / 1024 });
      } catch {
        // a missed sample is no finding
      }
    };
    let errors = 0;
    const t0 = performance.now();
    const minuteOf = () => {
      const m = Math.floor((performance.now() - t0) / 60_000);
      while (minutes.length <= m) minutes.push({ histogram: createHistogram(), ok: 0, failed: 0 });
      return minutes[m]!;
    };
    const sample = () => {
      rss.push({ second: Math.round((performance.now() - t0) / 1000), mb: Math.max(...s.rssMb()) });
      void sampleHeap();
    };
    sample();
    const sampler = setInterval(sample, SAMPLE_MS);
    // Open loop: requests start on a fixed schedule whatever the answers do, so a slow answer shows as
    // latency instead of slowing the load down (no coordinated omission).
    const headers = { ...authHeaders(), 'content-type': 'application/json' };
    const inFlight = new Set<Promise<void>>();
    const send = async (r: Request): Promise<void> => {
      const begun = performance.now();
      try {
        const res = await fetch(s.url + r.path, {
          method: r.method,
          headers,
          ...(r.body === undefined ? {} : { body: r.body }),
          signal: AbortSignal.timeout(10_000),
        });
        await res.arrayBuffer();
        const minute = minuteOf();
        statuses[res.status] = (statuses[res.status] ?? 0) + 1;
        if (res.status >= 200 && res.status < 300) {
          minute.ok++;
          minute.histogram.record(Math.max(1, Math.round((performance.now() - begun) * 1000)));
        } else {
          minute.failed++;
          if (minute.failed <= 3) process.stderr.write(`soak: ${r.method} ${r.path} answered ${res.status}\n`);
        }
      } catch (err) {
        errors++;
        minuteOf().failed++;
        if (errors <= 3) process.stderr.write(`soak: ${r.method} ${r.path} failed: ${String(err)}\n`);
      }
    };
    const next = mix(openOrders);
    const progress = setInterval(
      () =>
        process.stderr.write(
          `soak: ${Math.round((performance.now() - t0) / 1000)} s of ${SECONDS} s, RSS ${rss.at(-1)?.mb.toFixed(0)} MB, heap used ${heap.at(-1)?.mb.toFixed(0)} MB, in flight ${inFlight.size}\n`,
        ),
      60_000,
    );
    let sent = 0;
    while (performance.now() - t0 < SECONDS * 1000) {
      const due = Math.floor(((performance.now() - t0) / 1000) * RATE);
      while (sent < due) {
        sent++;
        const p = send(next()).finally(() => inFlight.delete(p));
        inFlight.add(p);
      }
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    await Promise.all(inFlight);
    clearInterval(progress);
    clearInterval(sampler);
    sample();

    const store = openStore(db.url, { poolSize: 1 });
    const confirmed = Number(
      (
        await store.db
          .selectFrom('orders')
          .select((eb) => eb.fn.countAll().as('n'))
          .where('status', '=', 'Confirmed')
          .executeTakeFirstOrThrow()
      ).n,
    );
    await store.close();

    const ok = minutes.reduce((a, m) => a + m.ok, 0);
    const failed = minutes.reduce((a, m) => a + m.failed, 0);
    const ms = (h: RecordableHistogram, p: number) => (h.count === 0 ? NaN : h.percentile(p) / 1000);
    const at = (fraction: number) => rss[Math.min(rss.length - 1, Math.round((rss.length - 1) * fraction))]!;
    const heapAt = (fraction: number) => heap[Math.min(heap.length - 1, Math.round((heap.length - 1) * fraction))]!.mb;
    const report = {
      date: started.toISOString(),
      backend: BACKEND,
      seconds: SECONDS,
      targetRate: RATE,
      loadAverage: { start: loadAtStart, end: loadavg()[0]! },
      requests: ok + failed,
      achievedRate: (ok + failed) / SECONDS,
      failed,
      socketErrors: errors,
      errorRate: ok + failed === 0 ? 1 : failed / (ok + failed),
      statuses,
      confirmedOrders: confirmed,
      rssMb: {
        start: at(0).mb,
        middle: at(0.5).mb,
        end: at(1).mb,
        max: Math.max(...rss.map((r) => r.mb)),
        min: Math.min(...rss.map((r) => r.mb)),
      },
      perMinute: minutes.map((m, i) => ({
        minute: i + 1,
        ok: m.ok,
        failed: m.failed,
        p50: ms(m.histogram, 50),
        p99: ms(m.histogram, 99),
        max: m.histogram.count ? m.histogram.max / 1000 : NaN,
      })),
      heapUsedMb:
        heap.length === 0 ? undefined : { start: heapAt(0), middle: heapAt(0.5), end: heapAt(1), max: Math.max(...heap.map((h) => h.mb)) },
      rssSamples: rss,
      heapSamples: heap,
    };
    const table = [
      `Soak ${report.date}: ${BACKEND}, ${SECONDS} s at ${RATE} req/s target (${report.achievedRate.toFixed(1)} achieved, open loop), 1 worker`,
      `load average ${loadAtStart.toFixed(2)} at the start, ${report.loadAverage.end.toFixed(2)} at the end`,
      `requests ${report.requests}, failed ${failed} (socket errors ${errors}), error rate ${(report.errorRate * 100).toFixed(3)} %, statuses ${JSON.stringify(statuses)}`,
      `confirmed orders in the store: ${confirmed}`,
      `RSS MB: start ${report.rssMb.start.toFixed(0)}, middle ${report.rssMb.middle.toFixed(0)}, end ${report.rssMb.end.toFixed(0)} (min ${report.rssMb.min.toFixed(0)}, max ${report.rssMb.max.toFixed(0)})`,
      report.heapUsedMb
        ? `V8 heap used MB: start ${report.heapUsedMb.start.toFixed(0)}, middle ${report.heapUsedMb.middle.toFixed(0)}, end ${report.heapUsedMb.end.toFixed(0)} (max ${report.heapUsedMb.max.toFixed(0)})`
        : 'V8 heap used: not sampled',
      '',
      '| minute | requests ok | failed | p50 ms | p99 ms | max ms |',
      '| ---: | ---: | ---: | ---: | ---: | ---: |',
      ...report.perMinute.map(
        (m) => `| ${m.minute} | ${m.ok} | ${m.failed} | ${m.p50.toFixed(2)} | ${m.p99.toFixed(2)} | ${m.max.toFixed(1)} |`,
      ),
    ].join('\n');
    process.stdout.write(table + '\n');
    const write = process.env.SOAK_WRITE === undefined ? SECONDS >= 600 : process.env.SOAK_WRITE !== '0';
    if (write) writeSoakSection(report, table);
    if (process.env.SOAK_OUT) writeFileSync(process.env.SOAK_OUT, JSON.stringify(report, null, 1));
    return failed === 0 ? 0 : 1;
  } finally {
    await server?.stop();
    await db.drop();
  }
}

interface SoakSummary {
  readonly date: string;
  readonly backend: string;
  readonly requests: number;
  readonly failed: number;
  readonly rssMb: { readonly start: number; readonly end: number; readonly max: number };
  readonly worstP99AfterWarmup: number;
}

const SOAK_BLOCK = 'soak';

/** The soak section of BENCHMARKS.md: this run in full, the previous one as a line beside it. */
function writeSoakSection(
  report: { date: string; backend: string; requests: number; failed: number; rssMb: SoakSummary['rssMb']; perMinute: { p99: number }[] },
  table: string,
): void {
  const file = join(ROOT, 'BENCHMARKS.md');
  const previous = blockData<SoakSummary>(readBlock(file, SOAK_BLOCK));
  const afterWarmup = report.perMinute
    .slice(1)
    .map((m) => m.p99)
    .filter(Number.isFinite);
  const summary: SoakSummary = {
    date: report.date,
    backend: report.backend,
    requests: report.requests,
    failed: report.failed,
    rssMb: report.rssMb,
    // The first minute is warm-up (JIT, caches, first checkpoints).
    worstP99AfterWarmup: afterWarmup.length > 0 ? Math.max(...afterWarmup) : NaN,
  };
  const line = (x: SoakSummary): string =>
    `${x.date.slice(0, 16).replace('T', ' ')} UTC, ${x.backend}: ${x.requests.toLocaleString('en-US')} requests, ${x.failed} failed, ` +
    `RSS ${x.rssMb.start.toFixed(0)} → ${x.rssMb.end.toFixed(0)} MB (max ${x.rssMb.max.toFixed(0)}), worst p99 after the first minute ${Number.isFinite(x.worstP99AfterWarmup) ? `${x.worstP99AfterWarmup.toFixed(1)} ms` : 'n/a'}`;
  const body = [
    '## Soak (`npm run soak`)',
    '',
    'One server process, production defaults (rate limit on, `LOG_LEVEL=warn`), 20,000 seeded customers, an',
    'open-loop mixed load on loopback (search GET 35 %, search POST by five ids 20 %, custom-field read 20 %,',
    'custom-field write 15 %, confirmation 10 %). What the figures mean: docs/reliability.md, "Soak".',
    '',
    '```',
    table.split('\n\n')[0]!,
    '```',
    '',
    table.slice(table.indexOf('| minute')),
    '',
    `Previous run: ${previous ? line(previous) : 'none recorded in this file'}.`,
    `This run: ${line(summary)}.`,
    '',
    dataComment(summary),
  ].join('\n');
  writeBlock(file, SOAK_BLOCK, body);
  process.stdout.write(`wrote the soak section of ${file}\n`);
}

process.exitCode = await main();
