import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { test } from 'node:test';
import { promisify } from 'node:util';

const run = promisify(execFile);
const MODULE = new URL('../../src/heap-settings.js', import.meta.url).href;

/** Runs `body` in a fresh Node process (a heap of its own) with the module as `h` and v8 as `v8`; returns what it printed as JSON. */
async function inFreshProcess(body: string): Promise<Record<string, number>> {
  const script = `const h = await import(${JSON.stringify(MODULE)}); const v8 = await import('node:v8');
const space = (name) => v8.getHeapSpaceStatistics().find((s) => s.space_name === name).space_size / 1048576;
const used = () => v8.getHeapStatistics().used_heap_size / 1048576;
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
let garbage = [];
for (let i = 0; i < 1_000_000; i++) garbage.push({ i, text: 'x' + i });
garbage = undefined;
out.beforeStart = used();
const stop = h.collectWhenIdle();
out.afterStart = used();
garbage = [];
for (let i = 0; i < 1_000_000; i++) garbage.push({ i, text: 'y' + i });
garbage = undefined;
// Work: the loop busy for over a second (allocating little), then quiet.
for (const end = Date.now() + 1500; Date.now() < end; ) await new Promise((r) => setImmediate(r));
out.afterWork = used();
await new Promise((r) => setTimeout(r, 5000));
out.afterQuiet = used();
stop();`);
  assert.ok(out.beforeStart! - out.afterStart! > 30, `start: ${out.beforeStart} → ${out.afterStart} MB`);
  assert.ok(out.afterWork! - out.afterQuiet! > 30, `quiet: ${out.afterWork} → ${out.afterQuiet} MB`);
});
