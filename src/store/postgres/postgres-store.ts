import pg from 'pg';
import { Kysely, PostgresAdapter, PostgresDialect, sql, type DialectAdapter, type Transaction } from 'kysely';
import type { Database } from '../database.js';
import { ReadReplica } from '../read-replica.js';
import type { Store } from '../store.js';
import { postgresSql, statementName } from './postgres-sql.js';

const INT8_OID = 20;
const NUMERIC_OID = 1700;

// Epoch-millisecond stamps and ids are bigint columns; they fit a JS number exactly (< 2^53).
const types = {
  getTypeParser(oid: number, format?: 'text' | 'binary') {
    if (oid === INT8_OID || oid === NUMERIC_OID) return (v: string) => Number(v);
    return pg.types.getTypeParser(oid, format);
  },
} as pg.CustomTypesConfig;

// The key of Kysely's own migration lock (its PostgresAdapter): a process of an older release,
// which takes that lock per session, and this one still exclude each other.
const MIGRATION_LOCK_KEY = '3853314791062309107';

/** Kysely's PostgreSQL adapter without the migrator's lock: the caller's transaction holds one. */
class LockHeldAdapter extends PostgresAdapter {
  override async acquireMigrationLock(): Promise<void> {}
  override async releaseMigrationLock(): Promise<void> {}
}

class LockHeldDialect extends PostgresDialect {
  override createAdapter(): DialectAdapter {
    return new LockHeldAdapter();
  }
}

/**
 * Runs the migrations, their bookkeeping included, in one transaction on one connection that holds
 * a transaction-scoped advisory lock. Kysely's migrator (0.28) takes a session-level lock before its
 * transaction and releases it after, in separate statements: through a pooler in transaction mode
 * (PgBouncer) those can land on different server connections, leaving the lock held on a pooled
 * connection and the next migration waiting for it (up to Kysely's one-hour lock timeout). A
 * transaction stays on one server connection, and its lock ends with it — also when it fails.
 */
async function migrateInOneTransaction(pool: pg.Pool, run: (db: Kysely<Database>, inOwnTransaction: boolean) => Promise<string[]>): Promise<string[]> {
  const client = await pool.connect();
  // A Kysely over this one client (release is the caller's), for the migrator.
  const single = { connect: async () => ({ query: client.query.bind(client), release: () => undefined }), end: async () => undefined };
  const db = new Kysely<Database>({ dialect: new LockHeldDialect({ pool: single }) });
  let broken: Error | undefined;
  try {
    await client.query('begin');
    try {
      await client.query(`select pg_advisory_xact_lock(${MIGRATION_LOCK_KEY})`);
      const applied = await run(db, true);
      await client.query('commit');
      return applied;
    } catch (err) {
      await client.query('rollback').catch((e: Error) => (broken = e));
      throw err;
    }
  } finally {
    await db.destroy();
    // A connection whose rollback failed is not handed out again.
    client.release(broken);
  }
}

/** A streaming replica to open next to the primary (DATABASE_READ_URL). */
export interface ReplicaOptions {
  readonly url: string;
  /** How long a failed replica is left alone (store/read-replica.ts). */
  readonly retryMs?: number;
  /** Told when the replica is found failing (reads fall back to the primary), once until it answers again. */
  readonly onError?: (err: Error) => void;
}

/**
 * A connection that sends the hand-written statements of the hot paths (postgres-sql.ts: `run`,
 * `runRows`) as named prepared statements: PostgreSQL parses and plans each once per connection
 * instead of on every execution. That took a third of PostgreSQL's CPU per order confirmation
 * (docs/performance.md). A pooler in transaction mode before PgBouncer 1.21 hands a client other
 * server connections, which lack the statement: there the pool uses plain connections
 * (DATABASE_PREPARED_STATEMENTS, docs/deploying.md).
 */
class PreparingClient extends pg.Client {
  constructor(config?: string | pg.ClientConfig) {
    super(config);
    const plain = this.query.bind(this) as (...args: unknown[]) => unknown;
    // Kysely's driver calls query(text, values); everything else passes through as it came.
    (this as { query: unknown }).query = (...args: unknown[]) => {
      const [text, values] = args;
      const name = args.length === 2 && typeof text === 'string' && Array.isArray(values) ? statementName(text) : undefined;
      if (name === undefined) return plain(...args);
      return (plain({ name, text, values }) as Promise<unknown>).catch((err: unknown) => {
        throw withPoolerHint(err);
      });
    };
  }
}

