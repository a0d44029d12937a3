import { sessionDatabaseUrl } from '../config.js';
import { migrateToLatest } from '../store/migrate.js';
import { openStore } from '../store/open-store.js';
import { createStoreIfMissing } from '../store/store-presence.js';
import type { RunCommand } from './command.js';

export const migrateCommand: RunCommand = async (_args, config) => {
  await createStoreIfMissing(sessionDatabaseUrl(config));
  const store = openStore(config.databaseUrl, { poolSize: 1 });
  try {
    const applied = await migrateToLatest(store);
    process.stdout.write(applied.length ? `applied: ${applied.join(', ')}\n` : 'up to date\n');
  } finally {
    await store.close();
  }
};
