import { backupPostgres, backupSqlite, restorePostgres, restoreSqlite } from '../backup/backup.service.js';
import { createStoreIfMissing, requireExistingStore, sqliteFileOf } from '../store/store-presence.js';
import { existingFile, inExistingDirectory, UsageError, type Command } from './command.js';

const summary = (tables: Record<string, number>): string =>
  Object.entries(tables).map(([t, n]) => `${t}=${n}`).join(' ');

export const backupCommand: Command = {
  words: ['backup'],
  usage: 'backup <file>',
  summary: 'online backup: SQLite backup API, or pg_dump (custom format) on PostgreSQL',
  run: async (args, config) => {
    const file = args[0];
    if (!file) throw new UsageError('the backup file is required');
    inExistingDirectory(file);
    await requireExistingStore(config.databaseUrl);
    const sqlite = sqliteFileOf(config.databaseUrl);
    if (sqlite) {
      const report = await backupSqlite(sqlite, file);
      process.stdout.write(`backup written to ${report.file} (integrity ok; ${summary(report.tables)})\n`);
    } else {
      const report = await backupPostgres(config.databaseUrl, file);
      process.stdout.write(`backup written to ${report.file} (pg_dump custom format)\n`);
    }
  },
};

export const restoreCommand: Command = {
  words: ['restore'],
  usage: 'restore <file>',
  summary: 'restore a backup made by `backup` into DATABASE_URL (clients should resync fully after)',
  run: async (args, config) => {
    const file = args[0];
    if (!file) throw new UsageError('the backup file is required');
    existingFile(file);
    // Restoring is how a store is rebuilt on a new machine: it may start from a missing one.
    await createStoreIfMissing(config.databaseUrl);
    const sqlite = sqliteFileOf(config.databaseUrl);
    if (sqlite) {
      const report = await restoreSqlite(file, sqlite);
      process.stdout.write(`restored ${file} into ${report.file} (${summary(report.tables)})\n`);
    } else {
      await restorePostgres(config.databaseUrl, file);
      process.stdout.write(`restored ${file} with pg_restore\n`);
    }
  },
};
