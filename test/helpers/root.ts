import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';

/**
 * The checkout's root: the nearest folder above this file that holds package.json. Tests run from
 * their sources (`npm run test:only`, tsx) and compiled to build/test/test/ (`npm test`), so a path
 * relative to a test file points elsewhere in each case; paths to anything outside test/'s modules
 * (bin/, README.md, scripts, fixtures that are not TypeScript) start here.
 */
function findRoot(from: string): string {
  for (let dir = from; ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'package.json'))) return dir;
    if (dirname(dir) === dir) throw new Error(`no package.json above ${from}`);
  }
}

export const ROOT = findRoot(import.meta.dirname);

/** The built CLI (dist/bin/; `npm test` builds first, run `npm run build` before running one file by hand). */
export const BIN = join(ROOT, 'bin/ordergate.js');
