import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { test } from 'node:test';

const run = promisify(execFile);
const moduleUrl = (relative: string): string => new URL(relative, import.meta.url).href;

/**
 * A process whose threads freed 48 MB of small blocks below one block still in use (so that glibc
 * cannot return them from the top of the heap by itself): the main thread into the main heap, a
 * worker thread into its own arena. It prints the resident size of both before and after
 * releaseFreedMemory(), read from its own smaps as `npm run bench` reads a worker's.
 */
const CHILD = `
import { Worker } from 'node:worker_threads';
import { releaseFreedMemory } from '${moduleUrl('../../src/freed-memory.js')}';
import { readMemoryBudget } from '${moduleUrl('../../bench/lib/memory-budget.js')}';

const FILL = 'const blocks = []; for (let i = 0; i < 3072; i++) blocks.push(Buffer.allocUnsafeSlow(16384).fill(1));' +
  'const fence = Buffer.allocUnsafeSlow(64).fill(1); blocks.length = 0; gc(); gc();';
eval(FILL);
const worker = new Worker(FILL + "process.getBuiltinModule('node:worker_threads').parentPort.postMessage(fence.length); setInterval(() => {}, 1000);", { eval: true });
await new Promise((resolve) => worker.once('message', resolve));
await new Promise((resolve) => setTimeout(resolve, 200));
const parts = () => readMemoryBudget(process.pid).parts;
const before = parts();
const asked = releaseFreedMemory();
const after = parts();
process.stdout.write(JSON.stringify({ asked, before, after }));
await worker.terminate();
`;

test('releaseFreedMemory gives back the pages freed in the middle of the main heap and of a thread arena', async () => {
  const { stdout } = await run(process.execPath, ['--expose-gc', '--input-type=module', '-e', CHILD], {
    cwd: fileURLToPath(new URL('.', import.meta.url)),
  });
  const { asked, before, after } = JSON.parse(stdout) as {
    asked: boolean;
    before: Record<'mallocHeap' | 'threadArenas', number>;
    after: Record<'mallocHeap' | 'threadArenas', number>;
  };
  assert.equal(asked, true, 'malloc_trim was not reachable on this Linux');
  // 48 MB freed in each; at least half of it must have been resident before and gone after.
  assert.ok(before.mallocHeap - after.mallocHeap >= 24, `main heap ${before.mallocHeap} → ${after.mallocHeap} MB`);
  assert.ok(before.threadArenas - after.threadArenas >= 24, `thread arenas ${before.threadArenas} → ${after.threadArenas} MB`);
});
