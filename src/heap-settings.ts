import { performance } from 'node:perf_hooks';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

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

/** How often the event loop's utilisation is sampled, and how many quiet samples make it idle. */
const SAMPLE_MS = 1000;
const QUIET_SAMPLES = 2;
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
 * size. The first busy sample turns it off again (it makes V8 trade speed for memory, e.g. smaller
 * heap growth steps). Quiet is judged by the loop's utilisation, so requests pay nothing for the
 * watch; the collection stops the loop for some milliseconds, once per quiet stretch.
 * Returns a function that stops it.
 */
export function collectWhenIdle(): () => void {
  const collect = fullCollection();
  // Start-up's garbage (module texts, schema compilation) fills most of the old space: gone before the first request.
  collect();
  let last = performance.eventLoopUtilization();
  let worked = false;
  let quiet = 0;
  let reducing = false;
  const reduce = (on: boolean): void => {
    reducing = on;
    setFlagsFromString(on ? '--optimize-for-size' : '--no-optimize-for-size');
  };
  const timer = setInterval(() => {
    const now = performance.eventLoopUtilization();
    const share = performance.eventLoopUtilization(now, last).utilization;
    last = now;
    if (share >= BUSY) {
      worked = true;
      if (reducing) reduce(false);
    }
    quiet = share < QUIET ? quiet + 1 : 0;
    if (worked && quiet >= QUIET_SAMPLES) {
      worked = false;
      reduce(true);
      collect();
    }
  }, SAMPLE_MS);
  timer.unref();
  return () => {
    clearInterval(timer);
    if (reducing) reduce(false);
  };
}
