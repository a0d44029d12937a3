import { readFileSync } from 'node:fs';

/**
 * The `version` of package.json ('0.0.0' when it cannot be read). Read from the file rather than
 * imported: the build's rootDir is src/, and package.json sits outside it.
 */
export function packageVersion(): string {
  try {
    // src/ and dist/ both sit one level below package.json.
    const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version?: string };
    return pkg.version ?? '0.0.0';
  } catch {
    return '0.0.0';
  }
}
