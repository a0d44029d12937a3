import type { CompiledQuery, Kysely, QueryResult, RawBuilder, Transaction } from 'kysely';
import type { Database } from './database.js';

/** A Kysely executor to run queries on: the store itself or a transaction (store/ hands out DbHandles). */
export type Executor = Kysely<Database> | Transaction<Database>;

/**
 * A text index (migration 011): the folded words of each row of a table (store/text-words.ts), kept
 * in `table` under the row's `key`, written in the same transaction as the row.
 */
export interface TextIndex {
  readonly table: 'customer_words' | 'order_words';
  readonly key: 'customer_id' | 'order_id';
  /** The table of the rows the words describe (the searched one), joined on `key`. */
  readonly rows: 'customers' | 'orders';
  /** `table` keeps whole words beside the words, in its column `states` (HeldWords; migration 018). */
  readonly held?: true;
}

/**
 * How many matches a text search's read needs: a number (Skip + Take + 1 for a page), undefined for
 * every match (read in order when many), or 'all' for every match's key, up to a bound (text-match.ts).
 */
export type TextWanted = number | 'all' | undefined;

/**
 * Whole words a row holds beside its words (TextIndex.held; StoreSql.textMatch): one of each list.
 * Each is a `~` and letters, which no query word starts.
 */
export type HeldWords = ReadonlyArray<readonly string[]>;

/** A text search's condition on the searched rows (StoreSql.textMatch) and how it was made. */
export interface TextMatch {
  readonly where: RawBuilder<boolean>;
  /**
   * The condition lists the keys of the few matches: the rows are best read by those keys. A
   * planner without statistics (SQLite) takes an equality on another indexed column for the more
   * selective condition and reads that column's whole range instead, checking each row's key.
   */
  readonly byKeys: boolean;
  /** The index found no match: no row meets the condition, and a read of it can be left out. */
  readonly none?: true;
}

/**
 * What a store's SQL can do where the backends differ. Callers ask for the effect (lock these rows,
 * the larger of two values); each backend's room (store/sqlite/, store/postgres/) says how.
 */
export interface StoreSql {
  /**
   * Locks the selected rows until the transaction ends (shared or exclusive; `claim`: exclusive,
   * skipping rows another transaction holds, so that concurrent workers take different rows).
   * Where a write transaction already holds the whole database (SQLite), the query is returned as
   * it is.
   */
  readonly lockRows: <QB extends { forShare(): QB; forUpdate(): QB; skipLocked(): QB }>(
    query: QB,
    mode: 'share' | 'update' | 'claim',
  ) => QB;
  /** lockRows for a select written by hand (`run`): the clause to end it with; empty where there is nothing to lock. */
  readonly lockClause: (mode: 'share' | 'update' | 'claim') => string;
  /** Makes concurrent writers of one table queue until the transaction ends (reads go on). */
  lockTable(trx: Executor, table: keyof Database): Promise<void>;
  /**
   * SQL text of an aggregate of rows into one JSON array of `[key, value]` pairs, `value` being a
   * column holding JSON text; it yields JSON text or parsed JSON, and null or `[]` over no rows.
   * The column names are the caller's constants, never input.
   */
  readonly jsonPairsAgg: (keyColumn: string, jsonColumn: string) => string;
  /**
   * SQL text of an aggregate of rows into one JSON array of arrays, each the row's `values` (SQL
   * expressions: numbers stay numbers, text stays strings), in the order of `orderBy`; it yields JSON
   * text or parsed JSON, and null or `[]` over no rows. The texts are the caller's constants, never input.
   */
  readonly jsonArraysAgg: (values: readonly string[], orderBy: string) => string;
  /**
   * Runs a statement written once by hand with `?` placeholders (the hot paths: no builder or
   * compiler per call, and the backend reuses its prepared form). The text holds no other `?`.
   */
  run<R>(db: Executor, text: string, params: readonly unknown[]): Promise<QueryResult<R>>;
  /**
   * Runs a select compiled by `db`'s builder whose columns are `columns`, in that order, and
   * returns its rows as objects (the long reads: a feed's chunks). Where the driver can hand back
   * rows as arrays (SQLite), one object literal per row is cheaper than the driver making each row
   * an object by name: 1.4 µs less per order of the feed.
   */
  rows<R>(db: Executor, query: CompiledQuery, columns: ReadonlyArray<keyof R & string>): Promise<R[]>;
  /**
   * A condition on the searched table (`index.rows`): the row has, for each of `words` (folded by
   * store/text-words.ts, at least one), a word starting with it. The backends' planners cannot
   * tell a rare match from a frequent one, so the store asks its index first (`db`) and picks the
   * way to read (store/text-match.ts): the keys of the matches when few, else the rows in their
   * order, each checked. `wanted`: the rows the read needs (Skip + Take + 1 for a page; undefined
   * for every match; 'all' for the keys of every match when there are not too many of them).
   * `held` (with 'all'): words the index keeps beside a row's words, taken whole, of which the row
   * holds one of each list as well (the statuses a filter admits): the index intersects them with
   * the words, and where few rows hold both, their keys are the condition.
   */
  textMatch(db: Executor, index: TextIndex, words: readonly string[], wanted?: TextWanted, held?: HeldWords): Promise<TextMatch>;
  /** `run`'s statement with `rows`' way of making rows: a hand-written select of many rows (the identifier search). */
  runRows<R>(db: Executor, text: string, params: readonly unknown[], columns: ReadonlyArray<keyof R & string>): Promise<R[]>;
  /**
   * In an erasure's transaction: no earlier entry of `index`'s replaced words stays in the index's
   * storage. SQLite's FTS5 index keeps a replaced entry in an older segment until it merges them
   * (migration 019), so the index is merged into one segment; PostgreSQL's GIN index loses its dead
   * entries to the vacuum after the erasure (Store.scrubFreedSpace), so nothing is done here.
   */
  purgeReplacedWords(db: Executor, index: TextIndex): Promise<void>;
}

