import type { SqliteDatabase as KyselySqliteDatabase } from 'kysely';
import type { SqliteDatabase, SqliteStatement } from './sqlite-driver.js';

const MAX_STATEMENTS = 500;

/** A statement whose text starts with this hands back its rows as arrays (StoreSql.rows). */
export const ARRAY_ROWS = '/* rows as arrays */ ';

/** A Kysely SQLite database whose connection can be replaced between queries. */
export interface ReopenableDatabase extends KyselySqliteDatabase {
  /** Closes the connection and opens a new one (prepared statements are dropped with it). */
  reopen(): void;
}

/**
 * A better-sqlite3 connection for Kysely that reuses prepared statements by SQL text. Kysely
 * prepares every query afresh, and preparing costs as much as running a small indexed read.
 * Reuse is safe: Kysely runs one query at a time per connection (a stream holds the connection
 * until it ends), and SQLite re-prepares a statement by itself after a schema change. Least
 * recently used statements are dropped beyond MAX_STATEMENTS (variable `in (…)` lists vary).
 */
export function cachingStatements(open: () => SqliteDatabase): ReopenableDatabase {
  let conn = open();
  let cache = new Map<string, SqliteStatement>();
  return {
    close: () => void conn.close(),
    reopen() {
      const fresh = open();
      const old = conn;
      conn = fresh;
      cache = new Map();
      old.close();
    },
    prepare(sql) {
      let stmt = cache.get(sql);
      if (stmt) {
        cache.delete(sql);
      } else {
        stmt = conn.prepare(sql);
        if (sql.startsWith(ARRAY_ROWS)) stmt.raw(true);
        if (cache.size >= MAX_STATEMENTS) cache.delete(cache.keys().next().value!);
      }
      cache.set(sql, stmt);
      return stmt;
    },
  };
}
