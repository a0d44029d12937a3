import type { Config } from '../config.js';
import { migrateToLatest } from '../store/migrate.js';
import { openStore } from '../store/open-store.js';
import type { Store } from '../store/store.js';
import { writeRegistry } from '../write-registry.js';
import { openWriteDoor, type WriteDoor } from '../writes/write-door.js';

/**
 * Opens and migrates the configured store for one command, with a write door over it (inline: a
 * command waits for each write anyway), and always closes both.
 */
export async function withStore<T>(config: Config, fn: (store: Store, writes: WriteDoor) => Promise<T>): Promise<T> {
  const store = openStore(config.databaseUrl, { poolSize: config.databasePoolSize });
  const writes = openWriteDoor(store, writeRegistry);
  try {
    await migrateToLatest(store);
    return await fn(store, writes);
  } finally {
    await writes.close();
    await store.close();
  }
}
