import { spawn } from 'node:child_process';
import { renameSync } from 'node:fs';
import { reason, refused, type BackupReport, type MigrateStore } from '../backup-report.js';

function run(command: string, args: string[]): Promise<void> {
  return new Promise((resolveRun, reject) => {
    const child = spawn(command, args, { stdio: ['ignore', 'inherit', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', (err) => reject(new Error(`${command} could not start: ${err.message} (install the PostgreSQL client tools)`)));
    child.on('close', (code, signal) => {
      if (code === 0) return resolveRun();
      const how = signal ? `was killed by ${signal}` : `failed (exit code ${code})`;
      const said = stderr.trim().slice(0, 500);
      reject(new Error(`${command} ${how}${said ? `: ${said}` : ''}`));
    });
  });
}

/** PostgreSQL: pg_dump in its custom format (consistent snapshot, online). */
export async function backupPostgres(url: string, destination: string): Promise<BackupReport> {
  const partial = `${destination}.partial`;
  await run('pg_dump', ['--format=custom', '--no-owner', '--file', partial, '--dbname', url]);
  renameSync(partial, destination);
  return { file: destination, detail: 'pg_dump custom format' };
}

/** PostgreSQL: pg_restore over the database, replacing the objects the dump holds. */
export async function restorePostgres(url: string, file: string, migrateStore: MigrateStore): Promise<BackupReport> {
  // --single-transaction: a file that turns out damaged part way (a truncated or garbled data
  // block, or pg_restore dying on it) rolls the whole restore back.
  try {
    await run('pg_restore', ['--clean', '--if-exists', '--no-owner', '--single-transaction', '--exit-on-error', '--dbname', url, file]);
  } catch (err) {
    throw refused(file, `it is damaged or not a pg_dump custom-format backup (${reason(err)})`);
  }
  // pg_restore commits its own transaction: the migration follows at once (a backup may be older).
  await migrateStore(url).catch((err: unknown) => {
    throw new Error(`restored ${file}, but its data could not be migrated to this release: ${reason(err)}; run \`ordergate migrate\``);
  });
  return { file: `database ${decodeURIComponent(new URL(url).pathname.slice(1))}`, detail: 'pg_restore' };
}
