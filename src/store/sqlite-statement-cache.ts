import type BetterSqlite3 from 'better-sqlite3';
import type { SqliteDatabase } from 'kysely';

const MAX_STATEMENTS = 500;

/**
 * A better-sqlite3 connection for Kysely that reuses prepared statements by SQL text. Kysely
 * prepares every query afresh, and preparing costs as much as running a small indexed read.
 * Reuse is safe: Kysely runs one query at a time per connection (a stream holds the connection
 * until it ends), and SQLite re-prepares a statement by itself after a schema change. Least
 * recently used statements are dropped beyond MAX_STATEMENTS (variable `in (…)` lists vary).
 */
export function cachingStatements(conn: BetterSqlite3.Database): SqliteDatabase {
  const cache = new Map<string, BetterSqlite3.Statement>();
  return {
    close: () => void conn.close(),
    prepare(sql) {
      let stmt = cache.get(sql);
      if (stmt) {
        cache.delete(sql);
      } else {
        stmt = conn.prepare(sql);
        if (cache.size >= MAX_STATEMENTS) cache.delete(cache.keys().next().value!);
      }
      cache.set(sql, stmt);
      return stmt;
    },
  };
}
