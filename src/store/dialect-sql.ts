import { sql, type RawBuilder, type Transaction } from 'kysely';
import type { Database } from './database.js';
import type { Dialect } from './store.js';

/** The larger of two numeric expressions: max(a, b) on SQLite, GREATEST(a, b) on PostgreSQL. */
export function greatest(dialect: Dialect, a: RawBuilder<number> | number, b: RawBuilder<number> | number): RawBuilder<number> {
  return dialect === 'sqlite' ? sql<number>`max(${a}, ${b})` : sql<number>`greatest(${a}, ${b})`;
}

/**
 * Locks the selected rows until the transaction ends (FOR SHARE / FOR UPDATE) on PostgreSQL.
 * SQLite has no row locks and needs none: a write transaction there holds the whole database.
 */
export function lockRows<QB extends { forShare(): QB; forUpdate(): QB }>(dialect: Dialect, query: QB, mode: 'share' | 'update'): QB {
  if (dialect === 'sqlite') return query;
  return mode === 'share' ? query.forShare() : query.forUpdate();
}

/**
 * Makes concurrent writers of one table queue until the transaction ends, so a check-then-insert
 * is safe across processes. PostgreSQL: SHARE ROW EXCLUSIVE (reads go on). SQLite: nothing to do,
 * its write transaction (BEGIN IMMEDIATE) already holds the whole database.
 */
export async function lockTable(dialect: Dialect, trx: Transaction<Database>, table: keyof Database & string): Promise<void> {
  if (dialect === 'sqlite') return;
  await sql`lock table ${sql.table(table)} in share row exclusive mode`.execute(trx);
}
