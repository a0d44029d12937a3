import pg from 'pg';
import { Kysely, PostgresDialect, sql, type Transaction } from 'kysely';
import type { Database } from '../database.js';
import type { Store } from '../store.js';
import { postgresSql } from './postgres-sql.js';

const INT8_OID = 20;
const NUMERIC_OID = 1700;

// Epoch-millisecond stamps and ids are bigint columns; they fit a JS number exactly (< 2^53).
const types = {
  getTypeParser(oid: number, format?: 'text' | 'binary') {
    if (oid === INT8_OID || oid === NUMERIC_OID) return (v: string) => Number(v);
    return pg.types.getTypeParser(oid, format);
  },
} as pg.CustomTypesConfig;

/** PostgreSQL through a pg pool; reads and writes share the pool. */
export function createPostgresStore(
  connectionString: string,
  poolSize: number,
  onPoolError: (err: Error) => void = () => undefined,
): Store {
  const pool = new pg.Pool({ connectionString, max: poolSize, types, connectionTimeoutMillis: 5000 });
  // An idle client losing its connection must not crash the process; the next query reconnects.
  pool.on('error', onPoolError);
  // pg only listens for errors on idle clients; a checked-out client whose connection drops would
  // otherwise raise an uncaught 'error' and take the process down. The failing query still rejects.
  pool.on('connect', (client) => client.on('error', onPoolError));
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  return {
    db,
    reader: db,
    sql: postgresSql,
    // Each statement is a network round trip: a few transactions in flight keep the pool busy.
    writeConcurrency: 2,
    writeTransaction<T>(fn: (trx: Transaction<Database>) => Promise<T>): Promise<T> {
      return db.transaction().execute(fn);
    },
    // Kysely's migrator holds an advisory lock in its own transaction.
    migrate: (run) => run(db, false),
    async ping() {
      await sql`select 1`.execute(db);
    },
    async close() {
      await db.destroy();
    },
  };
}
