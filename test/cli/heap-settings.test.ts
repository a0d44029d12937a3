import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { test } from 'node:test';
import { promisify } from 'node:util';

const run = promisify(execFile);
const MODULE = new URL('../../src/heap-settings.js', import.meta.url).href;

/**
 * Runs `body` in a fresh Node process (a heap of its own) with the module as `h`, v8 as `v8` and an
 * emitter standing for the HTTP server as `requests`; returns what it printed as JSON.
 */
async function inFreshProcess(body: string): Promise<Record<string, number>> {
  const script = `const h = await import(${JSON.stringify(MODULE)}); const v8 = await import('node:v8');
const { EventEmitter } = await import('node:events');
const requests = new EventEmitter();
const space = (name) => v8.getHeapSpaceStatistics().find((s) => s.space_name === name).space_size / 1048576;
const used = () => v8.getHeapStatistics().used_heap_size / 1048576;
// Collections asked for (forced), as V8 reports them: V8 may also collect on its own meanwhile.
const { PerformanceObserver, constants } = await import('node:perf_hooks');
let forced = 0;
new PerformanceObserver((list) => {
  for (const e of list.getEntries()) if (e.detail.kind === constants.NODE_PERFORMANCE_GC_MAJOR && e.detail.flags & constants.NODE_PERFORMANCE_GC_FLAGS_FORCED) forced++;
}).observe({ entryTypes: ['gc'] });
const out = {};
${body}
process.stdout.write(JSON.stringify(out));`;
  const { stdout } = await run(process.execPath, ['--input-type=module', '-e', script], { timeout: 60_000 });
  return JSON.parse(stdout) as Record<string, number>;
}

test('the young generation keeps its initial size while held, and grows under load once released', async () => {
  const out = await inFreshProcess(`
h.holdYoungGeneration();
const kept = [];
for (let i = 0; i < 1_000_000; i++) kept.push({ i, text: 'x' + i });
out.held = space('new_space');
h.releaseYoungGeneration();
const more = [];
for (let i = 0; i < 1_000_000; i++) more.push({ i, text: 'y' + i });
out.released = space('new_space');
out.kept = kept.length + more.length;`);
  assert.equal(out.kept, 2_000_000);
  // Semi-spaces of 1 MB each at the start; V8's default lets them double up to 16 MB.
  assert.ok(out.held! <= 4, `held: ${out.held} MB`);
  assert.ok(out.released! >= 8, `released: ${out.released} MB`);
});

test('the heap is collected when watching starts, and again once the process is quiet after work', async () => {
  const out = await inFreshProcess(`
const settle = () => new Promise((r) => setTimeout(r, 200));
const stop = h.collectWhenIdle(requests);
await settle();
out.atStart = forced;
// Work: the loop busy for over a second, then quiet.
let garbage;
for (const end = Date.now() + 1500; Date.now() < end; ) {
  garbage = [];
  for (let i = 0; i < 10_000; i++) garbage.push({ i });
  await new Promise((r) => setImmediate(r));
}
await settle();
out.afterWork = forced;
// Four quiet seconds, and the collection: on a busy machine the loop's samples may come late.
for (const end = Date.now() + 20_000; Date.now() < end && forced === out.afterWork; ) await new Promise((r) => setTimeout(r, 500));
await settle();
out.afterQuiet = forced;
// Longer than the four quiet samples a second collection would wait for.
await new Promise((r) => setTimeout(r, 7000));
out.later = forced;
stop();
out.kept = garbage.length;`);
  assert.equal(out.atStart, 1);
  assert.equal(out.afterWork, 1);
  assert.equal(out.afterQuiet, 2);
  // Once per quiet stretch: no further collection while nothing happens.
  assert.equal(out.later, 2);
});

test('once quiet after work, the young generation the work grew is shrunk to its initial size', async () => {
  const out = await inFreshProcess(`
const stop = h.collectWhenIdle(requests);
// Work: objects kept across scavenges, so that V8 grows the young generation.
let garbage;
for (const end = Date.now() + 1500; Date.now() < end; ) {
  garbage = [];
  for (let i = 0; i < 200_000; i++) garbage.push({ i, text: 'y' + i });
  await new Promise((r) => setImmediate(r));
}
out.kept = garbage.length;
garbage = undefined;
out.afterWork = space('new_space');
// The idle collection after four quiet seconds, V8's memory reducer about 8 s after it.
for (const end = Date.now() + 30_000; Date.now() < end && space('new_space') > 2; ) await new Promise((r) => setTimeout(r, 500));
out.afterQuiet = space('new_space');
stop();`);
  assert.equal(out.kept, 200_000);
  assert.ok(out.afterWork! >= 8, `young generation after work: ${out.afterWork} MB`);
  assert.ok(out.afterQuiet! <= 2, `young generation once quiet: ${out.afterQuiet} MB`);
});

test('a quiet stretch optimises for size until its first request, and the collection is not taken for work', async () => {
  const out = await inFreshProcess(`
// Live objects enough that a full collection stops the loop for a good part of a one-second sample.
const live = [];
for (let i = 0; i < 3_000_000; i++) live.push({ i, next: null });
const stop = h.collectWhenIdle(requests);
out.listenersBusy = requests.listenerCount('request');
for (const end = Date.now() + 1500; Date.now() < end; ) {
  for (let i = 0; i < 10_000; i++) live[i] = { i, next: live[i + 1] };
  await new Promise((r) => setImmediate(r));
}
for (const end = Date.now() + 20_000; Date.now() < end && requests.listenerCount('request') === 0; ) await new Promise((r) => setTimeout(r, 200));
out.listenersQuiet = requests.listenerCount('request');
// The observer hears of the collection a moment after it.
await new Promise((r) => setTimeout(r, 300));
const collected = forced;
// Quiet on: the collection's own pause must not count as work that a further collection follows
// (one would come four quiet samples after it).
await new Promise((r) => setTimeout(r, 7000));
out.furtherCollections = forced - collected;
requests.emit('request');
out.listenersAfterRequest = requests.listenerCount('request');
stop();
out.kept = live.length;`);
  assert.equal(out.kept, 3_000_000);
  assert.equal(out.listenersBusy, 0);
  assert.equal(out.listenersQuiet, 1);
  assert.equal(out.furtherCollections, 0);
  assert.equal(out.listenersAfterRequest, 0);
});
