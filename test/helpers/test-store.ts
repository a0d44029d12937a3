import { copyFileSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createHash, randomBytes } from 'node:crypto';
import pg from 'pg';
import { MIGRATIONS, migrateToLatest } from '../../src/store/migrate.js';
import { loadConfig } from '../../src/config.js';
import { openStore, type OpenStoreOptions } from '../../src/store/open-store.js';
import type { Store } from '../../src/store/store.js';
import { writeRegistry } from '../../src/write-registry.js';
import { openWriteDoor, type WriteDoor } from '../../src/writes/write-door.js';

/**
 * `pgbouncer` is PostgreSQL reached through PgBouncer in transaction mode (PGBOUNCER_TEST_URL): the
 * suites of the pooled subset (docs/deploying.md) run on it besides the other two.
 */
export type Backend = 'sqlite' | 'postgres' | 'pgbouncer';

const ENABLED = (process.env.BACKENDS ?? 'sqlite,postgres,pgbouncer').split(',').map((s) => s.trim());

/** The backends every behavioural suite runs on: those of `BACKENDS=sqlite,postgres,pgbouncer` (the default) but pgbouncer. */
export const BACKENDS: readonly Backend[] = ENABLED.filter((s): s is Backend => s === 'sqlite' || s === 'postgres');

/** BACKENDS, and `pgbouncer` unless BACKENDS leaves it out: for the suites that also run through PgBouncer. */
export const BACKENDS_WITH_PGBOUNCER: readonly Backend[] = ENABLED.includes('pgbouncer') ? [...BACKENDS, 'pgbouncer'] : BACKENDS;

/**
 * The backends a suite covers, whether BACKENDS names them or not: sqlite and postgres, and pgbouncer
 * for the suites of the pooled subset. A suite loops over these and passes `{ skip: leftOut(backend) }`,
 * so that a backend left out shows in the run as skipped (and fails a CI run) instead of vanishing.
 */
export const allBackends = (pgbouncer = false): readonly Backend[] =>
  pgbouncer ? ['sqlite', 'postgres', 'pgbouncer'] : ['sqlite', 'postgres'];

/** Why a suite on `backend` does not run here (BACKENDS leaves it out), or false when it runs. */
export const leftOut = (backend: Backend): string | false =>
  (backend === 'pgbouncer' ? BACKENDS_WITH_PGBOUNCER : BACKENDS).includes(backend)
    ? false
    : `BACKENDS=${ENABLED.join(',')} leaves ${backend} out`;

/** Whether the backend is PostgreSQL (directly or through PgBouncer). */
export const isPostgres = (backend: Backend): boolean => backend !== 'sqlite';

export const PG_TEST_URL = process.env.PG_TEST_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

/** PgBouncer in transaction mode in front of PG_TEST_URL's server (`npm test` starts one and sets it: scripts/with-pgbouncer.mjs). */
export const PGBOUNCER_TEST_URL = process.env.PGBOUNCER_TEST_URL ?? 'postgres://postgres@127.0.0.1:6432/test';

export interface TestDatabase {
  /** A DATABASE_URL for this isolated database (through PgBouncer on the `pgbouncer` backend). */
  readonly url: string;
  /** The DATABASE_URL and, through PgBouncer, the DATABASE_DIRECT_URL of a process on this database. */
  readonly env: Readonly<Record<string, string>>;
  drop(): Promise<void>;
}

/** The URL with the database name replaced. */
export const withDatabase = (base: string, name: string): string => {
  const url = new URL(base);
  url.pathname = `/${name}`;
  return url.toString();
};

let pgbouncerChecked: Promise<void> | undefined;

/** Fails loudly, saying how to start it, when no PgBouncer answers at PGBOUNCER_TEST_URL. */
export function requirePgBouncer(): Promise<void> {
  pgbouncerChecked ??= (async () => {
    const client = new pg.Client({ connectionString: PGBOUNCER_TEST_URL, connectionTimeoutMillis: 5000 });
    try {
      await client.connect();
      await client.query('select 1');
    } catch (err) {
      const { host } = new URL(PGBOUNCER_TEST_URL);
      throw new Error(
        `no PgBouncer answers at ${host} (PGBOUNCER_TEST_URL): ${err instanceof Error ? err.message : String(err)}. ` +
          'The suites marked for it also run through PgBouncer in transaction mode: `npm test` and `npm run test:only` ' +
          'start one of their own (scripts/with-pgbouncer.mjs, from the installed `pgbouncer` package); run through ' +
          'them, point PGBOUNCER_TEST_URL at a running one, or leave those suites out with BACKENDS=sqlite,postgres.',
        { cause: err },
      );
    } finally {
      await client.end().catch(() => undefined);
    }
  })();
  return pgbouncerChecked;
}

/**
 * A fresh database: a temporary SQLite file, or a new PostgreSQL database of its own on the server of
 * `adminUrl` (PG_TEST_URL unless given), reached through PgBouncer for `pgbouncer`. Empty, or with
 * `migrated` a copy of a database that the migrations made (see migratedTemplate): what they would
 * make, without running them again for every test database.
 */
