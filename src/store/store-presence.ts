import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import type pg from 'pg';
import { pgDriver } from './postgres/pg-driver.js';
import { BetterSqlite3, type SqliteDatabase } from './sqlite/sqlite-driver.js';

/** The absolute SQLite file a DATABASE_URL names, or undefined for PostgreSQL. */
export function sqliteFileOf(databaseUrl: string): string | undefined {
  return databaseUrl.startsWith('sqlite:') ? resolve(databaseUrl.slice('sqlite:'.length).replace(/^\/\//, '')) : undefined;
}

// PostgreSQL's SQLSTATEs for "no such database", "not allowed" and "created meanwhile".
const INVALID_CATALOG = '3D000';
const INSUFFICIENT_PRIVILEGE = '42501';
const DUPLICATE_DATABASE = '42P04';
// PgBouncer passes the server's refusal of a missing database on as a protocol violation.
const PROTOCOL_VIOLATION = '08P01';

const sqlState = (err: unknown): unknown => (err as { code?: unknown } | null)?.code;

const noSuchDatabase = (err: unknown): boolean =>
  sqlState(err) === INVALID_CATALOG ||
  (sqlState(err) === PROTOCOL_VIOLATION && /^database ".*" does not exist$/.test((err as Error).message));

/** The URL as a message may show it: without its password. */
export function shownUrl(url: string): string {
  try {
    const u = new URL(url);
    u.password = '';
    return u.toString();
  } catch {
    return 'DATABASE_URL (not a valid URL)';
  }
}

// What to check when the server cannot be reached or refuses the login, by the error's code.
const CONNECT_HINTS: Readonly<Record<string, string>> = {
  ECONNREFUSED: 'check that PostgreSQL runs and listens on that host and port',
  ENOTFOUND: 'check the host name',
  EAI_AGAIN: 'check the host name and the DNS',
  ETIMEDOUT: 'check the host, the port and any firewall between',
  EHOSTUNREACH: 'check the host and the network',
  '28P01': 'check the user name and password',
  '28000': 'check the user name and pg_hba.conf',
};

/** A failed connection, named by the URL (without password) with what to check. */
function connectionFailure(url: string, err: unknown): Error {
  const code = String(sqlState(err) ?? '');
  const hint =
    CONNECT_HINTS[code] ??
    (/timeout/i.test((err as Error)?.message ?? '') ? CONNECT_HINTS.ETIMEDOUT! : 'check DATABASE_URL and that the server is up');
  const why = (err instanceof Error ? err.message : String(err)) || code;
  return new Error(`cannot connect to PostgreSQL at ${shownUrl(url)} (${why}): ${hint}`);
}

/**
 * Runs `fn` on a connection to the PostgreSQL database of the URL; undefined when the database
 * does not exist. Other connection failures throw, naming the server and what to check.
 */
async function onPostgres<T>(url: string, fn: (client: pg.Client) => Promise<T>): Promise<T | undefined> {
  const client = new (pgDriver().Client)({ connectionString: url, connectionTimeoutMillis: 5000 });
  try {
    try {
      await client.connect();
    } catch (err) {
      if (noSuchDatabase(err)) return undefined;
      throw connectionFailure(url, err);
    }
    return await fn(client);
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** Whether the PostgreSQL database of the URL exists; connection failures other than that throw. */
async function postgresDatabaseExists(url: string): Promise<boolean> {
  return (await onPostgres(url, async () => true)) ?? false;
}

// The tables whose rows someone would miss; the others are bookkeeping that every store has
// (migrations, the sync clock's and the custom fields' counters) or follow from these.
const DATA_TABLES: readonly string[] = ['customers', 'orders', 'custom_field_defs', 'api_keys', 'webhook_endpoints', 'audit_log'];

/** What a database holds: no store (no migration table), an empty store, or one with data. */
export type StoreContents = 'no database' | 'no store' | 'empty store' | 'data';

function sqliteContents(file: string): StoreContents {
  if (file.endsWith(':memory:')) return 'empty store';
  if (!existsSync(file)) return 'no database';
  const db = openSqliteReadOnly(file);
  try {
    const tables = db.prepare("select name from sqlite_master where type = 'table' and name not like 'sqlite_%'").pluck().all() as string[];
    if (!tables.includes('schema_migrations')) return 'no store';
    const rows = DATA_TABLES.filter((t) => tables.includes(t)).some((t) => db.prepare(`select 1 from ${t} limit 1`).get() !== undefined);
    return rows ? 'data' : 'empty store';
  } catch (err) {
    throw notSqlite(file, err) ?? err;
  } finally {
    db.close();
  }
}

async function postgresContents(url: string): Promise<StoreContents> {
  const contents = await onPostgres(url, async (client): Promise<StoreContents> => {
    const tables = (
      await client.query<{ name: string }>('select tablename as name from pg_tables where schemaname = current_schema()')
    ).rows.map((r) => r.name);
    if (!tables.includes('schema_migrations')) return 'no store';
    for (const t of DATA_TABLES.filter((name) => tables.includes(name))) {
      if ((await client.query(`select 1 from ${t} limit 1`)).rowCount) return 'data';
    }
    return 'empty store';
  });
  return contents ?? 'no database';
}

/** What the database of a DATABASE_URL holds, without creating or changing anything. */
export function storeContents(databaseUrl: string): Promise<StoreContents> {
  const file = sqliteFileOf(databaseUrl);
  return file !== undefined ? Promise.resolve().then(() => sqliteContents(file)) : postgresContents(databaseUrl);
}

function describePostgres(url: string): { name: string; where: string; role: string } {
  const u = new URL(url);
  return {
    name: decodeURIComponent(u.pathname.slice(1)),
    where: `${u.hostname}:${u.port || 5432}`,
    role: u.username ? `the role "${decodeURIComponent(u.username)}"` : 'the default role',
  };
}

/** SQLite's "not a database" of a file, named by the file; undefined for other errors. */
function notSqlite(file: string, err: unknown): Error | undefined {
  const code = (err as { code?: unknown } | null)?.code;
  return code === 'SQLITE_NOTADB'
    ? new Error(`${file} is not a SQLite database (${(err as Error).message}): correct DATABASE_URL`)
    : undefined;
}

function openSqliteReadOnly(file: string): SqliteDatabase {
  try {
    return new BetterSqlite3(file, { readonly: true, fileMustExist: true });
  } catch (err) {
    throw notSqlite(file, err) ?? err;
  }
}

const CREATE_HINT = 'create it with `ordergate migrate` (or start the service), or correct DATABASE_URL';

/**
 * For the commands that must not create a store: a DATABASE_URL naming no existing store (a mistyped
 * path or database name, or a database that holds no ordergate store) is refused, instead of
 * silently making a new, empty one there.
 */
export async function requireExistingStore(databaseUrl: string): Promise<void> {
  const file = sqliteFileOf(databaseUrl);
  const contents = await storeContents(databaseUrl);
  if (contents !== 'no database' && contents !== 'no store') return;
  if (file !== undefined) {
    throw new Error(
      contents === 'no database'
        ? `no SQLite database at ${file}: ${CREATE_HINT}`
        : `the SQLite database ${file} holds no ordergate store: ${CREATE_HINT}`,
    );
  }
  const { name, where } = describePostgres(databaseUrl);
  throw new Error(
    contents === 'no database'
      ? `no PostgreSQL database "${name}" at ${where}: ${CREATE_HINT}`
      : `the PostgreSQL database "${name}" at ${where} holds no ordergate store: ${CREATE_HINT}`,
  );
}

/**
 * For serve, migrate, seed and restore: a missing PostgreSQL database is created, as `createdb`
 * would, through the server's maintenance database `postgres`, when the role may create databases.
 * (A SQLite file is created by opening it.)
 */
export async function createStoreIfMissing(databaseUrl: string): Promise<void> {
  const file = sqliteFileOf(databaseUrl);
  if (file !== undefined) {
    // An existing file that is not a database is named here, before the store opens it.
    if (existsSync(file) && !file.endsWith(':memory:')) sqliteContents(file);
    return;
  }
  if (await postgresDatabaseExists(databaseUrl)) return;
  const { name, where, role } = describePostgres(databaseUrl);
  const maintenance = new URL(databaseUrl);
  maintenance.pathname = '/postgres';
  const client = new (pgDriver().Client)({ connectionString: maintenance.toString(), connectionTimeoutMillis: 5000 });
  try {
    await client.connect();
    await client.query(`create database ${client.escapeIdentifier(name)}`);
    process.stderr.write(`ordergate: created the PostgreSQL database "${name}" at ${where}\n`);
  } catch (err) {
    if (sqlState(err) === DUPLICATE_DATABASE) return;
    const why =
      sqlState(err) === INSUFFICIENT_PRIVILEGE ? `${role} may not create databases` : err instanceof Error ? err.message : String(err);
    throw new Error(
      `no PostgreSQL database "${name}" at ${where}, and it could not be created (${why}): create it with \`createdb -h ${where.replace(':', ' -p ')} ${name}\` as a role that may`,
      { cause: err },
    );
  } finally {
    await client.end().catch(() => undefined);
  }
}
