import { existsSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { parseArgs, type ParseArgsConfig } from 'node:util';
import type { Config } from '../config.js';
import { AppError } from '../errors.js';

/** What a command runs, given the arguments after its words; resolves to the exit code (void: 0, -1: keep running). */
export type RunCommand = (args: string[], config: Config) => Promise<number | void>;

/**
 * One CLI command as listed in commands.ts: `words` as typed (`keys create`), its usage line, and
 * `load`, which imports the module that runs it only when it runs.
 */
export interface Command {
  readonly words: readonly string[];
  readonly usage: string;
  readonly summary: string;
  load(): Promise<RunCommand>;
}

/** A usage mistake: printed with the command's usage, exit code 2. */
export class UsageError extends Error {}

/**
 * A refusal of the service in the CLI's terms: bad input is a usage mistake of the command (its
 * message and usage line, exit 2); an unknown resource is a failure with its message (exit 1).
 */
export async function refusalInCliTerms<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (err) {
    if (err instanceof AppError && err.kind === 'validation') throw new UsageError(err.message);
    if (err instanceof AppError && err.kind === 'not-found') throw new Error(err.message, { cause: err });
    throw err;
  }
}

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

/**
 * node:util's parseArgs, except that a negative number after a flag that takes a value is that value
 * (`--sort -2`, `--customers -5`), so the command's own check can name what is wrong with it.
 */
export function parseCommandArgs<T extends ParseArgsConfig>(config: T): ReturnType<typeof parseArgs<T>> {
  const valued = new Set(
    Object.entries(config.options ?? {})
      .filter(([, o]) => o.type === 'string')
      .map(([name]) => `--${name}`),
  );
  const args: string[] = [];
  const given = config.args ?? [];
  for (let i = 0; i < given.length; i++) {
    const arg = given[i]!;
    const next = given[i + 1];
    if (valued.has(arg) && next !== undefined && /^-\d/.test(next)) {
      args.push(`${arg}=${next}`);
      i++;
    } else args.push(arg);
  }
  return parseArgs<T>({ ...config, args });
}
