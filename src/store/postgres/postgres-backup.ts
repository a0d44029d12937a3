import { spawn } from 'node:child_process';
import { renameSync } from 'node:fs';
import { pgDriver } from './pg-driver.js';
import { reason, refused, type BackupReport, type MigrateStore } from '../backup-report.js';

/** Runs a PostgreSQL client tool; resolves with its stdout. */
function run(command: string, args: string[]): Promise<string> {
  return new Promise((resolveRun, reject) => {
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', (err) => reject(new Error(`${command} could not start: ${err.message} (install the PostgreSQL client tools)`)));
    child.on('close', (code, signal) => {
      if (code === 0) return resolveRun(stdout);
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
  let tables: Set<string>;
  try {
    tables = tablesOf(await run('pg_restore', ['--list', file]));
    await run('pg_restore', ['--clean', '--if-exists', '--no-owner', '--single-transaction', '--exit-on-error', '--dbname', url, file]);
  } catch (err) {
    throw refused(file, `it is damaged or not a pg_dump custom-format backup (${reason(err)})`);
  }
  await dropTablesNotIn(url, tables);
  // pg_restore commits its own transaction: the migration follows at once (a backup may be older).
  await migrateStore(url).catch((err: unknown) => {
    throw new Error(`restored ${file}, but its data could not be migrated to this release: ${reason(err)}; run \`ordergate migrate\``);
  });
  return { file: `database ${decodeURIComponent(new URL(url).pathname.slice(1))}`, detail: 'pg_restore' };
}

/** The tables of the public schema a pg_dump archive holds, from its table of contents. */
function tablesOf(toc: string): Set<string> {
  return new Set([...toc.matchAll(/^\d+; \d+ \d+ TABLE public (\S+) /gm)].map((m) => m[1]!));
}

/**
 * pg_restore --clean replaces what the archive holds and leaves the rest: tables a later release
 * added (an older backup restored) would outlive the restore and stop their migrations. The store
 * becomes what the backup held; the migrations then build the later tables afresh.
 */
async function dropTablesNotIn(url: string, kept: ReadonlySet<string>): Promise<void> {
  const client = new (pgDriver().Client)({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ name: string }>("select tablename as name from pg_tables where schemaname = 'public'");
    for (const { name } of rows)
      if (!kept.has(name)) await client.query(`drop table if exists public.${client.escapeIdentifier(name)} cascade`);
  } finally {
    await client.end();
  }
}
