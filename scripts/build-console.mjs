// Builds the operator console (console/) into dist/console-app/: type-checks it with its own tsconfig,
// bundles it with esbuild (Preact's JSX, one script and one style sheet, names carrying a hash of
// their content so the service can let browsers cache them for good) and writes manifest.json
// naming the entry files, from which the service renders the console's page under BASE_PATH.
// Like bundle.mjs, it writes nothing when dist/console-app/ is newer than everything it is made from.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { build } from 'esbuild';

// Not dist/console/: tsc writes src/console/'s modules there, and this script empties its folder.
const OUT = 'dist/console-app';
const MANIFEST = join(OUT, 'manifest.json');

function newest(path) {
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(stat.mtimeMs, ...readdirSync(path).map((name) => newest(join(path, name))));
}

const inputs = Math.max(newest('console'), statSync('package-lock.json').mtimeMs, statSync(new URL(import.meta.url)).mtimeMs);
if (existsSync(MANIFEST) && statSync(MANIFEST).mtimeMs >= inputs) process.exit(0);

execFileSync(process.execPath, ['node_modules/typescript/bin/tsc', '-p', 'console/tsconfig.json'], { stdio: 'inherit' });

rmSync(OUT, { recursive: true, force: true });
mkdirSync(OUT, { recursive: true });
const result = await build({
  entryPoints: { console: 'console/src/main.tsx' },
  outdir: join(OUT, 'assets'),
  entryNames: '[name]-[hash]',
  assetNames: '[name]-[hash]',
  bundle: true,
  minify: true,
  format: 'esm',
  platform: 'browser',
  target: ['chrome111', 'firefox115', 'safari16'],
  jsx: 'automatic',
  jsxImportSource: 'preact',
  metafile: true,
  legalComments: 'none',
  logLevel: 'warning',
});
const outputs = Object.keys(result.metafile.outputs).map((path) => basename(path));
const script = outputs.find((name) => name.endsWith('.js'));
const style = outputs.find((name) => name.endsWith('.css'));
if (!script || !style) throw new Error(`the console's build wrote no script or no style sheet: ${outputs.join(', ')}`);
writeFileSync(MANIFEST, `${JSON.stringify({ script, style }, null, 2)}\n`);
