import type { Transaction } from 'kysely';
import type { Database } from '../../src/store/database.js';
import type { DbHandle } from '../../src/store/store.js';

/** The stamp and time every call passes: fixed, so that the snapshot is the same on every run. */
export const STAMP = 1_700_000_000_000;

/** What a recorded call gets: a transaction on the recording store, as the backend's handle. */
export interface CallContext {
  readonly db: DbHandle<Transaction<Database>>;
}

/** One call of a repository function with representative arguments; `args` names their shape. */
export interface SnapshotCall {
  readonly args: string;
  readonly run: (c: CallContext) => Promise<unknown>;
}

export const call = (args: string, run: SnapshotCall['run']): SnapshotCall => ({ args, run });

/** One or more calls for every function of `R`: the compiler refuses a function left out. */
export type CallsOf<R> = { readonly [K in keyof R]: readonly SnapshotCall[] };

/** A repository module and the calls that show its SQL, keyed as the snapshot names them. */
export interface SnapshotSource {
  /** The module's path from the project root; its file name names the snapshot. */
  readonly source: string;
  /** The module's exports, to find every function it offers (see exportedFunctions). */
  readonly exports: object;
  /** `object.function` (or a plain exported function's name) → its calls. */
  readonly calls: Readonly<Record<string, readonly SnapshotCall[]>>;
  /** Exported functions that only build a query, with what runs it (their SQL shows there). */
  readonly builders?: Readonly<Record<string, string>>;
}

/** The calls of a repository object, keyed `name.function`. */
export function objectCalls<R extends object>(name: string, _repository: R, calls: CallsOf<R>): Record<string, readonly SnapshotCall[]> {
  return Object.fromEntries(Object.entries(calls).map(([fn, list]) => [`${name}.${fn}`, list as readonly SnapshotCall[]]));
}

/**
 * Every function a module exports, plain (`nextStamp`) or as a member of an exported object
 * (`customerRepository.findById`): what the snapshot must cover.
 */
export function exportedFunctions(exports: object): string[] {
  const names: string[] = [];
  for (const [name, value] of Object.entries(exports) as [string, unknown][]) {
    if (typeof value === 'function') names.push(name);
    else if (value !== null && typeof value === 'object') {
      for (const [member, fn] of Object.entries(value)) if (typeof fn === 'function') names.push(`${name}.${member}`);
    }
  }
  return names.sort();
}
