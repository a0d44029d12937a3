import type { SqliteDatabase as KyselySqliteDatabase } from 'kysely';
import type { SqliteDatabase, SqliteStatement } from './sqlite-driver.js';

const MAX_STATEMENTS = 500;

/** A statement whose text starts with this hands back its rows as arrays (StoreSql.rows). */
export const ARRAY_ROWS = '/* rows as arrays */ ';

/** A Kysely SQLite database whose connection can be replaced between queries. */
export interface ReopenableDatabase extends KyselySqliteDatabase {
  /** Closes the connection and opens a new one (prepared statements are dropped with it). */
  reopen(): void;
  /**
   * The prepared statement of a text, rows as arrays or as objects: for a caller that runs it on
   * this connection itself, without Kysely (see directReads in sqlite-sql.ts).
   */
  statement(text: string, arrays: boolean): SqliteStatement;
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
  // The direct callers' statements, by the text itself: their texts are the same string objects
  // every time (store/statement-texts.ts), whose hash V8 keeps, where `ARRAY_ROWS + text` would be
  // a new string to flatten and hash on every call.
  let direct = { arrays: new Map<string, SqliteStatement>(), objects: new Map<string, SqliteStatement>() };
  return {
    close: () => void conn.close(),
    reopen() {
      const fresh = open();
      const old = conn;
      conn = fresh;
      cache = new Map();
      direct = { arrays: new Map(), objects: new Map() };
      old.close();
    },
    statement(text, arrays) {
      const kept = arrays ? direct.arrays : direct.objects;
      let stmt = kept.get(text);
      if (stmt) {
        kept.delete(text);
      } else {
        stmt = conn.prepare(text);
        if (arrays) stmt.raw(true);
        if (kept.size >= MAX_STATEMENTS) kept.delete(kept.keys().next().value!);
      }
      kept.set(text, stmt);
      return stmt;
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
