import { randomBytes } from 'node:crypto';
import { CompiledQuery, sql, type RawBuilder } from 'kysely';
import type { Executor, StoreSql, TextIndex } from '../store.js';

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

/**
 * The words table's GIN index is on this expression (migration 011): its words as lexemes, taken
 * as they are (no parser, no dictionary: they are folded already).
 */
export const WORDS_VECTOR = "array_to_tsvector(string_to_array(words, ' '))";

/**
 * Matches at which reading the rows in their own order beats reading the matches by the index
 * (sqlite-sql.ts says why). The planner's estimate of a prefix match comes from the statistics'
 * most common lexemes, which the prefixes of ids and numbers miss: the index is asked instead.
 */
const FEW_MATCHES = 1000;

/**
 * Each word a prefix (`'mull':* & 'koln':*`), cast to tsquery, which takes quoted lexemes as
 * they are; the words are letters and digits only, so quoting needs no escape.
 */
async function textMatch(db: Executor, index: TextIndex, words: readonly string[]): Promise<RawBuilder<boolean>> {
  const [table, key] = [sql.table(index.table), sql.ref(index.key)];
  const query = words.map((w) => `'${w}':*`).join(' & ');
  const matches = sql<boolean>`${sql.raw(WORDS_VECTOR)} @@ ${query}::tsquery`;
  const { rows } = await sql<{
    n: string;
  }>`select count(*) as n from (select 1 from ${table} where ${matches} limit ${FEW_MATCHES}) m`.execute(db);
  if (Number(rows[0]?.n ?? 0) < FEW_MATCHES) return sql<boolean>`${key} in (select ${key} from ${table} where ${matches})`;
  // A scalar subquery, which the planner keeps as a check per row (an EXISTS it would make a join
  // that reads every words row).
  const starts = sql.join(
    words.map((w) => sql`(' ' || w.words) like ${`% ${w}%`}`),
    sql` and `,
  );
  return sql<boolean>`coalesce((select true from ${table} w where w.${key} = ${sql.ref(`${index.rows}.${index.key}`)} and ${starts}), false)`;
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
  run: (db, text, params) => db.executeQuery(CompiledQuery.raw(numbered(text), params as unknown[])),
  // node-postgres makes the objects as it parses each row: arrays would save nothing.
  rows: async <R>(db: Executor, query: CompiledQuery) => (await db.executeQuery<R>(query)).rows as R[],
  runRows: async <R>(db: Executor, text: string, params: readonly unknown[]) =>
    (await db.executeQuery<R>(CompiledQuery.raw(numbered(text), params as unknown[]))).rows as R[],
  textMatch,
};
