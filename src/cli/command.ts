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
