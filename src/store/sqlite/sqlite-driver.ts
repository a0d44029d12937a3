import { createRequire } from 'node:module';
import type BetterSqlite3Module from 'better-sqlite3';

/**
 * The SQLite driver: better-sqlite3 13 (Node-API; installed as `better-sqlite3-13`) on Node.js 22
 * and later, better-sqlite3 12 on Node.js 20. 12 can abort a Node.js 24 process (its statements'
 * destructors remove an environment cleanup hook after a worker's environment is gone), and 13
 * does not run on Node.js 20. Both have the same API; 12 goes when Node.js 20 does.
 */
const NODE_MAJOR = Number(process.versions.node.split('.')[0]);
export const DRIVER_PACKAGE = NODE_MAJOR >= 22 ? 'better-sqlite3-13' : 'better-sqlite3';

export const BetterSqlite3 = createRequire(import.meta.url)(DRIVER_PACKAGE) as typeof BetterSqlite3Module;
export type SqliteDatabase = BetterSqlite3Module.Database;
export type SqliteStatement = BetterSqlite3Module.Statement;
