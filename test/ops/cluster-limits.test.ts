import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { FastifyBaseLogger, FastifyReply, FastifyRequest } from 'fastify';
import fc from 'fast-check';
import { AppError } from '../../src/errors.js';
import { AuthFailureLimiter } from '../../src/ops/auth-failure-limiter.js';
import { FixedWindows, LeasedCounter } from '../../src/ops/cluster-limits.js';
import type { LimitCount } from '../../src/ops/limit-counter.js';

test('FixedWindows: up to max events per window from the first event on, none when fewer than the least asked are left; afresh after its end', () => {
  const w = new FixedWindows();
  assert.deepEqual(w.take('a', 3, 1, 5, 1000, 0), { granted: 3, left: 2, endsAt: 1000 });
  assert.deepEqual(w.take('a', 3, 3, 5, 1000, 400), { granted: 0, left: 2, endsAt: 1000 });
  assert.deepEqual(w.take('a', 3, 1, 5, 1000, 500), { granted: 2, left: 0, endsAt: 1000 });
  assert.deepEqual(w.take('a', 1, 1, 5, 1000, 999), { granted: 0, left: 0, endsAt: 1000 });
  assert.deepEqual(w.take('b', 1, 1, 5, 1000, 999), { granted: 1, left: 4, endsAt: 1999 });
  assert.deepEqual(w.take('a', 1, 1, 5, 1000, 1000), { granted: 1, left: 4, endsAt: 2000 });
});

test('FixedWindows: ended windows are dropped; at capacity the window that ends first goes', () => {
  const w = new FixedWindows(2);
  w.take('a', 1, 1, 5, 1000, 0);
  w.take('b', 2, 1, 5, 1000, 100);
  w.take('c', 1, 1, 5, 1000, 200);
  assert.equal(w.size, 2);
  assert.equal(w.take('a', 1, 1, 5, 1000, 300).left, 4, 'a was dropped: a new window');
  assert.equal(w.take('c', 1, 1, 5, 1000, 300).left, 3, 'c was kept');
  w.take('d', 1, 1, 5, 1000, 5000);
  assert.equal(w.size, 1, 'ended windows are dropped when a new one starts');
});

/** Workers leasing from one primary's windows (called in the same process). */
function cluster(max: number, slice: number, workers: number) {
  const windows = new FixedWindows();
  const asked = { count: 0 };
  const counters = Array.from(
    { length: workers },
    () => new LeasedCounter(async (subject, want, least) => (asked.count++, windows.take(subject, want, least, max, 60_000)), max, slice),
  );
  return { counters, asked };
}

test('leases: the workers together never admit more than the burst, and refuse only when what others hold could not serve', async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.integer({ min: 1, max: 60 }),
      fc.integer({ min: 1, max: 8 }),
      fc.array(fc.record({ worker: fc.integer({ min: 0, max: 2 }), weight: fc.integer({ min: 1, max: 5 }) }), { maxLength: 120 }),
      async (max, slice, requests) => {
        const { counters } = cluster(max, slice, 3);
        let admitted = 0;
        for (const { worker, weight } of requests) {
          const r = (await counters[worker]!.count('key', weight))!;
          const need = Math.min(weight, max);
          if (!r.exceeded) admitted += need;
          else assert.ok(admitted >= max - (need - 1) - 2 * (slice - 1), `refused with ${admitted} of ${max} admitted`);
          assert.ok(admitted <= max, `${admitted} admitted, burst ${max}`);
          assert.ok(r.remaining >= 0 && r.remaining <= max);
        }
      },
    ),
  );
});

test('leases: with slices of 1 the count is exact; a spent window is refused without asking again', async () => {
  const { counters, asked } = cluster(5, 1, 2);
  const results: boolean[] = [];
  for (let i = 0; i < 8; i++) results.push((await counters[i % 2]!.count('key', 1))!.exceeded);
  assert.deepEqual(results, [false, false, false, false, false, true, true, true]);
  assert.equal(asked.count, 6, 'the worker that took the last one knows; the other asks once to learn it, then no more');
});

