import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { openStore } from '../../src/store/open-store.js';
import { PG_URL, ROOT, type Backend } from './settings.js';

const run = promisify(execFile);

export interface BenchDatabase {
  readonly backend: Backend;
  /** DATABASE_URL of this database. */
  readonly url: string;
  drop(): Promise<void>;
}

async function adminQuery(text: string): Promise<void> {
  const client = new pg.Client({ connectionString: PG_URL });
  await client.connect();
  try {
    await client.query(text);
  } finally {
    await client.end();
  }
}

/** A fresh, empty database of its own: a temporary SQLite file, or a new PostgreSQL database. */
export async function createDatabase(backend: Backend, label = 'bench'): Promise<BenchDatabase> {
  if (backend === 'sqlite') {
    const dir = mkdtempSync(join(process.env.BENCH_DIR ?? tmpdir(), `ordergate-${label}-`));
    return { backend, url: `sqlite:${join(dir, 'bench.sqlite')}`, drop: async () => rmSync(dir, { recursive: true, force: true }) };
  }
  const name = `og_${label}_${process.pid}_${Date.now().toString(36)}`;
  await adminQuery(`create database ${name}`);
  const url = new URL(PG_URL);
  url.pathname = `/${name}`;
  return { backend, url: url.toString(), drop: () => adminQuery(`drop database if exists ${name} with (force)`) };
}

/** Runs the CLI on the database (`node bin/ordergate.js …`) and returns its stdout. */
export async function cli(db: BenchDatabase, args: readonly string[], env: Record<string, string> = {}): Promise<string> {
  const { stdout } = await run(process.execPath, [join(ROOT, 'bin', 'ordergate.js'), ...args], {
    cwd: ROOT,
    env: { ...process.env, DATABASE_URL: db.url, LOG_LEVEL: 'warn', ...env },
    maxBuffer: 64 * 1024 * 1024,
  });
  return stdout;
}

export interface SeedTiming {
  readonly customers: number;
  readonly orders: number;
  readonly seconds: number;
}

/** `seed --customers N --orders M` through the CLI, timed from the outside. */
export async function seed(db: BenchDatabase, customers: number, orders = 0): Promise<SeedTiming> {
  const args = ['seed', '--customers', String(customers)];
  if (orders > 0) args.push('--orders', String(orders));
  const started = performance.now();
  await cli(db, args);
  return { customers, orders, seconds: (performance.now() - started) / 1000 };
}

/** Ids of the open orders, oldest first: each confirmation of the benchmark takes a fresh one. */
export async function openOrderIds(db: BenchDatabase): Promise<number[]> {
  const store = openStore(db.url, { poolSize: 1 });
  try {
    const rows = await store.db.selectFrom('orders').select('order_id').where('status', '=', 'Open').orderBy('order_id').execute();
    return rows.map((r) => Number(r.order_id));
  } finally {
    await store.close();
  }
}
