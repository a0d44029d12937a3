import type pg from 'pg';
import { pgDriver } from './pg-driver.js';
import { Kysely, PostgresAdapter, PostgresDialect, sql, type DialectAdapter, type Transaction } from 'kysely';
import type { Database } from '../database.js';
import { ReadReplica } from '../read-replica.js';
import { handleOf, type DbHandle, type Store } from '../store.js';
import { isPreparedStatementLost } from '../store-errors.js';
import { postgresSql, queryDirectly, statementName } from './postgres-sql.js';

const INT8_OID = 20;
const NUMERIC_OID = 1700;

// Epoch-millisecond stamps and ids are bigint columns; they fit a JS number exactly (< 2^53).
const types = {
  getTypeParser(oid: number, format?: 'text' | 'binary') {
    if (oid === INT8_OID || oid === NUMERIC_OID) return (v: string) => Number(v);
    // eslint-disable-next-line @typescript-eslint/no-unsafe-return -- pg types a parser looked up with a runtime format as any
    return pgDriver().types.getTypeParser(oid, format);
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
async function migrateInOneTransaction(
  pool: pg.Pool,
  run: (db: Kysely<Database>, inOwnTransaction: boolean) => Promise<string[]>,
): Promise<string[]> {
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
 * Whether a store's connections name the hand-written statements of the hot paths (postgres-sql.ts:
 * `run`, `runRows`): named, PostgreSQL parses and plans each once per connection instead of on
 * every execution, which took a third of its CPU per order confirmation (docs/performance.md).
 *
 * A pooler in transaction mode that does not keep prepared statements (PgBouncer before 1.21) hands
 * a client other server connections: a statement prepared in one transaction is missing on the next
 * connection (26000), or another client prepared it there already (42P05). No probe at start can
 * make a pooler show that (an idle pool hands back the same server connection), so the first such
 * error decides: from then on every connection of the store, replica included, sends its statements
 * unnamed, and the store says so once. The statement that met it runs again unnamed; a transaction
 * it aborted is run again by the write door (writes/group-commit.ts).
 */
class StatementNaming {
  #on: boolean;
  constructor(
    on: boolean,
    private readonly onTurnedOff: (err: Error) => void,
  ) {
    this.#on = on;
  }

  get on(): boolean {
    return this.#on;
  }

  /** Named statements were lost to a pooler: no connection of the store names one again. */
  lost(err: Error): void {
    if (!this.#on) return;
    this.#on = false;
    this.onTurnedOff(err);
  }
}

/**
 * A pg client that names the hand-written statements while `naming` is on. Each client remembers
 * which names it prepared (node-postgres), and those memories go stale through a pooler; they are
 * only consulted for a named query, and once naming is off none is sent again.
 */
function namingClient(naming: StatementNaming): typeof pg.Client {
  return class NamingClient extends pgDriver().Client {
    constructor(config?: string | pg.ClientConfig) {
      super(config);
      const plain = this.query.bind(this) as (...args: unknown[]) => Promise<unknown>;
      // Kysely's driver calls query(text, values); everything else passes through as it came.
      (this as { query: unknown }).query = (...args: unknown[]) => {
        const [text, values] = args;
        const name = naming.on && args.length === 2 && typeof text === 'string' && Array.isArray(values) ? statementName(text) : undefined;
        if (name === undefined) return plain(...args);
        return plain({ name, text, values }).catch((err: unknown) => {
          if (!isPreparedStatementLost(err)) throw err;
          naming.lost(err as Error);
          // Inside a transaction the error has aborted it: only running the whole transaction again helps.
          if (this.getTransactionStatus() !== 'I') throw err;
          return plain(text, values);
        });
      };
    }
  };
}

/** What a pool of the store is opened with. */
interface PoolOptions {
  readonly max: number;
  readonly connectionTimeoutMillis: number;
  /** Whether the hand-written texts go out as named prepared statements, for as long as they may. */
  readonly naming: StatementNaming;
}

/** A pool whose lost connections do not crash the process, and a Kysely handle over it. */
function openPool(
  connectionString: string,
  options: PoolOptions,
  onPoolError: (err: Error) => void,
): { pool: pg.Pool; db: Kysely<Database> } {
  const { max, connectionTimeoutMillis, naming } = options;
  const pool = new (pgDriver().Pool)({
    connectionString,
    max,
    types,
    connectionTimeoutMillis,
    ...(naming.on ? { Client: namingClient(naming) } : {}),
  });
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
  onNamingOff: (err: Error) => void = () => undefined,
): Store {
  const naming = new StatementNaming(prepare, onNamingOff);
  const primary = openPool(connectionString, { max: poolSize, connectionTimeoutMillis: 5000, naming }, onPoolError);
  const db = handleOf(primary.db, postgresSql);
  queryDirectly(primary.db, primary.pool, naming);
  let replicaPool: { pool: pg.Pool; db: Kysely<Database> } | undefined;
  const store: Store = {
    db,
    reader: db,
    // Each statement is a network round trip: a few transactions in flight keep the pool busy.
    writeConcurrency: 2,
    readAhead: true,
    handle: (executor) => handleOf(executor, postgresSql),
    writeTransaction<T>(fn: (trx: DbHandle<Transaction<Database>>) => Promise<T>): Promise<T> {
      return db.transaction().execute((trx) => fn(handleOf(trx, postgresSql)));
    },
    migrate: (run) => migrateInOneTransaction(primary.pool, run),
    async scrubFreedSpace(tables) {
      // VACUUM cannot run in a transaction block: one plain statement (also through a pooler).
      await sql`vacuum ${sql.join(tables.map((t) => sql.table(t)))}`.execute(db);
    },
    async settleTextIndexes() {
      await sql`vacuum (analyze) customer_words, order_words`.execute(db);
    },
    async ping() {
      // A table of the store, named as every statement names it: a session that lost the store's
      // schema (a search_path left behind on a pooled connection) is not ready either.
      await sql`select last_stamp from sync_clock where id = 1`.execute(db);
    },
    async close() {
      await Promise.all([closePool(primary), replicaPool && closePool(replicaPool)]);
    },
  };
  if (!replicaOptions) return store;
  const onError = replicaOptions.onError ?? (() => undefined);
  // Shorter than the primary's: a replica that does not answer is soon skipped for the primary.
  // A dropped connection to it is a failure like any other: reported once, until it answers again.
  replicaPool = openPool(replicaOptions.url, { max: poolSize, connectionTimeoutMillis: 3000, naming }, (err) => replica.markDown(err));
  queryDirectly(replicaPool.db, replicaPool.pool, naming);
  const replica = new ReadReplica({ ...store, reader: handleOf(replicaPool.db, postgresSql) }, replicaOptions.retryMs, (err) =>
    onError(err instanceof Error ? err : new Error(String(err))),
  );
  return { ...store, replica };
}
