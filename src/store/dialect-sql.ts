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

/**
 * Aggregates rows into one JSON array of `[key, value]` pairs, `value` being a column that holds
 * JSON text: json_group_array on SQLite (JSON text, `[]` over no rows), json_agg on PostgreSQL
 * (parsed by the driver, null over no rows).
 */
export function jsonPairsAgg(dialect: Dialect, keyColumn: string, jsonColumn: string): RawBuilder<string | unknown[] | null> {
  const key = sql.ref(keyColumn);
  const value = sql.ref(jsonColumn);
  return dialect === 'sqlite'
    ? sql`json_group_array(json_array(${key}, json(${value})))`
    : sql`json_agg(json_build_array(${key}, ${value}::json))`;
}
