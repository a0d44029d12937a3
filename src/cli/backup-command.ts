import { sessionDatabaseUrl } from '../config.js';
import { backupStore, restoreStore } from '../store/backup.js';
import { createStoreIfMissing, requireExistingStore } from '../store/store-presence.js';
import { existingFile, inExistingDirectory, UsageError, type RunCommand } from './command.js';

export const backupCommand: RunCommand = async (args, config) => {
  const file = args[0];
  if (!file) throw new UsageError('the backup file is required');
  inExistingDirectory(file);
  // pg_dump and pg_restore set session state (search_path among it): never through a pooler.
  const url = sessionDatabaseUrl(config);
  await requireExistingStore(url);
  const report = await backupStore(url, file);
  process.stdout.write(`backup written to ${report.file} (${report.detail})\n`);
};

export const restoreCommand: RunCommand = async (args, config) => {
  const file = args[0];
  if (!file) throw new UsageError('the backup file is required');
  existingFile(file);
  // Restoring is how a store is rebuilt on a new machine: it may start from a missing one.
  const url = sessionDatabaseUrl(config);
  await createStoreIfMissing(url);
  const report = await restoreStore(url, file);
  process.stdout.write(`restored ${file} into ${report.file} (${report.detail})\n`);
};
