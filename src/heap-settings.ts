import type { EventEmitter } from 'node:events';
import { performance } from 'node:perf_hooks';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { releaseFreedMemory } from './freed-memory.js';

/**
 * The serving process's V8 heap, kept small where its size buys nothing.
 *
 * V8 doubles the young generation (two semi-spaces, up to 16 MB each on Node 20) whenever many
 * objects survive a scavenge. Start-up is such a phase: modules, routes and compiled schemas all
 * live on, so a service used to start with 32 MB of semi-spaces that it needs only under load.
 * While the young generation is held it stays at its initial size; released, it grows again under
 * load as before (the order feed's chunks must die young, docs/performance.md).
 */

/** V8's own default growth factor of the semi-spaces, restored once start-up is over. */
const SEMI_SPACE_GROWTH_FACTOR = 2;

/** Start-up: the young generation keeps its initial size (the flag is read at every growth). */
export function holdYoungGeneration(): void {
  setFlagsFromString('--semi-space-growth-factor=1');
}

/** Serving: the young generation may grow with the load again. */
export function releaseYoungGeneration(): void {
  setFlagsFromString(`--semi-space-growth-factor=${SEMI_SPACE_GROWTH_FACTOR}`);
}

/**
 * V8's full collection as `--expose-gc` would expose it (`gc()`: at once, the loop waits), taken
 * from a fresh context so that the process's own global stays without `gc`.
 */
function fullCollection(): () => void {
  setFlagsFromString('--expose-gc');
  try {
    const gc = runInNewContext('gc') as () => void;
    return () => gc();
  } finally {
    setFlagsFromString('--no-expose-gc');
  }
}

/**
 * How often the event loop's utilisation is sampled, and how many quiet samples make it idle. A
 * pause of a few seconds between bursts is not idleness: the work after the collection runs at up
 * to twice the CPU per request for its first seconds (V8 collects and compiles again), so only a
 * longer quiet stretch pays for it. Short enough that the memory reducer's collection, some 8 s
 * after this one, still comes within 15 s of the last request.
 */
const SAMPLE_MS = 1000;
const QUIET_SAMPLES = 4;
/** Below this share of a sample the loop was quiet; at BUSY or above, it was working. */
const QUIET = 0.02;
const BUSY = 0.1;

/**
 * One full collection after start-up, and after each stretch of work once the process has been
 * quiet for a few seconds, so that an idle worker gives back what the load left.
 *
 * V8 collects an idle heap only when it next allocates much: the garbage of the load (the feeds'
 * chunks, the large strings of streamed answers, the Buffers they keep alive in malloc) would stay
 * resident. And the young generation, grown to two semi-spaces of 16 MB under load, is shrunk only
 * by a collection meant to reduce memory, which V8's memory reducer starts some seconds after a
 * full collection, and only once it sees a low allocation rate or is told to optimise for size. So
 * while idle the process optimises for size: the collection here frees the old space at once, and
 * about 8 s later the memory reducer's own collection shrinks the young generation to its initial
 * size. Quiet is judged by the loop's utilisation, so requests pay nothing for the watch; the
 * collection stops the loop for some milliseconds, once per quiet stretch.
 *
 * Optimising for size makes V8 trade speed for memory (e.g. smaller heap growth steps): the first
 * work after a quiet stretch must not run that way, and the loop's next sample comes up to a
 * second late (a whole order feed of 20,000 orders takes less). So the first request that
 * `requests` (the HTTP server) emits while the process optimises for size ends it. The listener
 * is there only while quiet: a busy process pays nothing for it. Work that is no request (webhook
 * deliveries) runs optimised for size until the next request.
 * Returns a function that stops it.
 */
export function collectWhenIdle(requests: EventEmitter): () => void {
  const collect = fullCollection();
  // Start-up's garbage (module texts, schema compilation) fills most of the old space: gone before the first request.
  collect();
  // And what start-up freed in malloc's heaps (the compilers' and the pool's threads' arenas).
  releaseFreedMemory();
  let last = performance.eventLoopUtilization();
  let worked = false;
  let quiet = 0;
  let reducing = false;
  // Work is still what the loop's samples say: a request or two (a health probe) is no stretch of work.
  const wake = (): void => reduce(false);
  const reduce = (on: boolean): void => {
    if (on === reducing) return;
    reducing = on;
    setFlagsFromString(on ? '--optimize-for-size' : '--no-optimize-for-size');
    if (on) requests.once('request', wake);
    else requests.removeListener('request', wake);
  };
  const timer = setInterval(() => {
    const now = performance.eventLoopUtilization();
    const share = performance.eventLoopUtilization(now, last).utilization;
    last = now;
    // While optimising for size a busy sample is no work: the loop is busy then with collections
    // (this one, the memory reducer's some seconds later, 20–150 ms each on a busy machine) that,
    // taken for work, were followed by another collection, and so on for as long as it stayed idle.
    if (share >= BUSY && !reducing) worked = true;
    quiet = share < QUIET ? quiet + 1 : 0;
    if (worked && quiet >= QUIET_SAMPLES) {
      worked = false;
      // Collected before V8 is told to optimise for size: a collection made while it is leaves the
      // heap set up for size, and the work after the quiet stretch pays for that. The memory
      // reducer's collection, the one that shrinks the young generation, comes seconds later.
      collect();
      // What the collection freed outside V8's heap (Buffers, strings' external data) is free in
      // malloc's heaps now, between pages still in use: given back to the kernel here.
      releaseFreedMemory();
      reduce(true);
    }
  }, SAMPLE_MS);
  timer.unref();
  return () => {
    clearInterval(timer);
    reduce(false);
  };
}
