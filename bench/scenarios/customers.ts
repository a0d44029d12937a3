import { load, type RequestShape } from '../lib/load.js';
import { incompleteStream, readSync, rssGrowthDuring, streamRepeatedly } from '../lib/stream.js';
import { TIMING } from '../lib/settings.js';
import {
  checkedLoad,
  customerId,
  describe,
  loadNote,
  spread,
  type Scenario,
  type ScenarioContext,
  type ScenarioResult,
} from './scenario.js';

const DISTINCT = 1000;

/** Expects `count` customers with the 14 fields of the spec. */
function measure(ctx: ScenarioContext, requests: RequestShape[], count: number): Promise<ScenarioResult> {
  return checkedLoad(ctx, requests, (answer) => {
    const ok =
      answer.status === 200 &&
      Array.isArray(answer.body) &&
      answer.body.length === count &&
      Object.keys((answer.body[0] as object | undefined) ?? {}).length === 14;
    return ok ? undefined : `expected ${count} customers with 14 fields, got ${describe(answer)}`;
  });
}

/** The requests of the search by one id: 1,000 different customers in turn. */
export const searchGetRequests = (ctx: ScenarioContext): RequestShape[] =>
  spread(DISTINCT, ctx.customers).map((n) => ({ path: `/customer/?Identifiers=${customerId(n)}` }));

export const searchGet: Scenario = {
  id: 'search-get',
  label: 'search by 1 identifier, GET',
  limit: true,
  run: (ctx) => measure(ctx, searchGetRequests(ctx), 1),
};

export const searchPost: Scenario = {
  id: 'search-post',
  label: 'search by 1 identifier, POST',
  limit: true,
  run: (ctx) =>
    measure(
      ctx,
      spread(DISTINCT, ctx.customers, 7).map((n) => ({
        method: 'POST',
        path: '/customer/',
        body: JSON.stringify({ Identifiers: [customerId(n)] }),
      })),
      1,
    ),
};

/**
 * Half customer ids, half external ids: both lookups of the union are exercised. The spread repeats
 * itself sooner on small tables (2,000 customers): drawing on past 60 keeps 50 distinct there, and
 * the first 50 distinct are the same as before wherever 60 draws held them.
 */
function fiftyIdentifiers(seed: number, max: number): string[] {
  const numbers = [...new Set(spread(1000, max, seed))].slice(0, 50);
  return numbers.map((n, i) => (i % 2 === 0 ? customerId(n) : `EXT-${n}`));
}

export const search50: Scenario = {
  id: 'search-50',
  label: 'search by 50 identifiers, POST',
  limit: true,
  run: (ctx) => {
    const requests = Array.from({ length: 200 }, (_, i) => ({
      method: 'POST' as const,
      path: '/customer/',
      body: JSON.stringify({ Identifiers: fiftyIdentifiers(i + 11, ctx.customers) }),
    }));
    return measure(ctx, requests, 50);
  },
};

export const syncStream: Scenario = {
  id: 'sync',
  label: 'sync stream of the whole table',
  async run(ctx) {
    const sync = () => readSync(ctx.server.url);
    await sync(); // warm-up
    const { value, before, peak } = await rssGrowthDuring(ctx.server, () => streamRepeatedly(sync, TIMING.seconds));
    const bad = incompleteStream(value.streams, ctx.customers, 'customers');
    if (bad) return { status: 'failed', note: bad };
    // Id lookups while a sync streams: small requests must keep answering quickly.
    const during = await rssGrowthDuring(ctx.server, async () => {
      const streaming = streamRepeatedly(sync, TIMING.seconds);
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
        customersPerSec: value.itemsPerSec,
        streams: value.streams.length,
        tableSize: value.streams[0]!.items,
        rssGrowthMb: peak - before,
        rssGrowthWithLookupsMb: during.peak - during.before,
        lookupP50: during.value.p50,
        lookupP99: during.value.p99,
      },
    };
  },
};

export const customerScenarios: readonly Scenario[] = [searchGet, searchPost, search50, syncStream];
