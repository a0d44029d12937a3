import {
  Kysely,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  SqliteAdapter,
  SqliteIntrospector,
  SqliteQueryCompiler,
  type CompiledQuery,
  type DatabaseConnection,
  type Dialect,
  type Driver,
  type QueryResult,
} from 'kysely';
import type { Database } from '../../src/store/database.js';
import { postgresSql } from '../../src/store/postgres/postgres-sql.js';
import { sqliteSql } from '../../src/store/sqlite/sqlite-sql.js';
import type { StoreSql } from '../../src/store/store.js';

/** The backends a snapshot is written for, named as the snapshot folders are. */
export const SNAPSHOT_BACKENDS = ['sqlite', 'postgres'] as const;
export type SnapshotBackend = (typeof SNAPSHOT_BACKENDS)[number];

/** One statement as it would reach the database: its text and its parameters. */
export interface RecordedQuery {
  readonly sql: string;
  readonly parameters: readonly unknown[];
}

/** A connection that answers every statement with no rows and keeps what it was asked. */
class RecordingConnection implements DatabaseConnection {
  constructor(private readonly log: RecordedQuery[]) {}

  async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    this.log.push({ sql: query.sql, parameters: query.parameters });
    return { rows: [] };
  }

  async *streamQuery<R>(query: CompiledQuery): AsyncIterableIterator<QueryResult<R>> {
    yield await this.executeQuery<R>(query);
  }
}

/** A driver with one recording connection; transactions are not statements of the repository, so they are not kept. */
function recordingDriver(log: RecordedQuery[]): Driver {
  const connection = new RecordingConnection(log);
  const nothing = async (): Promise<void> => undefined;
  return {
    init: nothing,
    acquireConnection: async () => connection,
    beginTransaction: nothing,
    commitTransaction: nothing,
    rollbackTransaction: nothing,
    releaseConnection: nothing,
    destroy: nothing,
  };
}

// The real adapters and compilers of each backend, so the text is what the store would send.
const dialects: Record<SnapshotBackend, (driver: Driver) => Dialect> = {
  sqlite: (driver) => ({
    createAdapter: () => new SqliteAdapter(),
    createDriver: () => driver,
    createQueryCompiler: () => new SqliteQueryCompiler(),
    createIntrospector: (db) => new SqliteIntrospector(db),
  }),
  postgres: (driver) => ({
    createAdapter: () => new PostgresAdapter(),
    createDriver: () => driver,
    createQueryCompiler: () => new PostgresQueryCompiler(),
    createIntrospector: (db) => new PostgresIntrospector(db),
  }),
};

const storeSql: Record<SnapshotBackend, StoreSql> = { sqlite: sqliteSql, postgres: postgresSql };

/** A store's Kysely handle and StoreSql for a backend, with no database behind it: it only records. */
export interface RecordingStore {
  readonly db: Kysely<Database>;
  readonly sql: StoreSql;
  /** The statements recorded since the last call, oldest first. */
  take(): RecordedQuery[];
}

export function openRecordingStore(backend: SnapshotBackend): RecordingStore {
  const log: RecordedQuery[] = [];
  return {
    db: new Kysely<Database>({ dialect: dialects[backend](recordingDriver(log)) }),
    sql: storeSql[backend],
    take: () => log.splice(0, log.length),
  };
}