test('leases: concurrent requests of one worker wait for one answer; a slice serves many requests', async () => {
  const { counters, asked } = cluster(1000, 50, 2);
  const all = await Promise.all(Array.from({ length: 40 }, () => counters[0]!.count('key', 1)));
  assert.ok(all.every((r) => r && !r.exceeded));
  assert.equal(asked.count, 1);
  // A batch larger than the slice takes what it needs.
  assert.equal((await counters[0]!.count('key', 200))!.exceeded, false);
  assert.equal(asked.count, 2);
});

test('leases: a window that ends while its answer is on the way is spent all the same', async () => {
  const windows = new FixedWindows();
  let asked = 0;
  // Each answer arrives after its window (1 ms) has ended.
  const counter = new LeasedCounter(
    async (subject, want, least) => (asked++, windows.take(subject, want, least, 3, 1, Date.now() - 5)),
    3,
    1,
  );
  const r = await counter.count('key', 1);
  assert.equal(r?.exceeded, false);
  assert.equal(asked, 1);
});

test('leases: no answer from the primary lets the request pass (fail open)', async () => {
  const counter = new LeasedCounter(async () => undefined, 10, 2);
  assert.equal(await counter.count('key', 1), undefined);
});

const log = { warn: () => undefined } as unknown as FastifyBaseLogger;
const requestFrom = (ip: string) => ({ ip }) as FastifyRequest;
function replyRecorder(): { reply: FastifyReply; headers: Record<string, unknown> } {
  const headers: Record<string, unknown> = {};
  const reply = { header: (name: string, value: unknown) => ((headers[name] = value), reply) } as unknown as FastifyReply;
  return { reply, headers };
}

test('failed authentications: the one that fills the window answers 401 and is announced; one past the limit answers 429', async () => {
  const answers: LimitCount[] = [
    { limit: 2, remaining: 1, exceeded: false, resetMs: 60_000 },
    { limit: 2, remaining: 0, exceeded: false, resetMs: 59_000 },
    { limit: 2, remaining: 0, exceeded: true, resetMs: 58_500 },
  ];
  const announced: string[] = [];
  const limiter = new AuthFailureLimiter(
    async () => answers.shift(),
    log,
    async (address) => void announced.push(address),
  );
  const { reply, headers } = replyRecorder();
  await limiter.failed(requestFrom('192.0.2.1'), reply);
  await limiter.failed(requestFrom('192.0.2.1'), reply);
  assert.deepEqual(announced, ['192.0.2.1']);
  assert.throws(
    () => limiter.check(requestFrom('192.0.2.1'), reply),
    (err: unknown) => err instanceof AppError && err.code === 'TooManyRequests',
  );
  limiter.check(requestFrom('192.0.2.2'), reply);
  // Another process whose own block has not arrived yet: the failure it counts past the limit is refused.
  const other = new AuthFailureLimiter(async () => answers.shift(), log);
  await assert.rejects(
    other.failed(requestFrom('192.0.2.1'), reply),
    (err: unknown) => err instanceof AppError && err.code === 'TooManyRequests',
  );
  assert.equal(headers['retry-after'], 59);
  assert.throws(
    () => other.check(requestFrom('192.0.2.1'), reply),
    (err: unknown) => err instanceof AppError,
  );
});

test('failed authentications: a block told by another process is kept until its end', () => {
  const limiter = new AuthFailureLimiter(async () => undefined, log);
  const { reply } = replyRecorder();
  limiter.block('192.0.2.9', Date.now() + 60_000);
  assert.throws(() => limiter.check(requestFrom('192.0.2.9'), reply));
  limiter.block('192.0.2.10', Date.now() - 1);
  limiter.check(requestFrom('192.0.2.10'), reply);
});
