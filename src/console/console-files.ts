import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** One built file of the console, held in memory: the console is a few small files. */
export interface ConsoleAsset {
  readonly body: Buffer;
  readonly type: string;
}

/** The console as built by scripts/build-console.mjs: its hashed assets and its entry files. */
export interface ConsoleBuild {
  readonly assets: ReadonlyMap<string, ConsoleAsset>;
  readonly script: string;
  readonly style: string;
}

const TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.woff2': 'font/woff2',
};

/** The package's root: the nearest directory above this module holding package.json (src/, dist/bin/, build/test/src/ all work). */
function packageRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, 'package.json')) && dirname(dir) !== dir) dir = dirname(dir);
  return dir;
}

/** Where `npm run build` puts the console. */
export const consoleDir = (): string => join(packageRoot(), 'dist', 'console-app');

/**
 * Reads the built console once (undefined when it was not built: the service then answers 404
 * under /console/ and says why in its log). The manifest names the entry files, whose names carry
 * a hash of their content, so they can be cached for good.
 */
export function loadConsoleBuild(dir = consoleDir()): ConsoleBuild | undefined {
  const manifestPath = join(dir, 'manifest.json');
  if (!existsSync(manifestPath)) return undefined;
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as { script: string; style: string };
  const assets = new Map<string, ConsoleAsset>();
  const assetDir = join(dir, 'assets');
  for (const name of readdirSync(assetDir)) {
    const type = TYPES[extname(name)];
    if (type) assets.set(name, { body: readFileSync(join(assetDir, name)), type });
  }
  return { assets, script: manifest.script, style: manifest.style };
}
