import type { Kysely, Transaction } from 'kysely';
import type { Database } from './database.js';

export type Dialect = 'sqlite' | 'postgres';
export type Executor = Kysely<Database> | Transaction<Database>;

/**
 * The store: one Kysely handle for writes and one for reads (separate SQLite connections, so reads
 * never wait behind a write transaction; the same pool on PostgreSQL). Dialect differences live in
 * the implementations of this interface and in store/dialect-sql.ts, nowhere else.
 */
export interface Store {
  readonly dialect: Dialect;
  readonly db: Kysely<Database>;
  readonly reader: Kysely<Database>;
  /**
   * Runs fn in a write transaction that holds the write lock from its first statement
   * (BEGIN IMMEDIATE on SQLite, so concurrent processes queue instead of failing on upgrade).
   */
  writeTransaction<T>(fn: (trx: Transaction<Database>) => Promise<T>): Promise<T>;
  /** Throws if the store cannot answer a trivial query. */
  ping(): Promise<void>;
  close(): Promise<void>;
}
