import type { ImportFormat } from './import-read.js';

/** Rows per write transaction: each commits with one stamp; other writers get a turn in between. */
export const BATCH = 5000;
/** Invalid rows whose messages are kept for the report (all of them are counted). */
export const KEPT_MESSAGES = 1000;

export interface ImportOptions {
  readonly format: ImportFormat;
  /** Import the valid rows of a file that has invalid ones (otherwise such a file imports nothing). */
  readonly skipInvalid: boolean;
  readonly onProgress?: (phase: 'check' | 'write', done: number, total: number) => void;
}

export interface ImportReport {
  /** Problems of the file as a whole (header, broken CSV quoting): nothing was imported. */
  readonly fileProblems: readonly string[];
  readonly records: number;
  readonly invalidCount: number;
  /** The first invalid rows, by line number, each with its problems. */
  readonly invalid: ReadonlyArray<{ readonly line: number; readonly problems: readonly string[] }>;
  readonly imported: number;
  /** Set when writing failed part-way (the batches before it are committed; a re-run is safe). */
  readonly failure?: string;
}

/**
 * Rows from which an import is a bulk load whose text indexes are settled afterwards
 * (Store.settleTextIndexes): fewer leave the index as any writes do, where settling one of 10^6
 * orders takes seconds.
 */
export const BULK_LOAD_ROWS = 10_000;
