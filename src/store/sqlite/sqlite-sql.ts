import { CompiledQuery, sql, type QueryResult } from 'kysely';
import type { Executor, HeldWords, StoreSql, TextIndex, TextMatch, TextWanted } from '../store.js';
import { byCheck, byKeys, keysLimit, MAX_KEYS, NO_ROW, startsWithEach } from '../text-match.js';
import { rowsOf } from '../row-maker.js';
import { ARRAY_ROWS, type ReopenableDatabase } from './sqlite-statement-cache.js';

/**
 * Executors whose statements may run on their connection at once, without Kysely: the store's
 * reader. Kysely hands a SQLite connection to one query at a time (a lock taken and released in
 * promises, then the statement found by its text): about half of what a one-row read by key costs
 * (10 → 5.5 µs in a loop). The reader runs no transaction and no stream, and better-sqlite3 runs
 * a statement to its end before it returns, so no query of the reader ever waits for the
 * connection: none is overtaken. A transaction, and the writer, keep Kysely's way.
 */
const directReads = new WeakMap<object, ReopenableDatabase>();

/** Lets `run`, `rows` and `runRows` on `reader` use its connection directly (sqlite-store.ts). */
export function readDirectly(reader: object, connection: ReopenableDatabase): void {
  directReads.set(reader, connection);
}

/** A statement's result as Kysely's SQLite driver gives it. */
function runOn(connection: ReopenableDatabase, text: string, params: readonly unknown[]): QueryResult<unknown> {
  const stmt = connection.statement(text, false);
  if (stmt.reader) return { rows: stmt.all(params) };
  const { changes, lastInsertRowid } = stmt.run(params);
  return { numAffectedRows: BigInt(changes), insertId: BigInt(lastInsertRowid), rows: [] };
}

/** Rows as arrays (better-sqlite3's raw mode), made objects by one constructor call per row. */
async function runRows<R>(db: Executor, text: string, params: readonly unknown[], columns: ReadonlyArray<keyof R & string>): Promise<R[]> {
  const direct = directReads.get(db);
  const arrays = direct
    ? (direct.statement(text, true).all(params) as unknown[][])
    : (await db.executeQuery<unknown[]>(CompiledQuery.raw(ARRAY_ROWS + text, params as unknown[]))).rows;
  return rowsOf<R>(arrays, columns);
}

/**
 * The longest prefix the FTS5 tables index (migration 014). A query word up to this long is one
 * prefix index entry, whose matches FTS5 reads lazily, seeking from one word's matches to the
 * next's; a longer word read as a prefix would merge every indexed word it starts, all of them
 * before the first match. A longer word is asked by its first PREFIX_INDEXED letters and checked
 * whole on the words row.
 */
const PREFIX_INDEXED = 6;

/**
 * The keys of the rows that hold the words (`query`, and `long` whole) and one of each list of
 * `held` (TextIndex.held: the words row's `states`, which the FTS5 index does not hold, so that a
 * change of them leaves the index alone), read from the words rows of the matches: the condition
 * when fewer than MAX_KEYS; undefined when as many, and the rows are better read in order.
 */
async function heldKeys(
  db: Executor,
  index: TextIndex,
  query: string,
  long: readonly string[],
  held: HeldWords,
): Promise<TextMatch | undefined> {
  const [table, key] = [sql.table(index.table), sql.ref(index.key)];
  const fts = sql.table(index.table.replace(/_words$/, '_text'));
  const whole = long.length > 0 ? sql` and ${startsWithEach(long)}` : sql``;
  const states = sql.join(
    held.map(
      (any) =>
        sql`(${sql.join(
          any.map((w) => sql`instr(' ' || w.states || ' ', ${` ${w} `}) > 0`),
          sql` or `,
        )})`,
    ),
    sql` and `,
  );
  const { rows: keys } = await sql<{
    k: string | number;
  }>`select w.${key} as k from ${fts} f join ${table} w on w.rowid = f.rowid where f.${fts} match ${query}${whole} and ${states} limit ${MAX_KEYS}`.execute(
    db,
  );
  if (keys.length === 0) return NO_ROW;
  if (keys.length >= MAX_KEYS) return undefined;
  return byKeys(sql<boolean>`${key} in (select value from json_each(${JSON.stringify(keys.map((r) => r.k))}))`);
}

