// Run by `npm run build:test`, after tsc: kysely and TypeBox, each linked into one file under
// build/test/node_modules/, where the compiled tests, the service code they load and the SQLite write
// threads they start find them before the installed packages. Node loads an ES module file by file
// (kysely is 262 files, TypeBox 200): unbundled, the two cost every test process and every write
// thread a quarter of a second of CPU or more. The service's own bundle links them the same way
// (scripts/bundle.mjs).
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';

const OUT = 'build/test/node_modules';

for (const name of ['kysely', '@sinclair/typebox']) {
  const dir = join(OUT, name);
  mkdirSync(dir, { recursive: true });
  const { version } = JSON.parse(readFileSync(join('node_modules', name, 'package.json'), 'utf8'));
  await build({
    stdin: { contents: `export * from '${name}';`, resolveDir: process.cwd() },
    outfile: join(dir, 'index.js'),
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    logLevel: 'warning',
  });
  writeFileSync(join(dir, 'package.json'), `${JSON.stringify({ name, version, type: 'module', exports: './index.js' }, null, 2)}\n`);
}