/**
 * What the store's SQL can do on the executor of a DbHandle (StoreSql, with the executor given).
 * `lockRows`, `lockClause`, `jsonPairsAgg` and `jsonArraysAgg` are the backend's own functions (one per backend, so
 * they may key texts built once per backend).
 */
export interface HandleSql {
  readonly lockRows: StoreSql['lockRows'];
  readonly lockClause: StoreSql['lockClause'];
  readonly jsonPairsAgg: StoreSql['jsonPairsAgg'];
  readonly jsonArraysAgg: StoreSql['jsonArraysAgg'];
  /** Makes concurrent writers of one table queue until the transaction ends (reads go on). */
  lockTable(table: keyof Database): Promise<void>;
  /** StoreSql.run on this executor: a statement written once by hand with `?` placeholders. */
  run<R>(text: string, params: readonly unknown[]): Promise<QueryResult<R>>;
  /** StoreSql.rows on this executor: a compiled select's rows, its columns in this order. */
  rows<R>(query: CompiledQuery, columns: ReadonlyArray<keyof R & string>): Promise<R[]>;
  /** StoreSql.runRows on this executor: a hand-written select of many rows. */
  runRows<R>(text: string, params: readonly unknown[], columns: ReadonlyArray<keyof R & string>): Promise<R[]>;
  /** StoreSql.textMatch, asking this executor's index. */
  textMatch(index: TextIndex, words: readonly string[], wanted?: TextWanted, held?: HeldWords): Promise<TextMatch>;
  /** StoreSql.purgeReplacedWords on this executor (an erasure's transaction). */
  purgeReplacedWords(index: TextIndex): Promise<void>;
}

/**
 * The one database parameter of every repository function: a Kysely executor (its builder, as it
 * is) that also does what the store's SQL can do on it (`db.run(text, params)`, `db.lockRows(q,
 * mode)`). The store hands out its `db` and `reader` as handles, built once, and each write
 * transaction as one, built once per transaction; the write door passes it on as `unit.db`.
 */
export type DbHandle<E extends Executor = Executor> = E & HandleSql;

/**
 * Makes `executor` a handle of the backend's `sql`, in place: Kysely's builder stays the executor's
 * own, and its methods keep their receiver. Once per store or transaction, never per call.
 */
export function handleOf<E extends Executor>(executor: E, sql: StoreSql): DbHandle<E> {
  const methods: HandleSql = {
    lockRows: sql.lockRows,
    lockClause: sql.lockClause,
    jsonPairsAgg: sql.jsonPairsAgg,
    jsonArraysAgg: sql.jsonArraysAgg,
    lockTable: (table) => sql.lockTable(executor, table),
    run: (text, params) => sql.run(executor, text, params),
    rows: (query, columns) => sql.rows(executor, query, columns),
    runRows: (text, params, columns) => sql.runRows(executor, text, params, columns),
    textMatch: (index, words, wanted, held) => sql.textMatch(executor, index, words, wanted, held),
    purgeReplacedWords: (index) => sql.purgeReplacedWords(executor, index),
  };
  return Object.assign(executor, methods);
}

