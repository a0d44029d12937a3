import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import pg from 'pg';

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
  sqlState(err) === INVALID_CATALOG || (sqlState(err) === PROTOCOL_VIOLATION && /^database ".*" does not exist$/.test((err as Error).message));

/** Whether the PostgreSQL database of the URL exists; connection failures other than that throw. */
async function postgresDatabaseExists(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5000 });
  try {
    await client.connect();
    return true;
  } catch (err) {
    if (noSuchDatabase(err)) return false;
    throw err;
  } finally {
    await client.end().catch(() => undefined);
  }
}

function describePostgres(url: string): { name: string; where: string; role: string } {
  const u = new URL(url);
  return { name: decodeURIComponent(u.pathname.slice(1)), where: `${u.hostname}:${u.port || 5432}`, role: u.username ? `the role "${decodeURIComponent(u.username)}"` : 'the default role' };
}

const CREATE_HINT = 'create it with `ordergate migrate` (or start the service), or correct DATABASE_URL';

/**
 * For the commands that must not create a store: a DATABASE_URL naming no existing store (a mistyped
 * path or database name) is refused, instead of silently opening a new, empty one.
 */
export async function requireExistingStore(databaseUrl: string): Promise<void> {
  const file = sqliteFileOf(databaseUrl);
  if (file !== undefined) {
    if (!file.endsWith(':memory:') && !existsSync(file)) throw new Error(`no SQLite database at ${file}: ${CREATE_HINT}`);
    return;
  }
  if (!(await postgresDatabaseExists(databaseUrl))) {
    const { name, where } = describePostgres(databaseUrl);
    throw new Error(`no PostgreSQL database "${name}" at ${where}: ${CREATE_HINT}`);
  }
}

/**
 * For serve, migrate, seed and restore: a missing PostgreSQL database is created, as `createdb`
 * would, through the server's maintenance database `postgres`, when the role may create databases.
 * (A SQLite file is created by opening it.)
 */
export async function createStoreIfMissing(databaseUrl: string): Promise<void> {
  if (sqliteFileOf(databaseUrl) !== undefined || (await postgresDatabaseExists(databaseUrl))) return;
  const { name, where, role } = describePostgres(databaseUrl);
  const maintenance = new URL(databaseUrl);
  maintenance.pathname = '/postgres';
  const client = new pg.Client({ connectionString: maintenance.toString(), connectionTimeoutMillis: 5000 });
  try {
    await client.connect();
    await client.query(`create database ${client.escapeIdentifier(name)}`);
    process.stderr.write(`ordergate: created the PostgreSQL database "${name}" at ${where}\n`);
  } catch (err) {
    if (sqlState(err) === DUPLICATE_DATABASE) return;
    const why = sqlState(err) === INSUFFICIENT_PRIVILEGE ? `${role} may not create databases` : (err instanceof Error ? err.message : String(err));
    throw new Error(`no PostgreSQL database "${name}" at ${where}, and it could not be created (${why}): create it with \`createdb -h ${where.replace(':', ' -p ')} ${name}\` as a role that may`);
  } finally {
    await client.end().catch(() => undefined);
  }
}
