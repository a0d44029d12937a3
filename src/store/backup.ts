import { reason, type BackupReport } from './backup-report.js';
import { migrateToLatest } from './migrate.js';
import { openStore } from './open-store.js';
import { backupPostgres, restorePostgres } from './postgres/postgres-backup.js';
import { backupSqlite, restoreSqlite } from './sqlite/sqlite-backup.js';
import { sqliteFileOf } from './store-presence.js';

export { reason, type BackupReport };

async function migrateStore(databaseUrl: string): Promise<void> {
  const store = openStore(databaseUrl, { poolSize: 1 });
  try {
    await migrateToLatest(store);
  } finally {
    await store.close();
  }
}

/**
 * An online backup of the store named by the URL into one file: SQLite's backup API (a consistent
 * snapshot while the service serves), or pg_dump in its custom format.
 */
export function backupStore(databaseUrl: string, file: string): Promise<BackupReport> {
  const sqlite = sqliteFileOf(databaseUrl);
  return sqlite ? backupSqlite(sqlite, file) : backupPostgres(databaseUrl, file);
}

/** Restores such a backup into the store named by the URL, migrating it to this release. */
export function restoreStore(databaseUrl: string, file: string): Promise<BackupReport> {
  const sqlite = sqliteFileOf(databaseUrl);
  return sqlite ? restoreSqlite(file, sqlite, migrateStore) : restorePostgres(databaseUrl, file, migrateStore);
}
