import { sql, type RawBuilder } from 'kysely';
import type { Dialect } from './store.js';

/** The larger of two numeric expressions: max(a, b) on SQLite, GREATEST(a, b) on PostgreSQL. */
export function greatest(dialect: Dialect, a: RawBuilder<number> | number, b: RawBuilder<number> | number): RawBuilder<number> {
  return dialect === 'sqlite' ? sql<number>`max(${a}, ${b})` : sql<number>`greatest(${a}, ${b})`;
}