/** What became of a read that could go to the replica: answered there, or on the primary and why. */
export type RoutedOutcome = 'replica' | 'down' | 'behind' | 'failed';

/** The replica as /health/ready reports it. */
export interface ReplicaStatus {
  readonly up: boolean;
  /** Seconds the replica's replay is behind what it received (0 when caught up); undefined when down. */
  readonly lagSeconds?: number;
  /** Whether it is a standby receiving WAL from its primary (a stopped stream shows no lag here). */
  readonly streaming?: boolean;
}

/** A read replica of the store and the circuit in front of it (store/read-replica.ts). */
export interface StoreReplica {
  /** The store with `reader` on the replica; everything else is the primary's. */
  readonly store: Store;
  /** Reads that could go to the replica, by what became of them. */
  readonly counts: Record<RoutedOutcome, number>;
  /** False for a while after the replica failed. */
  readonly available: boolean;
  /** After an error on the replica: whether the primary should answer instead (marks it down when it failed). */
  failed(err: unknown): boolean;
  /** Whether the replica has replayed every commit stamped at or below the watermark. */
  hasReached(watermark: number): Promise<boolean>;
  status(timeoutMs?: number): Promise<ReplicaStatus>;
}

/**
 * The store: one handle (DbHandle) for writes and one for reads (separate SQLite connections, so reads
 * never wait behind a write transaction; the same pool on PostgreSQL); each handle does what its SQL can do.
 * Backend differences live behind this interface, in store/sqlite/ and store/postgres/.
 *
 * `reader` always sees every committed write: on PostgreSQL it is the primary. A read replica
 * (`replica`) answers only the reads that opt in through routeRead() (store/read-replica.ts): the
 * feeds and searches, custom-field reads and the event feed, where a client is promised nothing
 * missed rather than its own write at once. Background work (webhook deliveries, retention,
 * metrics), authentication and everything read inside or right after a write stay on `reader`.
 */
export interface Store {
  readonly db: DbHandle<Kysely<Database>>;
  readonly reader: DbHandle<Kysely<Database>>;
  /** A streaming replica for the reads that may lag (PostgreSQL with DATABASE_READ_URL). */
  readonly replica?: StoreReplica;
  /** Write transactions worth keeping in flight at once (1 where there is a single writer). */
  readonly writeConcurrency: number;
  /**
   * Whether a long read (a feed, chunk by chunk) should ask for its next chunk while the current one
   * is sent: worth it where every read is a round trip (PostgreSQL). Where the driver answers at
   * once (SQLite), it would only keep two chunks alive at a time, and rows that live that long are
   * promoted to the old generation of the heap, which grows the process's memory.
   */
  readonly readAhead: boolean;
  /**
   * Set when writes run best in a thread of their own, on a connection it opens with this URL: the
   * driver is synchronous, so a commit waiting for the disk would stall everything else.
   */
  readonly writerThreadUrl?: string;
  /**
   * Runs fn in a write transaction that holds the write lock from its first statement
   * (BEGIN IMMEDIATE on SQLite, so concurrent processes queue instead of failing on upgrade).
   * Services do not call this: their writes go through the write door (src/writes/).
   */
  writeTransaction<T>(fn: (trx: DbHandle<Transaction<Database>>) => Promise<T>): Promise<T>;
  /** Makes an executor of this store (a transaction a test or a tool holds by hand) a handle of its SQL. */
  handle<E extends Executor>(executor: E): DbHandle<E>;
  /** Applies pending migrations, all or nothing, safe from several processes at once. */
  migrate(run: (db: Kysely<Database>, inOwnTransaction: boolean) => Promise<string[]>): Promise<string[]>;
  /**
   * After an erasure: leaves no copy of overwritten or deleted values in the store's files where
   * the store can see to it. SQLite zeroes freed space as it writes (secure_delete) and here
   * checkpoints the write-ahead log into the database and truncates it; PostgreSQL vacuums the
   * tables, removing the dead row versions.
   */
  scrubFreedSpace(tables: ReadonlyArray<keyof Database>): Promise<void>;
  /**
   * After a bulk load (seed, import): the text indexes put in the shape later writes are cheapest
   * against. SQLite merges each FTS5 index into one segment (otherwise every later write carries on
   * merging what the load left, 0.5 ms per write at 10^6 orders); PostgreSQL vacuums the words
   * tables, which empties their GIN indexes' pending lists and sets the visibility maps.
   */
  settleTextIndexes(): Promise<void>;
  /** Throws if the store cannot answer a query on one of its own tables. */
  ping(): Promise<void>;
  close(): Promise<void>;
}
