import { after, before, describe } from 'node:test';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { Writable } from 'node:stream';
import { buildApp } from '../../src/app.js';
import { createKey } from '../../src/auth/key.service.js';
import { loadConfig, type Config } from '../../src/config.js';
import { allOperations } from '../../src/operations.js';
import type { Store } from '../../src/store/store.js';
import type { AnyOperation } from '../../src/wire/operation.js';
import type { WriteDoor } from '../../src/writes/write-door.js';
import { createReplicatedTestStore } from './replica.js';
import { BACKENDS, allBackends, createTestStore, leftOut, openTestWrites, type Backend } from './test-store.js';

export interface TestKeys {
  /** Permissions all,admin. */
  readonly admin: string;
  /** Permission all only. */
  readonly all: string;
  /** Permission admin only. */
  readonly adminOnly: string;
}

export interface TestApp {
  readonly backend: Backend;
  readonly app: FastifyInstance;
  readonly store: Store;
  readonly config: Config;
  readonly keys: TestKeys;
  /** Every log line the app wrote, as text. */
  readonly logs: string[];
  /** Injects with `Authorization: Bearer <keys.admin>` unless headers say otherwise. */
  inject(opts: InjectOptions | string): Promise<LightMyRequestResponse>;
  close(): Promise<void>;
}

/**
 * The store settings of a process on the app's database, as its operator would give them: the
 * DATABASE_URL and, through PgBouncer, the DATABASE_DIRECT_URL (which also turns prepared statements off).
 */
export const storeEnv = (config: Config, databaseUrl = config.databaseUrl): Record<string, string> => ({
  DATABASE_URL: databaseUrl,
  ...(config.databaseDirectUrl ? { DATABASE_DIRECT_URL: config.databaseDirectUrl } : {}),
});

export const bearer = (key: string): Record<string, string> => ({ authorization: `Bearer ${key}` });

export interface TestAppOptions {
  /** Operations added to the service's own (test-only operations, e.g. from wire-test-operations.ts). */
  readonly extraOperations?: (store: Store) => AnyOperation[];
  /** PostgreSQL with a streaming replica for the reads that may go there (helpers/replica.ts). */
  readonly readReplica?: boolean;
  /** describeEachBackend: run through PgBouncer too (BACKENDS_WITH_PGBOUNCER): a suite of the pooled subset. */
  readonly pgbouncer?: boolean;
}

/** A whole app on a fresh database of the backend, with three keys; env adds configuration. */
export async function createTestApp(backend: Backend, env: Record<string, string> = {}, options: TestAppOptions = {}): Promise<TestApp> {
  if (options.readReplica && backend !== 'postgres') throw new Error('a read replica needs PostgreSQL');
  const replicated = options.readReplica ? await createReplicatedTestStore() : undefined;
  const { store, close: closeStore, database } = replicated ?? (await createTestStore(backend));
  const readUrl: Record<string, string> = replicated ? { DATABASE_READ_URL: replicated.database.readUrl } : {};
  const config = loadConfig({ LOG_LEVEL: 'info', RATE_LIMIT_PER_SECOND: '0', ...env, ...database.env, ...readUrl });
  const logs: string[] = [];
  const logStream = new Writable({
    write(chunk, _enc, cb) {
      logs.push(String(chunk));
      cb();
    },
  });
  const extra = options.extraOperations;
  const operations = extra ? (writes: WriteDoor) => [...allOperations(store, writes, config), ...extra(store)] : undefined;
  const keys = await createKeys(store);
  const app = await buildApp({ config, store, logStream, ...(operations ? { operations } : {}) });
  return {
    backend,
    app,
    store,
    config,
    keys,
    logs,
    inject(opts) {
      const o: InjectOptions = typeof opts === 'string' ? { url: opts } : opts;
      const headers = { ...bearer(keys.admin), ...(o.headers ?? {}) } as Record<string, string>;
      for (const [k, v] of Object.entries(headers)) if (v === undefined) delete headers[k];
      return app.inject({ ...o, headers });
    },
    async close() {
      await app.close();
      await closeStore();
    },
  };
}

/**
 * The three keys, written before the app starts through a write door in this thread (as `ordergate
 * keys create` writes them): on SQLite the app's write thread starts with the first write of a test,
 * and a suite that writes nothing never starts one.
 */
async function createKeys(store: Store): Promise<TestKeys> {
  const writes = openTestWrites(store);
  try {
    return {
      admin: (await createKey(writes, 'test-admin', 'all,admin')).key,
      all: (await createKey(writes, 'test-all', 'all')).key,
      adminOnly: (await createKey(writes, 'test-admin-only', 'admin')).key,
    };
  } finally {
    await writes.close();
  }
}

/** One suite with one app shared by its tests (`t()` returns it), on a fresh database of the backend. */
function describeWithApp(
  title: string,
  backend: Backend,
  suite: (t: () => TestApp, backend: Backend) => void,
  env: Record<string, string>,
  options: TestAppOptions,
): void {
  describe(title, { skip: leftOut(backend) }, () => {
    let current: TestApp | undefined;
    before(async () => {
      current = await createTestApp(backend, env, options);
    });
    after(async () => {
      await current?.close();
    });
    suite(() => {
      if (!current) throw new Error('test app not ready');
      return current;
    }, backend);
  });
}

/**
 * Runs a suite once per backend with one app shared by its tests (`t()` returns it). Tests must
 * use their own ids so that they do not depend on each other's data. For suites whose outcome
 * depends on the store.
 */
export function describeEachBackend(
  name: string,
  suite: (t: () => TestApp, backend: Backend) => void,
  env: Record<string, string> = {},
  options: TestAppOptions = {},
): void {
  for (const backend of allBackends(options.pgbouncer)) describeWithApp(`${name} [${backend}]`, backend, suite, env, options);
}

/**
 * Runs a suite on PostgreSQL with its feeds read through a streaming replica (helpers/replica.ts),
 * skipped (saying so) when BACKENDS leaves PostgreSQL out.
 */
export function describeWithReplica(
  name: string,
  suite: (t: () => TestApp, backend: Backend) => void,
  env: Record<string, string> = {},
  options: TestAppOptions = {},
): void {
  describeWithApp(`${name} [postgres, reads on a streaming replica]`, 'postgres', suite, env, { ...options, readReplica: true });
}

/**
 * Runs a suite once, on the first configured backend, with one app shared by its tests. For suites
 * of the wire (routing, binding, formats, errors, headers, limits checked before the store): the
 * store only carries their data, and what it does is tested per backend elsewhere.
 */
export function describeOnce(
  name: string,
  suite: (t: () => TestApp, backend: Backend) => void,
  env: Record<string, string> = {},
  options: TestAppOptions = {},
): void {
  const backend = BACKENDS[0];
  if (!backend) throw new Error('BACKENDS names no backend');
  describeWithApp(name, backend, suite, env, options);
}

/** Parses a JSON response body, failing the test with the body text when it is not JSON. */
export function json<T = any>(res: LightMyRequestResponse): T {
  try {
    return JSON.parse(res.body) as T;
  } catch {
    throw new Error(`not JSON (status ${res.statusCode}): ${res.body.slice(0, 200)}`);
  }
}
