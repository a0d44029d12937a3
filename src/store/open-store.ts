import { resolve } from 'node:path';
import { createPostgresStore, type ReplicaOptions } from './postgres/postgres-store.js';
import { createSqliteStore } from './sqlite/sqlite-store.js';
import type { Store } from './store.js';

export interface OpenStoreOptions {
  readonly poolSize?: number;
  readonly onPoolError?: (err: Error) => void;
  /** A streaming replica of a PostgreSQL store for the reads that may lag (DATABASE_READ_URL). */
  readonly replica?: ReplicaOptions;
  /**
   * PostgreSQL: send the hot paths' statements as named prepared statements (planned once per
   * connection). Off through a pooler in transaction mode that does not keep them (PgBouncer < 1.21).
   */
  readonly preparedStatements?: boolean;
  /**
   * Told once when named statements turn out to be lost between transactions (a pooler in
   * transaction mode): the store goes on without them.
   */
  readonly onPreparedStatementsOff?: (err: Error) => void;
}

/** Opens the store named by a DATABASE_URL: `sqlite:<file>` or `postgres://…`. */
export function openStore(url: string, options: OpenStoreOptions = {}): Store {
  if (url.startsWith('sqlite:')) {
    if (options.replica) throw new Error('a read replica needs a PostgreSQL store');
    const file = url.slice('sqlite:'.length).replace(/^\/\//, '');
    return createSqliteStore(file === ':memory:' ? file : resolve(file));
  }
  return createPostgresStore(
    url,
    options.poolSize ?? 10,
    options.onPoolError,
    options.replica,
    options.preparedStatements ?? false,
    options.onPreparedStatementsOff,
  );
}
