import { resolve } from 'node:path';
import { createPostgresStore } from './postgres/postgres-store.js';
import { createSqliteStore } from './sqlite/sqlite-store.js';
import type { Store } from './store.js';

/** Opens the store named by a DATABASE_URL: `sqlite:<file>` or `postgres://…`. */
export function openStore(url: string, options: { poolSize?: number; onPoolError?: (err: Error) => void } = {}): Store {
  if (url.startsWith('sqlite:')) {
    const file = url.slice('sqlite:'.length).replace(/^\/\//, '');
    return createSqliteStore(file === ':memory:' ? file : resolve(file));
  }
  return createPostgresStore(url, options.poolSize ?? 10, options.onPoolError);
}