// What a pooler that hands out other server connections makes of named statements.
const STATEMENT_MISSING = '26000';
const STATEMENT_TAKEN = '42P05';

/** The error of a prepared statement that another server connection lacks (or holds already) says what to set. */
function withPoolerHint(err: unknown): unknown {
  const code = (err as { code?: unknown } | null)?.code;
  if (err instanceof Error && (code === STATEMENT_MISSING || code === STATEMENT_TAKEN)) {
    err.message += ' (a pooler in transaction mode does not keep prepared statements: set DATABASE_PREPARED_STATEMENTS=false, docs/deploying.md)';
  }
  return err;
}

/** What a pool of the store is opened with. */
interface PoolOptions {
  readonly max: number;
  readonly connectionTimeoutMillis: number;
  /** Named prepared statements for the hand-written texts (PreparingClient). */
  readonly prepare: boolean;
}

/** A pool whose lost connections do not crash the process, and a Kysely handle over it. */
function openPool(connectionString: string, options: PoolOptions, onPoolError: (err: Error) => void): { pool: pg.Pool; db: Kysely<Database> } {
  const { max, connectionTimeoutMillis, prepare } = options;
  const pool = new pg.Pool({ connectionString, max, types, connectionTimeoutMillis, ...(prepare ? { Client: PreparingClient } : {}) });
  // An idle client losing its connection must not crash the process; the next query reconnects.
  pool.on('error', onPoolError);
  // pg only listens for errors on idle clients; a checked-out client whose connection drops would
  // otherwise raise an uncaught 'error' and take the process down. The failing query still rejects.
  pool.on('connect', (client) => client.on('error', onPoolError));
  return { pool, db: new Kysely<Database>({ dialect: new PostgresDialect({ pool }) }) };
}

/** Ends a pool and its Kysely handle: Kysely ends the pool only if it used it (a store that only migrated did not). */
async function closePool(p: { pool: pg.Pool; db: Kysely<Database> }): Promise<void> {
  await p.db.destroy();
  if (!p.pool.ending) await p.pool.end();
}

/**
 * PostgreSQL through a pg pool; reads and writes share the pool. With a replica, a second pool on
 * it serves the reads that route there (store/read-replica.ts).
 */
export function createPostgresStore(
  connectionString: string,
  poolSize: number,
  onPoolError: (err: Error) => void = () => undefined,
  replicaOptions?: ReplicaOptions,
  prepare = false,
): Store {
  const primary = openPool(connectionString, { max: poolSize, connectionTimeoutMillis: 5000, prepare }, onPoolError);
  const { db } = primary;
  let replicaPool: { pool: pg.Pool; db: Kysely<Database> } | undefined;
  const store: Store = {
    db,
    reader: db,
    sql: postgresSql,
    // Each statement is a network round trip: a few transactions in flight keep the pool busy.
    writeConcurrency: 2,
    readAhead: true,
    writeTransaction<T>(fn: (trx: Transaction<Database>) => Promise<T>): Promise<T> {
      return db.transaction().execute(fn);
    },
    migrate: (run) => migrateInOneTransaction(primary.pool, run),
    async scrubFreedSpace(tables) {
      // VACUUM cannot run in a transaction block: one plain statement (also through a pooler).
      await sql`vacuum ${sql.join(tables.map((t) => sql.table(t)))}`.execute(db);
    },
    async ping() {
      await sql`select 1`.execute(db);
    },
    async close() {
      await Promise.all([closePool(primary), replicaPool && closePool(replicaPool)]);
    },
  };
  if (!replicaOptions) return store;
  const onError = replicaOptions.onError ?? (() => undefined);
  // Shorter than the primary's: a replica that does not answer is soon skipped for the primary.
  // A dropped connection to it is a failure like any other: reported once, until it answers again.
  replicaPool = openPool(replicaOptions.url, { max: poolSize, connectionTimeoutMillis: 3000, prepare }, (err) => replica.markDown(err));
  const replica = new ReadReplica({ ...store, reader: replicaPool.db }, replicaOptions.retryMs, (err) => onError(err instanceof Error ? err : new Error(String(err))));
  return { ...store, replica };
}
