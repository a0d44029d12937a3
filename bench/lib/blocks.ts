import { existsSync, readFileSync, writeFileSync } from 'node:fs';

// BENCHMARKS.md holds sections written by different commands (`bench`, `bench:scale`); each lives
// between its own markers, so that one command rewrites its section and keeps the others.
const start = (name: string): string => `<!-- ${name}:start -->`;
const end = (name: string): string => `<!-- ${name}:end -->`;

export function readBlock(file: string, name: string): string | undefined {
  if (!existsSync(file)) return undefined;
  const text = readFileSync(file, 'utf8');
  const a = text.indexOf(start(name));
  const b = text.indexOf(end(name));
  return a === -1 || b === -1 || b < a ? undefined : text.slice(a, b + end(name).length);
}

export const wrapBlock = (name: string, body: string): string => `${start(name)}\n${body.trim()}\n${end(name)}`;

/** Replaces the named section of the file (or appends it), leaving the rest as it was. */
export function writeBlock(file: string, name: string, body: string): void {
  const block = wrapBlock(name, body);
  const text = existsSync(file) ? readFileSync(file, 'utf8') : '# Benchmarks\n';
  const old = readBlock(file, name);
  // A function as the replacement: `$&` or `$'` in a note of the block must stay as written.
  writeFileSync(file, old ? text.replace(old, () => block) : `${text.trimEnd()}\n\n${block}\n`);
}

/** The JSON data stored in a section as `<!-- data {...} -->`. */
export function blockData<T>(block: string | undefined): T | undefined {
  const m = block ? /<!-- data\n([\s\S]*?)\n-->/.exec(block) : null;
  if (!m) return undefined;
  try {
    return JSON.parse(m[1]!) as T;
  } catch {
    return undefined;
  }
}

export const dataComment = (data: unknown): string => `<!-- data\n${JSON.stringify(data)}\n-->`;
