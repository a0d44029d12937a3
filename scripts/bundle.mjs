// Links the compiled service (dist/, from tsc) into a few files in dist/bin/, which bin/ordergate.js
// runs. Node loads an ES module file by file: kysely alone is 262 files and TypeBox 200, so a
// command spent more CPU loading modules (about 0.3 s) than working. Bundled, a command starts in
// about 0.15 s. Packages that find files of their own at run time (native addons, swagger-ui's
// assets, pino's worker files, optional requires) stay external and load from node_modules.
// Like `tsc --build`, it writes nothing when dist/bin/ is newer than everything it is made from.
import { existsSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';

const OUT = 'dist/bin';
const BUNDLED = new Set(['kysely', '@sinclair/typebox', 'csv-parse', 'ibantools']);
const { dependencies } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
const external = Object.keys(dependencies).filter((name) => !BUNDLED.has(name));

function newestInput(dir = 'dist') {
  let newest = Math.max(statSync('package-lock.json').mtimeMs, statSync(new URL(import.meta.url)).mtimeMs);
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      if (path !== OUT) newest = Math.max(newest, newestInput(path));
    } else if (entry.name.endsWith('.js')) newest = Math.max(newest, statSync(path).mtimeMs);
  }
  return newest;
}

const main = join(OUT, 'main.js');
if (existsSync(main) && statSync(main).mtimeMs >= newestInput()) process.exit(0);

// Chunk names carry a hash: chunks of an earlier build would stay behind.
rmSync(OUT, { recursive: true, force: true });
await build({
  // Entries whose files are found by name at run time: the write thread's worker, and the module
  // that worker imports for the list of writes (src/write-registry.ts).
  entryPoints: {
    main: 'dist/cli/main.js',
    'write-thread.worker': 'dist/writes/write-thread.worker.js',
    'write-registry': 'dist/write-registry.js',
  },
  outdir: OUT,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  external: [...external, ...external.map((name) => `${name}/*`)],
  logLevel: 'warning',
});
