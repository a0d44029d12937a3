import { CompiledQuery } from 'kysely';
import type { Executor, StoreSql } from '../store.js';
import { ARRAY_ROWS } from './sqlite-statement-cache.js';

type RowOf = (values: readonly unknown[]) => Record<string, unknown>;

// One maker per column list (the callers' constants), written once as an object literal so that
// every row gets its shape at once.
const makers = new WeakMap<ReadonlyArray<string>, RowOf>();

function rowMaker(columns: ReadonlyArray<string>): RowOf {
  let make = makers.get(columns);
  if (make === undefined) {
    make = new Function('v', `return { ${columns.map((c, i) => `${JSON.stringify(c)}: v[${i}]`).join(', ')} };`) as RowOf;
    makers.set(columns, make);
  }
  return make;
}

/**
 * SQLite's side of StoreSql. A write transaction (BEGIN IMMEDIATE) holds the whole database, so
 * row and table locks have nothing left to do.
 */
export const sqliteSql: StoreSql = {
  lockRows: (query) => query,
  lockTable: async () => undefined,
  jsonPairsAgg: (key, json) => `json_group_array(json_array(${key}, json(${json})))`,
  run: (db, text, params) => db.executeQuery(CompiledQuery.raw(text, params as unknown[])),
  async rows<R>(db: Executor, query: CompiledQuery, columns: ReadonlyArray<keyof R & string>): Promise<R[]> {
    const arrays = (await db.executeQuery<unknown[]>(CompiledQuery.raw(ARRAY_ROWS + query.sql, query.parameters as unknown[]))).rows;
    const make = rowMaker(columns);
    const out = new Array<R>(arrays.length);
    for (let i = 0; i < arrays.length; i++) out[i] = make(arrays[i]!) as R;
    return out;
  },
};
