import { existsSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import type { Config } from '../config.js';

/** One CLI command: `words` as typed (`keys create`), its usage line and what it runs. */
export interface Command {
  readonly words: readonly string[];
  readonly usage: string;
  readonly summary: string;
  run(args: string[], config: Config): Promise<number | void>;
}

/** A usage mistake: printed with the command's usage, exit code 2. */
export class UsageError extends Error {}

/** An input file named on the command line; a missing one is a usage mistake, worded alike by every command. */
export function existingFile(path: string): string {
  if (!existsSync(path) || !statSync(path).isFile()) throw new UsageError(`no such file: ${path}`);
  return path;
}

/** An output file whose directory must exist: a mistyped directory is refused, not created. */
export function inExistingDirectory(path: string): string {
  const dir = dirname(resolve(path));
  if (!existsSync(dir) || !statSync(dir).isDirectory()) throw new UsageError(`no such directory: ${dir}`);
  return path;
}
