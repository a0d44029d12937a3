import { load, type RequestShape } from '../lib/load.js';
import { readSync, type StreamResult } from '../lib/stream.js';
import { TIMING } from '../lib/settings.js';
import { call, customerId, describe, loadNote, spread, type Scenario, type ScenarioContext, type ScenarioResult } from './scenario.js';

const DISTINCT = 1000;

/** Checks one request before the load: the scenario must measure the real answer, not an error. */
async function expectCustomers(ctx: ScenarioContext, req: RequestShape, count: number): Promise<string | undefined> {
  const answer = await call(ctx.server, req.method ?? 'GET', req.path, req.body === undefined ? undefined : JSON.parse(req.body));
  const ok = answer.status === 200 && Array.isArray(answer.body) && answer.body.length === count && Object.keys(answer.body[0] ?? {}).length === 14;
  return ok ? undefined : `expected ${count} customers with 14 fields, got ${describe(answer)}`;
}

async function measure(ctx: ScenarioContext, requests: RequestShape[], expected: number): Promise<ScenarioResult> {
  const wrong = await expectCustomers(ctx, requests[0]!, expected);
  if (wrong) return { status: 'failed', note: wrong };
  const result = await load({ url: ctx.server.url, requests, servingPids: ctx.server.servingPids });
  return { status: 'ok', load: result, note: loadNote(result) };
}

export const searchGet: Scenario = {
  id: 'search-get',
  label: 'search by 1 identifier, GET',
  run: (ctx) =>
    measure(
      ctx,
      spread(DISTINCT, ctx.customers).map((n) => ({ path: `/customer/?Identifiers=${customerId(n)}` })),
      1,
    ),
};

export const searchPost: Scenario = {
  id: 'search-post',
  label: 'search by 1 identifier, POST',
  run: (ctx) =>
    measure(
      ctx,
      spread(DISTINCT, ctx.customers, 7).map((n) => ({ method: 'POST', path: '/customer/', body: JSON.stringify({ Identifiers: [customerId(n)] }) })),
      1,
    ),
};

/** Half customer ids, half external ids: both lookups of the union are exercised. */
function fiftyIdentifiers(seed: number, max: number): string[] {
  const numbers = [...new Set(spread(60, max, seed))].slice(0, 50);
  return numbers.map((n, i) => (i % 2 === 0 ? customerId(n) : `EXT-${n}`));
}

export const search50: Scenario = {
  id: 'search-50',
  label: 'search by 50 identifiers, POST',
  run: (ctx) => {
    const requests = Array.from({ length: 200 }, (_, i) => ({
      method: 'POST' as const,
      path: '/customer/',
      body: JSON.stringify({ Identifiers: fiftyIdentifiers(i + 11, ctx.customers) }),
    }));
    return measure(ctx, requests, 50);
  },
};

/** Samples the serving processes' RSS while `work` runs; returns the peak growth in MB. */
async function rssGrowthDuring<T>(ctx: ScenarioContext, work: () => Promise<T>): Promise<{ value: T; before: number; peak: number }> {
  const total = (): number => ctx.server.rssMb().reduce((a, b) => a + b, 0);
  const before = total();
  let peak = before;
  const timer = setInterval(() => (peak = Math.max(peak, total())), 50);
  try {
    const value = await work();
    return { value, before, peak: Math.max(peak, total()) };
  } finally {
    clearInterval(timer);
  }
}

/** Whole-table syncs, one after the other, for the scenario's duration (at least one). */
async function syncRepeatedly(ctx: ScenarioContext, seconds: number): Promise<{ streams: StreamResult[]; seconds: number }> {
  const streams: StreamResult[] = [];
  const started = performance.now();
  do streams.push(await readSync(ctx.server.url));
  while ((performance.now() - started) / 1000 < seconds);
  return { streams, seconds: (performance.now() - started) / 1000 };
}

export const syncStream: Scenario = {
  id: 'sync',
  label: 'sync stream of the whole table',
  async run(ctx) {
    await readSync(ctx.server.url); // warm-up
    const { value, before, peak } = await rssGrowthDuring(ctx, () => syncRepeatedly(ctx, TIMING.seconds));
    const bad = value.streams.find((s) => s.status !== 200 || !s.complete || s.customers < ctx.customers);
    if (bad) return { status: 'failed', note: `incomplete sync: HTTP ${bad.status}, ${bad.customers} of ≥ ${ctx.customers} customers` };
    const customers = value.streams.reduce((s, r) => s + r.customers, 0);
    // Id lookups while a sync streams: small requests must keep answering quickly.
    const during = await rssGrowthDuring(ctx, async () => {
      const streaming = syncRepeatedly(ctx, TIMING.seconds);
      const lookups = await load({
        url: ctx.server.url,
        connections: 2,
        timing: { seconds: TIMING.seconds, warmupSeconds: 0 },
        requests: spread(DISTINCT, ctx.customers, 3).map((n) => ({ path: `/customer/?Identifiers=${customerId(n)}` })),
      });
      await streaming;
      return lookups;
    });
    return {
      status: 'ok',
      note: loadNote(during.value),
      extra: {
        customersPerSec: customers / value.seconds,
        streams: value.streams.length,
        tableSize: value.streams[0]!.customers,
        rssGrowthMb: peak - before,
        rssGrowthWithLookupsMb: during.peak - during.before,
        lookupP50: during.value.p50,
        lookupP99: during.value.p99,
      },
    };
  },
};

export const customerScenarios: readonly Scenario[] = [searchGet, searchPost, search50, syncStream];
