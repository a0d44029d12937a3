import { backupPostgres, backupSqlite, restorePostgres, restoreSqlite, sqliteFileOf } from '../backup/backup.service.js';
import type { Command } from './command.js';
import { UsageError } from './command.js';

const summary = (tables: Record<string, number>): string =>
  Object.entries(tables).map(([t, n]) => `${t}=${n}`).join(' ');

export const backupCommand: Command = {
  words: ['backup'],
  usage: 'backup <file>',
  summary: 'online backup: SQLite backup API, or pg_dump (custom format) on PostgreSQL',
  run: async (args, config) => {
    const file = args[0];
    if (!file) throw new UsageError('the backup file is required');
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
