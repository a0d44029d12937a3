import { existsSync } from 'node:fs';
import { sessionDatabaseUrl } from '../config.js';
import { backupStore, restoreStore } from '../store/backup.js';
import { createStoreIfMissing, requireExistingStore, storeContents } from '../store/store-presence.js';
import { existingFile, inExistingDirectory, parseCommandArgs, UsageError, type RunCommand } from './command.js';

function oneFile(positionals: string[]): string {
  if (positionals.length === 0) throw new UsageError('the backup file is required');
  if (positionals.length > 1) throw new UsageError('give one backup file');
  return positionals[0]!;
}

export const backupCommand: RunCommand = async (args, config) => {
  const { values, positionals } = parseCommandArgs({
    args,
    allowPositionals: true,
    options: { force: { type: 'boolean', default: false } },
  });
  const file = oneFile(positionals);
  inExistingDirectory(file);
  // An earlier backup under the same name may be the only good one: replacing it is asked for.
  if (existsSync(file) && !values.force) throw new UsageError(`${file} exists; add --force to replace it`);
  // pg_dump and pg_restore set session state (search_path among it): never through a pooler.
  const url = sessionDatabaseUrl(config);
  await requireExistingStore(url);
  const report = await backupStore(url, file);
  process.stdout.write(`backup written to ${report.file} (${report.detail})\n`);
};

export const restoreCommand: RunCommand = async (args, config) => {
  const { values, positionals } = parseCommandArgs({ args, allowPositionals: true, options: { yes: { type: 'boolean', default: false } } });
  const file = oneFile(positionals);
  existingFile(file);
  const url = sessionDatabaseUrl(config);
  // The store's rows are replaced by the backup's: only asked for, never by a mistyped DATABASE_URL.
  if (!values.yes && (await storeContents(url)) === 'data') {
    throw new UsageError('the store holds data, which the backup replaces (back it up first if it may be needed); add --yes to restore');
  }
  // Restoring is how a store is rebuilt on a new machine: it may start from a missing one.
  await createStoreIfMissing(url);
  const report = await restoreStore(url, file);
  process.stdout.write(`restored ${file} into ${report.file} (${report.detail})\n`);
};
