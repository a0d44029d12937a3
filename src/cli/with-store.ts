import { sessionDatabaseUrl, type Config } from '../config.js';
import { migrateToLatest } from '../store/migrate.js';
import { openStore } from '../store/open-store.js';
import { createStoreIfMissing, requireExistingStore } from '../store/store-presence.js';
import type { Store } from '../store/store.js';
import { writeRegistry } from '../write-registry.js';
import { openWriteDoor, type WriteDoor } from '../writes/write-door.js';

/**
 * Opens and migrates the configured store for one command, with a write door over it (inline: a
 * command waits for each write anyway), and always closes both. Only commands that build a store
 * (`create`) may start from a missing one; the others refuse it, so that a mistyped DATABASE_URL
 * does not silently become a new, empty store.
 */
export async function withStore<T>(config: Config, fn: (store: Store, writes: WriteDoor) => Promise<T>, options: { create?: boolean } = {}): Promise<T> {
  await (options.create ? createStoreIfMissing : requireExistingStore)(sessionDatabaseUrl(config));
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
