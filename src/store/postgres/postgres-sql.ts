import { randomBytes } from 'node:crypto';
import type pg from 'pg';
import { CompiledQuery, sql, type QueryResult } from 'kysely';
import { rowsOf } from '../row-maker.js';
import type { Executor, HeldWords, StoreSql, TextIndex, TextMatch, TextWanted } from '../store.js';
import { isPreparedStatementLost } from '../store-errors.js';
import { byCheck, byKeys, keysLimit, MAX_KEYS, NO_ROW, startsWithEach } from '../text-match.js';

// Texts by their `?` form. Callers pass constant texts or texts cached by shape, so the map stays
// small; beyond the limit new shapes are numbered on each use instead of kept.
const MAX_CACHED = 256;
const numberedTexts = new Map<string, string>();
/** Names of the kept texts (by their `$n` form): the statements a preparing pool prepares. */
const statementNames = new Map<string, string>();
// Names are numbered in the order texts are first used, which differs between processes. Through a
// pooler in transaction mode a server connection may hold another process's statement under the
// same number: bound there, it would run that other text. A prefix of this process's own makes such
// a connection answer "does not exist" (26000) instead, which the store recognises.
const NAME_PREFIX = `og${randomBytes(4).toString('hex')}_`;

function numbered(text: string): string {
  let cached = numberedTexts.get(text);
  if (cached === undefined) {
    let n = 0;
    cached = text.replace(/\?/g, () => `$${++n}`);
    if (numberedTexts.size < MAX_CACHED) {
      numberedTexts.set(text, cached);
      statementNames.set(cached, `${NAME_PREFIX}${statementNames.size + 1}`);
    }
  }
  return cached;
}

/**
 * The name under which a preparing connection (postgres-store.ts) prepares a statement text, for
 * the texts written once by hand that `run` and `runRows` send (at most MAX_CACHED of them, so a
 * connection holds a bounded set); undefined for every other text (Kysely's builder).
 */
export const statementName = (text: string): string | undefined => statementNames.get(text);

/** Whether the hand-written texts go out named (postgres-store.ts: on until a pooler loses one). */
export interface StatementNamingState {
  readonly on: boolean;
  lost(err: Error): void;
}

/** A pool whose connections a handle's single statements may use directly (postgres-store.ts). */
interface DirectPool {
  readonly pool: pg.Pool;
  readonly naming: StatementNamingState;
}

/**
 * Executors whose single hand-written statements (`run`, `runRows`) go to their pool directly, as
 * `pool.query` of node-postgres, without Kysely: the store's own handles on its pools, outside any
 * transaction. Kysely takes a connection from the pool, runs the query and hands it back through
 * several layers of promises for each statement, where `pool.query` does the same in one; and a
 * query with `rowMode: 'array'` skips the driver's object by name per row (the rows are made
 * objects by one constructor, as on SQLite). A transaction and its statements keep Kysely's way.
 */
const directPools = new WeakMap<object, DirectPool>();

/** Lets `run` and `runRows` on `executor` use `pool` directly. */
export function queryDirectly(executor: object, pool: pg.Pool, naming: StatementNamingState): void {
  directPools.set(executor, { pool, naming });
}

/**
 * One statement on a connection of the pool, named while naming is on (as the preparing client
 * names it, postgres-store.ts): a name lost to a pooler turns naming off, and the statement runs
 * again unnamed (outside a transaction nothing else was aborted). The connection goes back to the
 * pool as Kysely gives it back, also after an error of the statement: only a broken one is dropped.
 */
async function queryOn(
  direct: DirectPool,
  text: string,
  params: readonly unknown[],
  rowMode: 'array' | undefined,
): Promise<pg.QueryResult> {
  const values = params as unknown[];
  const numberedText = numbered(text);
  const client = await direct.pool.connect();
  try {
    const name = direct.naming.on ? statementName(numberedText) : undefined;
    // pg's types know rowMode only on its array-typed config; the callers type the rows.
    if (name === undefined) return await client.query({ text: numberedText, values, rowMode } as pg.QueryConfig);
    try {
      return await client.query({ name, text: numberedText, values, rowMode } as pg.QueryConfig);
    } catch (err) {
      if (!isPreparedStatementLost(err)) throw err;
      direct.naming.lost(err as Error);
      return await client.query({ text: numberedText, values, rowMode } as pg.QueryConfig);
    }
  } finally {
    client.release();
  }
}

