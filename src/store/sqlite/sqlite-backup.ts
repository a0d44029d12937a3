import { mkdirSync, renameSync, rmSync } from 'node:fs';
import { dirname } from 'node:path';
import { BetterSqlite3 } from './sqlite-driver.js';
import { reason, refused, type BackupReport, type MigrateStore } from '../backup-report.js';

const TABLES = ['customers', 'orders', 'custom_field_defs', 'custom_field_values', 'api_keys'];

/** Checks a SQLite file's integrity and counts the rows of the main tables. */
function countRows(file: string): string {
  const db = new BetterSqlite3(file, { readonly: true, fileMustExist: true });
  try {
    const check = db.pragma('integrity_check', { simple: true });
    if (check !== 'ok') throw new Error(`integrity check of ${file} failed: ${String(check)}`);
    return TABLES.map((t) => `${t}=${Number((db.prepare(`select count(*) as n from ${t}`).get() as { n: number }).n)}`).join(' ');
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
  return { file: destination, detail: `integrity ok; ${tables}` };
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
export async function restoreSqlite(backupFile: string, target: string, migrateStore: MigrateStore): Promise<BackupReport> {
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
  return { file: target, detail: countRows(target) };
}
