import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { BetterSqlite3, type SqliteDatabase } from './sqlite-driver.js';
import { CompiledQuery, Kysely, SqliteDialect, sql, type Transaction } from 'kysely';
import type { Database } from '../database.js';
import { handleOf, type DbHandle, type Store } from '../store.js';
import { cachingStatements } from './sqlite-statement-cache.js';
import { mergeTextIndex, readDirectly, sqliteSql } from './sqlite-sql.js';

// Built once: group commits run these per transaction.
const BEGIN = CompiledQuery.raw('begin immediate');
const COMMIT = CompiledQuery.raw('commit');
const ROLLBACK = CompiledQuery.raw('rollback');

function open(file: string, readonly: boolean): SqliteDatabase {
  const conn = new BetterSqlite3(file, { fileMustExist: readonly });
  conn.pragma('busy_timeout = 10000');
  if (!readonly) conn.pragma('journal_mode = WAL');
  // FULL: a commit has reached the disk before the caller is told it succeeded.
  conn.pragma('synchronous = FULL');
  conn.pragma('foreign_keys = ON');
  // Deleted and overwritten content is zeroed, not left in free space (erasures; see scrubFreedSpace).
  if (!readonly) conn.pragma('secure_delete = ON');
  return conn;
}

/**
 * SQLite opens a file it cannot write (immutable, read-only mount, no permission) for reading without
 * a word, and such a connection answers SQLITE_READONLY to every write for as long as it lives, even
 * once the file is writable again; a file it could not open at all gives SQLITE_CANTOPEN. After either
 * the next write transaction replaces the writer connection, so that the service recovers without a
 * restart (the first write after the file became writable again succeeds).
 */
const REOPEN = /^SQLITE_(READONLY|CANTOPEN)/;

/** Whether a SQLite error means the connection that met it must be replaced (see above). */
const needsNewConnection = (err: unknown): boolean => REOPEN.test(String((err as { code?: unknown } | null)?.code));

/** SQLite through better-sqlite3: WAL, FULL sync, a writer connection and a reader connection. */
export function createSqliteStore(file: string): Store {
  if (file !== ':memory:') mkdirSync(dirname(file), { recursive: true });
  const writer = cachingStatements(() => open(file, false));
  // Set after SQLITE_READONLY/CANTOPEN: the next write transaction opens a new writer connection.
  let stale = false;
  const db = handleOf(new Kysely<Database>({ dialect: new SqliteDialect({ database: writer }) }), sqliteSql);
  // The reader is opened lazily: the file must exist (and be migrated) before it is useful.
  let readerDb: DbHandle<Kysely<Database>> | undefined;
  const reader = (): DbHandle<Kysely<Database>> => {
    if (readerDb) return readerDb;
    if (file === ':memory:') return (readerDb = db);
    const connection = cachingStatements(() => open(file, true));
    readerDb = handleOf(new Kysely<Database>({ dialect: new SqliteDialect({ database: connection }) }), sqliteSql);
    readDirectly(readerDb, connection);
    return readerDb;
  };

  return {
    db,
    get reader() {
      return reader();
    },
    writeConcurrency: 1,
    readAhead: false,
    ...(file === ':memory:' ? {} : { writerThreadUrl: `sqlite:${file}` }),
    handle: (executor) => handleOf(executor, sqliteSql),
    async writeTransaction<T>(fn: (trx: DbHandle<Transaction<Database>>) => Promise<T>): Promise<T> {
      // Kysely's transaction() issues a deferred BEGIN; IMMEDIATE takes the write lock up front so
      // that writers in other processes wait on busy_timeout instead of failing with SQLITE_BUSY.
      return db.connection().execute(async (conn) => {
        if (stale) {
          // Inside this connection's turn: no other query runs on it while it is replaced. A file
          // that still cannot be opened throws here, and the next write tries again.
          writer.reopen();
          stale = false;
        }
        try {
          // Inside the try: a connection SQLite opened read-only already refuses BEGIN IMMEDIATE.
          await conn.executeQuery(BEGIN);
          const result = await fn(handleOf(conn as unknown as Transaction<Database>, sqliteSql));
          await conn.executeQuery(COMMIT);
          return result;
        } catch (err) {
          await conn.executeQuery(ROLLBACK).catch(() => undefined);
          if (file !== ':memory:' && needsNewConnection(err)) stale = true;
          throw err;
        }
      });
    },
    // Kysely's migrator takes no lock on SQLite (it assumes one process): the whole run, its
    // bookkeeping included, happens in one BEGIN IMMEDIATE transaction, so a second process waits
    // for it and then finds nothing to do.
    migrate(run) {
      return db.connection().execute(async (conn) => {
        await sql`begin immediate`.execute(conn);
        try {
          const applied = await run(conn, true);
          await sql`commit`.execute(conn);
          return applied;
        } catch (err) {
          await sql`rollback`.execute(conn).catch(() => undefined);
          throw err;
        }
      });
    },
    async scrubFreedSpace() {
      if (file === ':memory:') return;
      // TRUNCATE waits for readers of older snapshots (busy_timeout); a reader that keeps one
      // longer leaves the log for the next checkpoint, so try a few times.
      for (let i = 0; i < 20; i++) {
        const [row] = (await sql<{ busy: number }>`pragma wal_checkpoint(truncate)`.execute(db)).rows;
        if (row?.busy === 0) return;
        await new Promise((r) => setTimeout(r, 50));
      }
      throw new Error('the write-ahead log could not be checkpointed: a reader holds an old snapshot');
    },
    async settleTextIndexes() {
      await mergeTextIndex(db, 'order_words');
      await mergeTextIndex(db, 'customer_words');
    },
    async ping() {
      // A table of the store, named as every statement names it: a session that lost the store's
      // schema (a search_path left behind on a pooled connection) is not ready either.
      await sql`select last_stamp from sync_clock where id = 1`.execute(db);
    },
    async close() {
      if (readerDb && readerDb !== db) await readerDb.destroy();
      await db.destroy();
    },
  };
}
