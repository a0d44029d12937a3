import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { openStore } from '../../src/store/open-store.js';
import { orderCounts, PG_URL, ROOT, type Backend } from './settings.js';

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

/** `seed --customers N --orders M --confirmed K` through the CLI, timed from the outside. */
export async function seed(db: BenchDatabase, customers: number, orders = 0, confirmed = 0): Promise<SeedTiming> {
  const args = ['seed', '--customers', String(customers)];
  if (orders > 0) args.push('--orders', String(orders));
  if (confirmed > 0) args.push('--confirmed', String(confirmed));
  const started = performance.now();
  await cli(db, args);
  return { customers, orders, seconds: (performance.now() - started) / 1000 };
}

/** Ids of the orders in a status, oldest first: each confirmation of the benchmark takes a fresh open one. */
export async function orderIds(db: BenchDatabase, status: 'Open' | 'Confirmed'): Promise<number[]> {
  const store = openStore(db.url, { poolSize: 1 });
  try {
    const rows = await store.db.selectFrom('orders').select('order_id').where('status', '=', status).orderBy('order_id').execute();
    return rows.map((r) => Number(r.order_id));
  } finally {
    await store.close();
  }
}

/**
 * PostgreSQL's planner statistics and visibility map of the freshly seeded tables, as autovacuum
 * would leave them on a database in service (the test server runs without it). Without them the planner guesses a few
 * hundred orders of a status and reads every one of them, sorted, for each chunk of a filtered feed.
 */
async function refreshStatistics(db: BenchDatabase): Promise<void> {
  if (db.backend !== 'postgres') return;
  const client = new pg.Client({ connectionString: db.url });
  await client.connect();
  try {
    await client.query('vacuum (analyze)');
  } finally {
    await client.end();
  }
}

/** The seeded data set, as the scenarios get to know it (ScenarioContext), and how long seeding took. */
export interface BenchData {
  /** Seeded customers C00000001…, external ids EXT-1…. */
  readonly customers: number;
  /** Seeded orders (none when no scenario of the run uses them). */
  readonly orders: number;
  /** Open orders, each to be confirmed once; scenarios take from the front. */
  readonly openOrders: number[];
  /** Ids of the seeded confirmed orders. */
  readonly confirmedOrders: readonly number[];
  readonly seeding: SeedTiming;
}

/**
 * The bench's data set: `customers` demo customers and, when a scenario needs orders, the backend's
 * orders (settings.ts orderCounts), the first of them confirmed.
 */
export async function seedBenchData(db: BenchDatabase, customers: number, withOrders: boolean): Promise<BenchData> {
  const { orders, confirmed } = withOrders ? orderCounts(db.backend) : { orders: 0, confirmed: 0 };
  const seeding = await seed(db, customers, orders, confirmed);
  await refreshStatistics(db);
  return { customers, orders, openOrders: await orderIds(db, 'Open'), confirmedOrders: await orderIds(db, 'Confirmed'), seeding };
}

/**
 * Customers and orders of `lines` lines each, seeded in this process (`seed` has no flag for the
 * number of lines: its orders hold 1–5): the order content scenarios' own data set, timed.
 */
export async function seedWithLines(
  db: BenchDatabase,
  customers: number,
  orders: number,
  confirmed: number,
  lines: number,
): Promise<SeedTiming> {
  const [{ migrateToLatest }, { writeRegistry }, { openWriteDoor }, { seedCustomers }, { seedOrders }] = await Promise.all([
    import('../../src/store/migrate.js'),
    import('../../src/write-registry.js'),
    import('../../src/writes/write-door.js'),
    import('../../src/customers/index.js'),
    import('../../src/orders/index.js'),
  ]);
  const started = performance.now();
  const store = openStore(db.url);
  const writes = openWriteDoor(store, writeRegistry);
  try {
    await migrateToLatest(store);
    await seedCustomers(writes, customers);
    await seedOrders(writes, orders, undefined, { confirmed, customers, lines });
  } finally {
    await writes.close();
    await store.close();
  }
  return { customers, orders, seconds: (performance.now() - started) / 1000 };
}