/** A statement's result as Kysely's PostgreSQL driver gives it. */
async function runDirectly<R>(direct: DirectPool, text: string, params: readonly unknown[]): Promise<QueryResult<R>> {
  const { command, rowCount, rows } = await queryOn(direct, text, params, undefined);
  const changed = command === 'INSERT' || command === 'UPDATE' || command === 'DELETE' || command === 'MERGE';
  return { numAffectedRows: changed ? BigInt(rowCount ?? 0) : undefined, rows: (rows ?? []) as R[] };
}

/** Rows as arrays made objects by one constructor per row, where the executor may query its pool directly. */
async function runRows<R>(db: Executor, text: string, params: readonly unknown[], columns: ReadonlyArray<keyof R & string>): Promise<R[]> {
  const direct = directPools.get(db);
  if (direct === undefined) return (await db.executeQuery<R>(CompiledQuery.raw(numbered(text), params as unknown[]))).rows as R[];
  const arrays = (await queryOn(direct, text, params, 'array')).rows as unknown as unknown[][];
  return rowsOf<R>(arrays, columns);
}

/**
 * The words table's GIN index is on this expression (migration 011): its words as lexemes, taken
 * as they are (no parser, no dictionary: they are folded already).
 */
export const WORDS_VECTOR = "array_to_tsvector(string_to_array(w.words, ' '))";

/** WORDS_VECTOR of a table that keeps whole words beside its words (TextIndex.held): its index is on both (migration 018). */
const WORDS_AND_STATES_VECTOR = "array_to_tsvector(string_to_array(w.words, ' ') || string_to_array(w.states, ' '))";

const vectorOf = (index: TextIndex) => sql.raw(index.held ? WORDS_AND_STATES_VECTOR : WORDS_VECTOR);

/** Words rows looked at, in key order, for how often each query word matches (a sample). */
const SAMPLE = 1000;
/**
 * A word found in this share of the sample is common: the index would gather its many matches
 * (every one, before the first row) only to narrow the others' little. It is checked on the rows
 * the rarer words find instead.
 */
const COMMON = 0.2;

const keyArray = (index: TextIndex) => sql.raw(index.key === 'order_id' ? 'bigint[]' : 'text[]');

/**
 * Each word a prefix (`'mull':* & 'koln':*`), cast to tsquery, which takes quoted lexemes as they
 * are; the words are letters and digits only, so quoting needs no escape.
 *
 * A prefix match in the GIN index gathers every match of every lexeme it starts before the first
 * row, and the planner cannot tell a rare prefix from a frequent one. So the words are first
 * checked on a sample of the words rows: if together they match often, the rows are read in the
 * search's order, each checked (text-match.ts says when that is cheaper). Else the index is asked
 * for the words that are not common (all of them if every one is), the others checked on each
 * found words row, and the found keys are the condition.
 */
