import type { Kysely, QueryResult, Transaction } from 'kysely';
import type { Database } from './database.js';

/** A Kysely handle to run queries on: the store itself or a transaction. */
export type Executor = Kysely<Database> | Transaction<Database>;

/**
 * What a store's SQL can do where the backends differ. Callers ask for the effect (lock these rows,
 * the larger of two values); each backend's room (store/sqlite/, store/postgres/) says how.
 */
export interface StoreSql {
  /**
   * Locks the selected rows until the transaction ends (shared or exclusive). Where a write
   * transaction already holds the whole database (SQLite), the query is returned as it is.
   */
  lockRows<QB extends { forShare(): QB; forUpdate(): QB }>(query: QB, mode: 'share' | 'update'): QB;
  /** Makes concurrent writers of one table queue until the transaction ends (reads go on). */
  lockTable(trx: Executor, table: keyof Database & string): Promise<void>;
  /**
   * SQL text of an aggregate of rows into one JSON array of `[key, value]` pairs, `value` being a
   * column holding JSON text; it yields JSON text or parsed JSON, and null or `[]` over no rows.
   * The column names are the caller's constants, never input.
   */
  jsonPairsAgg(keyColumn: string, jsonColumn: string): string;
  /**
   * Runs a statement written once by hand with `?` placeholders (the hot paths: no builder or
   * compiler per call, and the backend reuses its prepared form). The text holds no other `?`.
   */
  run<R>(db: Executor, text: string, params: readonly unknown[]): Promise<QueryResult<R>>;
}

/**
 * The store: one Kysely handle for writes and one for reads (separate SQLite connections, so reads
 * never wait behind a write transaction; the same pool on PostgreSQL), and what its SQL can do.
 * Backend differences live behind this interface, in store/sqlite/ and store/postgres/.
 */
export interface Store {
  readonly db: Kysely<Database>;
  readonly reader: Kysely<Database>;
  readonly sql: StoreSql;
  /** Write transactions worth keeping in flight at once (1 where there is a single writer). */
  readonly writeConcurrency: number;
  /**
   * Set when writes run best in a thread of their own, on a connection it opens with this URL: the
   * driver is synchronous, so a commit waiting for the disk would stall everything else.
   */
  readonly writerThreadUrl?: string;
  /**
   * Runs fn in a write transaction that holds the write lock from its first statement
   * (BEGIN IMMEDIATE on SQLite, so concurrent processes queue instead of failing on upgrade).
   * Services do not call this: their writes go through the write door (src/writes/).
   */
  writeTransaction<T>(fn: (trx: Transaction<Database>) => Promise<T>): Promise<T>;
  /** Applies pending migrations, all or nothing, safe from several processes at once. */
  migrate(run: (db: Kysely<Database>, inOwnTransaction: boolean) => Promise<string[]>): Promise<string[]>;
  /** Throws if the store cannot answer a trivial query. */
  ping(): Promise<void>;
  close(): Promise<void>;
}
