// Runs the compiled test files for `npm test`, the heavy ones first (in the order of scripts/heavy-tests.txt),
// then the rest in name order. With a fixed number of files running at once, a long file that starts last
// sets the tail of the run; started first, it runs alongside the many short ones. `node --test <files>` sorts
// the files it is given by name, so the run is started through node:test's run(), which keeps their order.
// Reports as `node --test --test-reporter=spec` to stdout and scripts/skip-guard.mjs to stderr; the exit code
// is 1 when a test failed.
//
//   node scripts/run-tests.mjs            run them (4 files at a time, 300 s per test)
//   node scripts/run-tests.mjs --list     print the files in the order they start
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { run } from 'node:test';
import { spec } from 'node:test/reporters';
import skipGuard from './skip-guard.mjs';

const CONCURRENCY = 4;
const TEST_TIMEOUT_MS = 300_000;
const root = new URL('..', import.meta.url).pathname;

/** Every `*.test.ts` under test/, as a path relative to the checkout. */
function sourceTestFiles(dir) {
  const found = [];
  for (const entry of readdirSync(join(root, dir), { withFileTypes: true })) {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory()) found.push(...sourceTestFiles(path));
    else if (entry.name.endsWith('.test.ts')) found.push(path);
  }
  return found;
}

/** The compiled test files, heavy ones first (a listed path that no longer exists is left out). */
function testFilesLongestFirst() {
  const all = sourceTestFiles('test').sort();
  const present = new Set(all);
  const heavy = readFileSync(join(root, 'scripts/heavy-tests.txt'), 'utf8')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#') && present.has(line));
  const first = new Set(heavy);
  // tsconfig.test.json compiles the checkout into build/test, so test/x.test.ts becomes build/test/test/x.test.js.
  return [...heavy, ...all.filter((path) => !first.has(path))].map((path) => `build/test/${path.replace(/\.ts$/, '.js')}`);
}

// Node 22.1 and later keep the compiled code of the modules they load in this directory and reuse it in
// the next process (NODE_COMPILE_CACHE, which Node 20 ignores): every test file, and every server, CLI
// command and write thread the tests start, loads the same few hundred modules again.
process.env.NODE_COMPILE_CACHE ??= join(root, 'build/compile-cache');

const files = testFilesLongestFirst();
if (process.argv.includes('--list')) {
  process.stdout.write(`${files.join('\n')}\n`);
} else {
  const events = run({ files: files.map((file) => join(root, file)), concurrency: CONCURRENCY, timeout: TEST_TIMEOUT_MS });
  // A failing todo test does not fail the run, as under `node --test`.
  events.on('test:fail', (data) => {
    if (data.todo === undefined) process.exitCode = 1;
  });
  const toSpec = new PassThrough({ objectMode: true });
  const toSkipGuard = new PassThrough({ objectMode: true });
  events.pipe(toSpec);
  events.pipe(toSkipGuard);
  toSpec.pipe(new spec()).pipe(process.stdout);
  toSkipGuard.compose(skipGuard).pipe(process.stderr);
}