async function textMatch(
  db: Executor,
  index: TextIndex,
  words: readonly string[],
  wanted?: TextWanted,
  held?: HeldWords,
): Promise<TextMatch> {
  const [table, key] = [sql.table(index.table), sql.ref(index.key)];
  // Per word, then all of them, then how many rows the sample held.
  const hits = sql.join([
    ...[...words.map((w) => sql`(' ' || w.words) like ${`% ${w}%`}`), startsWithEach(words)].map((c) => sql`count(*) filter (where ${c})`),
    sql`count(*)`,
  ]);
  const { rows: sampled } = await sql<{
    n: string;
    h: Array<string | number>;
  }>`select (select reltuples from pg_class where oid = ${index.table}::regclass) as n, array[${hits}] as h from (select words from ${table} order by ${key} limit ${SAMPLE}) w`.execute(
    db,
  );
  const size = Math.max(0, Number(sampled[0]?.n ?? 0));
  const counts = (sampled[0]?.h ?? []).map(Number);
  const limit = keysLimit(size, wanted);
  const together = counts[words.length] ?? 0;
  const sample = Math.max(1, counts[words.length + 1] ?? 0);
  // A scalar subquery, which the planner keeps as a check per row (an EXISTS it would make a join
  // that reads every words row).
  const scan = byCheck(
    sql<boolean>`coalesce((select true from ${table} w where w.${key} = ${sql.ref(`${index.rows}.${index.key}`)} and ${startsWithEach(words)}), false)`,
  );
  const rare = words.filter((_, i) => counts[i]! < COMMON * sample);
  const asked = rare.length > 0 ? rare : words;
  const query = asked.map((w) => `'${w}':*`).join(' & ');
  const common = words.filter((w) => !asked.includes(w));
  const checked = common.length > 0 ? sql` and ${startsWithEach(common)}` : sql``;
  // With words held beside them, the index intersects both (GIN skips through the longer list):
  // few rows found, and their keys are the condition.
  if (wanted === 'all' && index.held && held !== undefined && held.length > 0) {
    const both = `${query} & ${held.map((any) => `(${any.map((w) => `'${w}'`).join(' | ')})`).join(' & ')}`;
    const { rows: keys } = await sql<{
      k: string;
    }>`select w.${key} as k from ${table} w where ${vectorOf(index)} @@ ${both}::tsquery${checked} limit ${MAX_KEYS}`.execute(db);
    if (keys.length === 0) return NO_ROW;
    if (keys.length < MAX_KEYS) return byKeys(sql<boolean>`${key} = any(${keys.map((r) => r.k)}::${keyArray(index)})`);
  }
  if ((together / sample) * size >= limit) return scan;
  // Every match, as the sample counts them: the rows are still read in the search's order, by the
  // other filters' index, each looked up in the matches' keys, hashed once per statement (coalesce
  // keeps the planner from joining the matches row by row). Read by those keys instead, the rows of
  // tens of thousands of matches (a page each) cost more than the range.
  if (wanted === 'all') {
    return byCheck(
      sql<boolean>`coalesce(${sql.ref(`${index.rows}.${index.key}`)} in (select w.${key} from ${table} w where ${vectorOf(index)} @@ ${query}::tsquery${checked}), false)`,
    );
  }
  const { rows: keys } = await sql<{
    k: string;
  }>`select w.${key} as k from ${table} w where ${vectorOf(index)} @@ ${query}::tsquery${checked} limit ${limit}`.execute(db);
  if (keys.length >= limit) return scan;
  if (keys.length === 0) return NO_ROW;
  return byKeys(sql<boolean>`${key} = any(${keys.map((r) => r.k)}::${keyArray(index)})`);
}

/** PostgreSQL's side of StoreSql: row locks, SHARE ROW EXCLUSIVE table locks, `$n` placeholders. */
export const postgresSql: StoreSql = {
  lockRows: (query, mode) => (mode === 'share' ? query.forShare() : mode === 'update' ? query.forUpdate() : query.forUpdate().skipLocked()),
  lockClause: (mode) => (mode === 'share' ? ' for share' : mode === 'update' ? ' for update' : ' for update skip locked'),
  async lockTable(trx, table) {
    await sql`lock table ${sql.table(table)} in share row exclusive mode`.execute(trx);
  },
  // json_agg hands back parsed JSON (null over no rows).
  jsonPairsAgg: (key, json) => `json_agg(json_build_array(${key}, ${json}::json))`,
  jsonArraysAgg: (values, orderBy) => `json_agg(json_build_array(${values.join(', ')}) order by ${orderBy})`,
  run: <R>(db: Executor, text: string, params: readonly unknown[]) => {
    const direct = directPools.get(db);
    return direct ? runDirectly<R>(direct, text, params) : db.executeQuery<R>(CompiledQuery.raw(numbered(text), params as unknown[]));
  },
  // node-postgres makes the objects as it parses each row: arrays would save nothing.
  rows: async <R>(db: Executor, query: CompiledQuery) => (await db.executeQuery<R>(query)).rows as R[],
  runRows,
  textMatch,
  purgeReplacedWords: async () => undefined,
};
