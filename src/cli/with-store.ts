import { sessionDatabaseUrl, type Config } from '../config.js';
import { createStoreIfMissing, requireExistingStore } from '../store/store-presence.js';
import { warnPreparedStatementsOff } from '../store/prepared-statements-off.js';
import type { Store } from '../store/store.js';
import type { WriteDoor } from '../writes/write-door.js';

/**
 * Opens and migrates the configured store for one command, with a write door over it (inline: a
 * command waits for each write anyway), and always closes both. Only commands that build a store
 * (`create`) may start from a missing one; the others refuse it, so that a mistyped DATABASE_URL
 * does not silently become a new, empty store.
 */
export async function withStore<T>(
  config: Config,
  fn: (store: Store, writes: WriteDoor) => Promise<T>,
  options: { create?: boolean } = {},
): Promise<T> {
  await (options.create ? createStoreIfMissing : requireExistingStore)(sessionDatabaseUrl(config));
  // Loaded once the store is there: a refused command does not pay for the store's and every write's modules.
  const [{ openStore }, { migrateToLatest }, { writeRegistry }, { openWriteDoor }] = await Promise.all([
    import('../store/open-store.js'),
    import('../store/migrate.js'),
    import('../write-registry.js'),
    import('../writes/write-door.js'),
  ]);
  const store = openStore(config.databaseUrl, {
    poolSize: config.databasePoolSize,
    preparedStatements: config.databasePreparedStatements,
    onPreparedStatementsOff: warnPreparedStatementsOff,
  });
  const writes = openWriteDoor(store, writeRegistry);
  try {
    await migrateToLatest(store);
    return await fn(store, writes);
  } finally {
    await writes.close();
    await store.close();
  }
}
