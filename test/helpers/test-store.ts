import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { migrateToLatest } from '../../src/store/migrate.js';
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
 * A fresh, empty database: a temporary SQLite file, or a new PostgreSQL database of its own on the
 * server of `adminUrl` (PG_TEST_URL unless given), reached through PgBouncer for `pgbouncer`.
 */
export async function createTestDatabase(backend: Backend, adminUrl = PG_TEST_URL): Promise<TestDatabase> {
  if (backend === 'sqlite') {
    const dir = mkdtempSync(join(tmpdir(), 'ordergate-test-'));
    const url = `sqlite:${join(dir, 'test.sqlite')}`;
    return { url, env: { DATABASE_URL: url }, drop: async () => rmSync(dir, { recursive: true, force: true }) };
  }
  if (backend === 'pgbouncer') await requirePgBouncer();
  // Created and dropped directly: PgBouncer would hold a refused connection attempt against a
  // database that does not exist yet for server_login_retry.
  const name = `og_test_${process.pid}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(`create database ${name}`);
  } finally {
    await admin.end();
  }
  const direct = withDatabase(adminUrl, name);
  const url = backend === 'pgbouncer' ? withDatabase(PGBOUNCER_TEST_URL, name) : direct;
  return {
    url,
    env: backend === 'pgbouncer' ? { DATABASE_URL: url, DATABASE_DIRECT_URL: direct } : { DATABASE_URL: url },
    drop: async () => {
      const c = new pg.Client({ connectionString: adminUrl });
      await c.connect();
      try {
        await c.query(`drop database if exists ${name} with (force)`);
      } finally {
        await c.end();
      }
    },
  };
}

/** An isolated, migrated store on the backend. */
export const createTestStore = async (backend: Backend): Promise<{ store: Store; database: TestDatabase; close: () => Promise<void> }> =>
  openMigrated(await createTestDatabase(backend));

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