export async function createTestDatabase(
  backend: Backend,
  adminUrl = PG_TEST_URL,
  options: { migrated?: boolean } = {},
): Promise<TestDatabase> {
  if (backend === 'sqlite') {
    const template = options.migrated ? await sqliteTemplate() : undefined;
    const dir = mkdtempSync(join(tmpdir(), 'ordergate-test-'));
    const file = join(dir, 'test.sqlite');
    if (template) copyFileSync(template, file);
    const url = `sqlite:${file}`;
    return { url, env: { DATABASE_URL: url }, drop: async () => rmSync(dir, { recursive: true, force: true }) };
  }
  if (backend === 'pgbouncer') await requirePgBouncer();
  const template = options.migrated ? await postgresTemplate(adminUrl) : undefined;
  // Created and dropped directly: PgBouncer would hold a refused connection attempt against a
  // database that does not exist yet for server_login_retry.
  const name = `og_test_${process.pid}_${randomBytes(4).toString('hex')}`;
  await asAdmin(adminUrl, (admin) => admin.query(`create database ${name}${template ? ` template ${template}` : ''}`));
  const direct = withDatabase(adminUrl, name);
  const url = backend === 'pgbouncer' ? withDatabase(PGBOUNCER_TEST_URL, name) : direct;
  return {
    url,
    env: backend === 'pgbouncer' ? { DATABASE_URL: url, DATABASE_DIRECT_URL: direct } : { DATABASE_URL: url },
    drop: () => asAdmin(adminUrl, (admin) => admin.query(`drop database if exists ${name} with (force)`)).then(() => undefined),
  };
}

async function asAdmin<T>(adminUrl: string, fn: (admin: pg.Client) => Promise<T>): Promise<T> {
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    return await fn(admin);
  } finally {
    await admin.end();
  }
}

/** The migrations' code: a template made by other migrations (another branch, an edited file) is another template. */
const migrationsDigest = createHash('sha256')
  .update(
    Object.entries(MIGRATIONS)
      .map(([name, m]) => `${name}\n${String(m.up)}\n${String(m.down)}`)
      .join('\n'),
  )
  .digest('hex')
  .slice(0, 16);

async function migratedTemplate(url: string): Promise<void> {
  const store = openStore(url);
  try {
    await migrateToLatest(store);
  } finally {
    await store.close();
  }
}

let sqliteTemplateFile: Promise<string> | undefined;

/** A SQLite file the migrations made, once per process; each migrated test database is a copy of it. */
function sqliteTemplate(): Promise<string> {
  sqliteTemplateFile ??= (async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ordergate-template-'));
    process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
    const file = join(dir, 'template.sqlite');
    await migratedTemplate(`sqlite:${file}`);
    // Closed, the file holds everything: its write-ahead log was checkpointed and removed.
    if (existsSync(`${file}-wal`)) throw new Error(`the template ${file} still has a write-ahead log`);
    return file;
  })();
  return sqliteTemplateFile;
}

const postgresTemplates = new Map<string, Promise<string>>();

/**
 * A PostgreSQL database the migrations made, on the server of `adminUrl`, named by their digest and
 * shared by every test process (PostgreSQL copies it for CREATE DATABASE … TEMPLATE). The first
 * process to need it makes it under a lock, under a name of its own that it renames once migrated,
 * so that no process ever copies a half-made one; nothing connects to it afterwards.
 */
function postgresTemplate(adminUrl: string): Promise<string> {
  const name = `og_template_${migrationsDigest}`;
  let made = postgresTemplates.get(adminUrl);
  if (!made) {
    made = asAdmin(adminUrl, async (admin) => {
      await admin.query('select pg_advisory_lock(hashtext($1))', [name]);
      try {
        if ((await admin.query('select 1 from pg_database where datname = $1', [name])).rowCount === 0) {
          const building = `${name}_${process.pid}`;
          await admin.query(`drop database if exists ${building}`);
          await admin.query(`create database ${building}`);
          await migratedTemplate(withDatabase(adminUrl, building));
          await admin.query(`alter database ${building} rename to ${name}`);
        }
      } finally {
        await admin.query('select pg_advisory_unlock(hashtext($1))', [name]);
      }
      return name;
    });
    postgresTemplates.set(adminUrl, made);
  }
  return made;
}

/** An isolated, migrated store on the backend. */
export const createTestStore = async (backend: Backend): Promise<{ store: Store; database: TestDatabase; close: () => Promise<void> }> =>
  openMigrated(await createTestDatabase(backend, PG_TEST_URL, { migrated: true }));

/** The store of a test database, migrated; close() closes it and drops the database. */
export async function openMigrated<D extends TestDatabase>(
  database: D,
  options: OpenStoreOptions = {},
): Promise<{ store: Store; database: D; close: () => Promise<void> }> {
  // As the service opens it: prepared statements, except through PgBouncer (a DATABASE_DIRECT_URL beside it).
  const preparedStatements = loadConfig(database.env).databasePreparedStatements;
  const store = openStore(database.url, { poolSize: 10, preparedStatements, ...options });
  await migrateToLatest(store);
  return {
    store,
    database,
    close: async () => {
      await store.close();
      await database.drop();
    },
  };
}

/** An inline write door over a store (what CLI commands use), for suites that work below HTTP. */
export const openTestWrites = (store: Store): WriteDoor => openWriteDoor(store, writeRegistry);
