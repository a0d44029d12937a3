import { migrateToLatest } from '../../src/store/migrate.js';
import { openStore } from '../../src/store/open-store.js';
import { seedOrders } from '../../src/orders/order.seed.js';
import { startServer, type ServerProcess } from '../helpers/spawn-server.js';
import { openTestWrites } from '../helpers/test-store.js';
import { confirmation } from './order-fixtures.js';

/** The key the spawned servers register on their first start (all,admin). */
export const PROCESS_KEY = 'og_orders_process_test_key_0123456789abcdefghijklmnop';

/** Migrates the database and creates open orders 1..count, before any server runs. */
export async function prepareOrders(url: string, count: number): Promise<void> {
  const store = openStore(url, { poolSize: 2 });
  try {
    await migrateToLatest(store);
    await seedOrders(openTestWrites(store), count);
  } finally {
    await store.close();
  }
}

/** `ordergate serve` (the built dist/) on this database, one process, with PROCESS_KEY; env adds configuration. */
export const serveOrders = (url: string, env: Record<string, string> = {}): Promise<ServerProcess> =>
  startServer({ ...env, DATABASE_URL: url, ORDERGATE_BOOTSTRAP_KEY: PROCESS_KEY });

export interface HttpAnswer {
  readonly status: number;
  readonly body: any;
  readonly headers: Headers;
}

/** A real HTTP request over a socket; rejects when the connection fails. `headers` adds to the key and content type. */
export async function call(
  port: number,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<HttpAnswer> {
  const res = await fetch(`http://127.0.0.1:${port}${path}`, {
    method,
    headers: { authorization: `Bearer ${PROCESS_KEY}`, 'content-type': 'application/json', ...headers },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await res.text();
  return { status: res.status, body: text === '' ? undefined : JSON.parse(text), headers: res.headers };
}

export const confirmOver = (port: number, orderId: number, overrides: Record<string, unknown>): Promise<HttpAnswer> =>
  call(port, 'POST', `/orders/${orderId}/confirm`, confirmation(overrides));
