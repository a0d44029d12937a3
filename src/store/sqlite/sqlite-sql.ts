import { CompiledQuery } from 'kysely';
import type { StoreSql } from '../store.js';

/**
 * SQLite's side of StoreSql. A write transaction (BEGIN IMMEDIATE) holds the whole database, so
 * row and table locks have nothing left to do.
 */
export const sqliteSql: StoreSql = {
  lockRows: (query) => query,
  lockTable: async () => undefined,
  jsonPairsAgg: (key, json) => `json_group_array(json_array(${key}, json(${json})))`,
  run: (db, text, params) => db.executeQuery(CompiledQuery.raw(text, params as unknown[])),
};
