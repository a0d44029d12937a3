import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { migrateToLatest } from '../../src/store/migrate.js';
import { openStore } from '../../src/store/open-store.js';
import type { Store } from '../../src/store/store.js';
import { writeRegistry } from '../../src/write-registry.js';
import { openWriteDoor, type WriteDoor } from '../../src/writes/write-door.js';

export type Backend = 'sqlite' | 'postgres';

/** The backends every behavioural suite runs on: `BACKENDS=sqlite,postgres` (the default). */
export const BACKENDS: readonly Backend[] = (process.env.BACKENDS ?? 'sqlite,postgres')
  .split(',')
  .map((s) => s.trim())
  .filter((s): s is Backend => s === 'sqlite' || s === 'postgres');

export const PG_TEST_URL = process.env.PG_TEST_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

export interface TestDatabase {
  /** A DATABASE_URL for this isolated database. */
  readonly url: string;
  drop(): Promise<void>;
}

/** A fresh, empty database: a temporary SQLite file, or a new PostgreSQL database of its own. */
export async function createTestDatabase(backend: Backend): Promise<TestDatabase> {
  if (backend === 'sqlite') {
    const dir = mkdtempSync(join(tmpdir(), 'ordergate-test-'));
    return { url: `sqlite:${join(dir, 'test.sqlite')}`, drop: async () => rmSync(dir, { recursive: true, force: true }) };
  }
  const name = `og_test_${process.pid}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: PG_TEST_URL });
  await admin.connect();
  try {
    await admin.query(`create database ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(PG_TEST_URL);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const c = new pg.Client({ connectionString: PG_TEST_URL });
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
export async function createTestStore(backend: Backend): Promise<{ store: Store; database: TestDatabase; close(): Promise<void> }> {
  const database = await createTestDatabase(backend);
  const store = openStore(database.url, { poolSize: 10 });
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
