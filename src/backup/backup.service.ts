import { spawn } from 'node:child_process';
import { mkdirSync, renameSync, rmSync } from 'node:fs';
import { dirname } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { migrateToLatest } from '../store/migrate.js';
import { openStore } from '../store/open-store.js';

/** What a backup or restore did, for the operator. */
export interface BackupReport {
  readonly file: string;
  readonly tables: Record<string, number>;
}

const TABLES = ['customers', 'orders', 'custom_field_defs', 'custom_field_values', 'api_keys'];

function countRows(file: string): Record<string, number> {
  const db = new BetterSqlite3(file, { readonly: true, fileMustExist: true });
  try {
    const check = db.pragma('integrity_check', { simple: true });
    if (check !== 'ok') throw new Error(`integrity check of ${file} failed: ${String(check)}`);
    const tables: Record<string, number> = {};
    for (const t of TABLES) tables[t] = Number((db.prepare(`select count(*) as n from ${t}`).get() as { n: number }).n);
    return tables;
  } finally {
    db.close();
  }
}

/**
 * Online SQLite backup through SQLite's backup API: a consistent snapshot while the service keeps
 * serving. Written to a temporary name and renamed, so a half-written backup never has the name.
 */
export async function backupSqlite(source: string, destination: string): Promise<BackupReport> {
  const partial = `${destination}.partial`;
  rmSync(partial, { force: true });
  const db = new BetterSqlite3(source, { fileMustExist: true });
  try {
    await db.backup(partial);
  } finally {
    db.close();
  }
  // The copy carries the source's WAL mode, and opening it would leave -wal/-shm files beside it:
  // a backup is one self-contained file.
  const copy = new BetterSqlite3(partial, { fileMustExist: true });
  try {
    copy.pragma('journal_mode = DELETE');
  } finally {
    copy.close();
  }
  const tables = countRows(partial);
  renameSync(partial, destination);
  return { file: destination, tables };
}

/** Brings a restored store up to this release's schema and stored form (a backup may be older). */
async function migrateStore(databaseUrl: string): Promise<void> {
  const store = openStore(databaseUrl, { poolSize: 1 });
  try {
    await migrateToLatest(store);
  } finally {
    await store.close();
  }
}

const removeSqliteFile = (file: string): void => {
  for (const f of [file, `${file}-wal`, `${file}-shm`]) rmSync(f, { force: true });
};

/**
 * Restores a SQLite backup into the database file, also while servers use it: the backup API
 * copies under the database lock and running connections see the restored content. A backup of
 * an older release is migrated in a copy first, so that servers never see its old form and a
 * failed migration leaves the target as it was.
 */
export async function restoreSqlite(backupFile: string, target: string): Promise<BackupReport> {
  // Refuse a damaged backup before touching the target.
  try {
    countRows(backupFile);
  } catch (err) {
    throw refused(backupFile, `it is damaged or not an ordergate SQLite backup (${reason(err)})`);
  }
  mkdirSync(dirname(target), { recursive: true });
  const migrated = `${target}.restoring`;
  removeSqliteFile(migrated);
  try {
    const source = new BetterSqlite3(backupFile, { readonly: true, fileMustExist: true });
    try {
      await source.backup(migrated);
    } finally {
      source.close();
    }
    await migrateStore(`sqlite:${migrated}`).catch((err: unknown) => {
      throw refused(backupFile, `its data could not be migrated to this release (${reason(err)})`);
    });
    const copy = new BetterSqlite3(migrated, { fileMustExist: true });
    try {
      await copy.backup(target);
    } finally {
      copy.close();
    }
  } finally {
    removeSqliteFile(migrated);
  }
  return { file: target, tables: countRows(target) };
}

// One line for the operator: SQLite's integrity check reports several.
const reason = (err: unknown): string => (err instanceof Error ? err.message : String(err)).replace(/\s*\n\s*/g, '; ').slice(0, 500);

const refused = (file: string, why: string): Error => new Error(`refusing to restore ${file}: ${why}; the store was not changed`);

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
export async function backupPostgres(url: string, destination: string): Promise<{ file: string }> {
  const partial = `${destination}.partial`;
  await run('pg_dump', ['--format=custom', '--no-owner', '--file', partial, '--dbname', url]);
  renameSync(partial, destination);
  return { file: destination };
}

/** PostgreSQL: pg_restore over the database, replacing the objects the dump holds. */
export async function restorePostgres(url: string, file: string): Promise<{ file: string }> {
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
  return { file };
}
