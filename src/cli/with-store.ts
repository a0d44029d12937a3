import type { Config } from '../config.js';
import { migrateToLatest } from '../store/migrate.js';
import { openStore } from '../store/open-store.js';
import type { Store } from '../store/store.js';

/** Opens and migrates the configured store for one command, and always closes it. */
export async function withStore<T>(config: Config, fn: (store: Store) => Promise<T>): Promise<T> {
  const store = openStore(config.databaseUrl, { poolSize: config.databasePoolSize });
  try {
    await migrateToLatest(store);
    return await fn(store);
  } finally {
    await store.close();
  }
}