/**
 * The FTS5 table over a words table is named after it (`customer_words` → `customer_text`), with
 * the words table's integer primary key as its rowid. An FTS5 query of quoted words, each a
 * prefix (`"mull"* "koln"*`: all of them); the words are letters and digits only, so quoting
 * needs no escape. SQLite's planner knows nothing of how many rows a MATCH finds, so the index is
 * asked first how many (text-match.ts): few, and their keys are the condition; many, and each row
 * in the search's order has its words row looked at.
 */
async function textMatch(
  db: Executor,
  index: TextIndex,
  words: readonly string[],
  wanted?: TextWanted,
  held?: HeldWords,
): Promise<TextMatch> {
  const [table, key] = [sql.table(index.table), sql.ref(index.key)];
  const fts = sql.table(index.table.replace(/_words$/, '_text'));
  const query = words.map((w) => `"${w.slice(0, PREFIX_INDEXED)}"*`).join(' ');
  const long = words.filter((w) => w.length > PREFIX_INDEXED);
  if (wanted === 'all' && index.held && held !== undefined && held.length > 0) {
    const found = await heldKeys(db, index, query, long, held);
    if (found) return found;
  }
  const { rows: size } = await sql<{ n: number | null }>`select max(rowid) as n from ${table}`.execute(db);
  const limit = keysLimit(Number(size[0]?.n ?? 0), wanted);
  const { rows: counted } = await sql<{
    n: number;
  }>`select count(*) as n from (select rowid from ${fts} where ${fts} match ${query} limit ${limit})`.execute(db);
  const count = Number(counted[0]?.n ?? 0);
  if (count === 0) return NO_ROW;
  if (count < limit) {
    const whole = long.length > 0 ? sql` and ${startsWithEach(long)}` : sql``;
    // Every match: the rows are still read in the search's order, by the other filters' index,
    // each looked up in the matches' keys (gathered once per statement). Read by those keys
    // instead, the rows of tens of thousands of matches (one page each) cost more than the range.
    if (wanted === 'all') {
      return byCheck(
        sql<boolean>`+${sql.ref(`${index.rows}.${index.key}`)} in (select w.${key} from ${fts} f join ${table} w on w.rowid = f.rowid where f.${fts} match ${query}${whole})`,
      );
    }
    const { rows: keys } = await sql<{
      k: string | number;
    }>`select w.${key} as k from ${fts} f join ${table} w on w.rowid = f.rowid where f.${fts} match ${query}${whole}`.execute(db);
    if (keys.length === 0) return NO_ROW;
    return byKeys(sql<boolean>`${key} in (select value from json_each(${JSON.stringify(keys.map((r) => r.k))}))`);
  }
  return byCheck(
    sql<boolean>`exists (select 1 from ${table} w where w.${key} = ${sql.ref(`${index.rows}.${index.key}`)} and ${startsWithEach(words)})`,
  );
}

/**
 * Merges the FTS5 index over a words table into one segment: replaced entries and delete markers
 * are not copied into it (an erasure), and later writes find nothing left to merge (a bulk load).
 */
export async function mergeTextIndex(db: Executor, table: TextIndex['table']): Promise<void> {
  const fts = sql.table(table.replace(/_words$/, '_text'));
  await sql`insert into ${fts} (${fts}) values ('optimize')`.execute(db);
}

/**
 * SQLite's side of StoreSql. A write transaction (BEGIN IMMEDIATE) holds the whole database, so
 * row and table locks have nothing left to do.
 */
export const sqliteSql: StoreSql = {
  lockRows: (query) => query,
  lockClause: () => '',
  lockTable: async () => undefined,
  jsonPairsAgg: (key, json) => `json_group_array(json_array(${key}, json(${json})))`,
  jsonArraysAgg: (values, orderBy) => `json_group_array(json_array(${values.join(', ')}) order by ${orderBy})`,
  run: async (db, text, params) => {
    const direct = directReads.get(db);
    // The result's rows are typed by the caller, as Kysely's executeQuery types them.
    if (direct) return runOn(direct, text, params) as QueryResult<never>;
    return db.executeQuery(CompiledQuery.raw(text, params as unknown[]));
  },
  rows: (db, query, columns) => runRows(db, query.sql, query.parameters, columns),
  runRows,
  textMatch,
  purgeReplacedWords: (db, index) => mergeTextIndex(db, index.table),
};
