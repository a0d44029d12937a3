import { CompiledQuery, PostgresAdapter, type QueryResult } from 'kysely';
import type { Executor } from './store.js';

// PostgreSQL texts by their `?` form. Callers pass constant texts or texts cached by shape, so
// the map stays small; beyond the limit new shapes are converted on each use instead of kept.
const MAX_CACHED = 256;
const postgresText = new Map<string, string>();

function numbered(text: string): string {
  let cached = postgresText.get(text);
  if (cached === undefined) {
    let n = 0;
    cached = text.replace(/\?/g, () => `$${++n}`);
    if (postgresText.size < MAX_CACHED) postgresText.set(text, cached);
  }
  return cached;
}

/**
 * Runs SQL written once by hand, with `?` placeholders (PostgreSQL gets them numbered), instead of
 * building it with Kysely per call: on a hot write path the builder and compiler cost more than
 * SQLite needs to run the statement. The text must hold no `?` other than placeholders.
 */
export function runSql<R>(db: Executor, text: string, params: readonly unknown[]): Promise<QueryResult<R>> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  return db.executeQuery<R>(CompiledQuery.raw(postgres ? numbered(text) : text, params as unknown[]));
}

/** `?, ?, …`: n placeholders, for an `in (…)` list. */
export function placeholders(n: number): string {
  return n === 1 ? '?' : `?${', ?'.repeat(n - 1)}`;
}
