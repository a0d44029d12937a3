import { randomInt } from 'node:crypto';
import type { TestContext } from 'node:test';

/**
 * Random choices a failing run can replay: a seed (TEST_SEED, or a fresh one), printed with the
 * test, drives a small PRNG (mulberry32: 32-bit state, good enough to pick test data).
 */
export interface SeededRandom {
  readonly seed: number;
  /** A number in [0, 1). */
  next(): number;
  /** An integer in [0, below). */
  below(below: number): number;
  /** Prints the seed with the test's output, and how to run it again with the same choices. */
  report(t: TestContext): void;
}

const fromEnvironment = (): number | undefined => {
  const given = process.env.TEST_SEED;
  if (given === undefined || given === '') return undefined;
  const seed = Number(given);
  if (!Number.isInteger(seed) || seed < 0 || seed > 0xffffffff)
    throw new Error(`TEST_SEED must be an integer 0…${0xffffffff}, got ${given}`);
  return seed;
};

export function seededRandom(seed: number = fromEnvironment() ?? randomInt(0x100000000)): SeededRandom {
  let state = seed >>> 0;
  const next = (): number => {
    state = (state + 0x6d2b79f5) >>> 0;
    let z = state;
    z = Math.imul(z ^ (z >>> 15), z | 1);
    z ^= z + Math.imul(z ^ (z >>> 7), z | 61);
    return ((z ^ (z >>> 14)) >>> 0) / 0x100000000;
  };
  return {
    seed,
    next,
    below: (below) => Math.floor(next() * below),
    report: (t) => t.diagnostic(`random seed ${seed} (TEST_SEED=${seed} replays these choices)`),
  };
}
