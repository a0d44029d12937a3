import { CompiledQuery, sql, type RawBuilder } from 'kysely';
import type { Executor, StoreSql, TextIndex } from '../store.js';
import { ARRAY_ROWS } from './sqlite-statement-cache.js';

type RowOf = (values: readonly unknown[]) => Record<string, unknown>;

// One maker per column list (the callers' constants): a constructor that sets every column, so that
// every row gets its shape at once, with Object.prototype as its prototype (rows stay plain objects).
// Not an object literal: V8 may decide from a literal's allocation site, once and for good, that its
// objects live long and allocate them in the old generation. Dead rows there are freed only by a full
// collection and keep their strings alive through every scavenge, which promotes them (the order
// feed's kept confirmation texts: 2.1 MB a scavenge, docs/performance.md). `new` has no such site.
const makers = new WeakMap<ReadonlyArray<string>, RowOf>();

function rowMaker(columns: ReadonlyArray<string>): RowOf {
  let make = makers.get(columns);
  if (make === undefined) {
    // eslint-disable-next-line @typescript-eslint/no-implied-eval -- the source is built from the statement's column names, quoted by JSON.stringify
    const Row = new Function('v', columns.map((c, i) => `this[${JSON.stringify(c)}] = v[${i}];`).join(' ')) as new (
      v: readonly unknown[],
    ) => Record<string, unknown>;
    Row.prototype = Object.prototype;
    make = (v) => new Row(v);
    makers.set(columns, make);
  }
  return make;
}

/** Rows as arrays (better-sqlite3's raw mode), made objects by one constructor call per row. */
async function runRows<R>(db: Executor, text: string, params: readonly unknown[], columns: ReadonlyArray<keyof R & string>): Promise<R[]> {
  const arrays = (await db.executeQuery<unknown[]>(CompiledQuery.raw(ARRAY_ROWS + text, params as unknown[]))).rows;
  const make = rowMaker(columns);
  const out = new Array<R>(arrays.length);
  for (let i = 0; i < arrays.length; i++) out[i] = make(arrays[i]!) as R;
  return out;
}

/**
 * Matches at which reading the rows in their own order beats reading the matches by the index.
 * Read by the index, each match costs an FTS5 row and a lookup of its row, all of them before the
 * first can be sent (the result is sorted); read in order, each row costs an index step and a look
 * at its words, and a page stops after its last match. A few thousand matches cost tens of
 * milliseconds either way; far fewer favour the index, far more the order.
 */
const FEW_MATCHES = 1000;

/**
 * The FTS5 table over a words table is named after it (`customer_words` → `customer_text`), with
 * the words table's integer primary key as its rowid. An FTS5 query of quoted words, each a
 * prefix (`"mull"* "koln"*`: all of them); the words are letters and digits only, so quoting
 * needs no escape. SQLite's planner knows nothing of how many rows a MATCH finds, so the index is
 * asked first, up to FEW_MATCHES of them. Many: each row in the search's order has its words row
 * looked at, a word starting with w being ` w` in ` ` + the words (`like`: no `%` or `_` in a word;
 * the words are lower case already).
 */
async function textMatch(db: Executor, index: TextIndex, words: readonly string[]): Promise<RawBuilder<boolean>> {
  const [table, key] = [sql.table(index.table), sql.ref(index.key)];
  const fts = sql.table(index.table.replace(/_words$/, '_text'));
  const query = words.map((w) => `"${w}"*`).join(' ');
  const { rows } = await sql<{
    n: number;
  }>`select count(*) as n from (select rowid from ${fts} where ${fts} match ${query} limit ${FEW_MATCHES})`.execute(db);
  if (Number(rows[0]?.n ?? 0) < FEW_MATCHES) {
    return sql<boolean>`${key} in (select w.${key} from ${table} w where w.rowid in (select rowid from ${fts} where ${fts} match ${query}))`;
  }
  const starts = sql.join(
    words.map((w) => sql`(' ' || w.words) like ${`% ${w}%`}`),
    sql` and `,
  );
  return sql<boolean>`exists (select 1 from ${table} w where w.${key} = ${sql.ref(`${index.rows}.${index.key}`)} and ${starts})`;
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
  run: (db, text, params) => db.executeQuery(CompiledQuery.raw(text, params as unknown[])),
  rows: (db, query, columns) => runRows(db, query.sql, query.parameters, columns),
  runRows,
  textMatch,
};
