import { load, type RequestShape } from './load.js';
import type { ServerProcess } from './processes.js';
import { QUICK } from './settings.js';

/**
 * Rounds of each load, each way, the seconds of each load, and the seconds before each is counted:
 * a load's first fraction of a second, on connections just opened, costs a Fastify server more than
 * a bare node:http one (bare Fastify against the yardstick: 1.40–1.49 × counted from the first
 * request, 1.01–1.04 × after half a second; docs/performance.md), which no steady client sees.
 */
const ALTERNATING = QUICK ? { rounds: 1, seconds: 0.5, warmupSeconds: 0 } : { rounds: 8, seconds: 1, warmupSeconds: 0.5 };

/** One side of a comparison: a server and the requests sent to it. */
export interface Side {
  readonly server: ServerProcess;
  readonly requests: readonly RequestShape[];
}

/**
 * Server CPU per request of `a` over that of `b`, from loads that take turns (a b, b a, a b, …, the
 * median of the rounds' ratios): both under the same conditions, as far as a shared machine allows.
 * Two rows measured a minute apart differ by more than the targets' margins on a busy machine.
 */
export async function alternatingCpuRatio(a: Side, b: Side): Promise<number> {
  const timing = { seconds: ALTERNATING.seconds, warmupSeconds: ALTERNATING.warmupSeconds };
  const cpu = async (side: Side): Promise<number> => {
    const r = await load({ url: side.server.url, requests: side.requests, timing, servingPids: side.server.servingPids });
    return r.serverCores / r.reqPerSec;
  };
  // One uncounted load of each first: a side may have sat idle through the other's own row (8 s),
  // long enough for the service's idle collection (src/heap-settings.ts), after which its first
  // load costs more, while the other had just been running. Both start the rounds warm.
  await cpu(a);
  await cpu(b);
  const ratios: number[] = [];
  for (let round = 0; round < ALTERNATING.rounds; round++) {
    if (round % 2 === 0) {
      const x = await cpu(a);
      ratios.push(x / (await cpu(b)));
    } else {
      const y = await cpu(b);
      ratios.push((await cpu(a)) / y);
    }
  }
  ratios.sort((x, y) => x - y);
  const mid = ratios.length / 2;
  return ratios.length % 2 === 1 ? ratios[Math.floor(mid)]! : (ratios[mid - 1]! + ratios[mid]!) / 2;
}
