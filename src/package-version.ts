import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The `version` of package.json ('0.0.0' when it cannot be read). Read from the file rather than
 * imported: the build's rootDir is src/, and package.json sits outside it. The nearest one above
 * this module: src/ and dist/ sit one level below it, the tests' build (build/test/src/) three.
 */
export function packageVersion(): string {
  try {
    let dir = dirname(fileURLToPath(import.meta.url));
    while (!existsSync(join(dir, 'package.json')) && dirname(dir) !== dir) dir = dirname(dir);
    const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { version?: string };
    return pkg.version ?? '0.0.0';
  } catch {
    return '0.0.0';
  }
}
