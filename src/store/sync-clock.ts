import { CompiledQuery, sql } from 'kysely';
import type { Database } from './database.js';
import { greatest } from './dialect-sql.js';
import type { Dialect, Executor } from './store.js';
import type { Transaction } from 'kysely';

/**
 * The sync clock makes `X-Sync-Watermark` safe under concurrent writers.
 *
 * Every transaction that changes customers takes its modification stamp from the single
 * `sync_clock` row: `last_stamp = max(last_stamp + 1, now_ms)`. Updating that row takes its row lock
 * (PostgreSQL) or happens under the database write lock (SQLite), held until commit, so stamps are
 * strictly increasing in commit order: when a reader sees a committed stamp W, every transaction
 * with a stamp ≤ W has committed too. (PostgreSQL wakes a waiter for the row only after the holder's
 * commit is visible, and under READ COMMITTED the waiter's UPDATE then reads the committed value; a
 * writer must not run this under REPEATABLE READ or SERIALIZABLE.) Two transactions in the same
 * millisecond get different stamps; stamps run ahead of the wall clock only above 1,000 per second.
 *
 * A reader reads the committed `last_stamp` W first, returns only rows with stamps in (after, W] —
 * also when it sees rows stamped later, whose lower-stamped neighbours may still be uncommitted —
 * and hands out W as the watermark; a row stamped later (even mid-stream) has a stamp > W and is
 * returned by the next sync.
 *
 * Lock order, for every customer writer: write (or lock) the customer rows first, take the stamp as
 * late as practical (other customer writers queue behind it until commit), then `touch` the rows
 * written. A transaction that holds the clock and then waits for a customer row held by a
 * transaction waiting for the clock deadlocks, and PostgreSQL aborts one of them.
 */
export async function nextStamp(dialect: Dialect, trx: Transaction<Database>, now = Date.now()): Promise<number> {
  const text = (nextStampSql[dialect] ??= stampQuery(dialect, trx, now).compile().sql);
  const row = (await trx.executeQuery<{ last_stamp: number | string }>(CompiledQuery.raw(text, [now]))).rows[0];
  if (!row) throw new Error('sync_clock row missing');
  return Number(row.last_stamp);
}

// Every write transaction of customers takes a stamp: its SQL is compiled once per dialect.
const nextStampSql: Partial<Record<Dialect, string>> = {};

function stampQuery(dialect: Dialect, db: Executor, now: number) {
  return db
    .updateTable('sync_clock')
    .set({ last_stamp: greatest(dialect, sql<number>`last_stamp + 1`, now) })
    .where('id', '=', sql.lit(1))
    .returning('last_stamp');
}

/** The newest committed stamp: everything with a stamp at or below it is visible now. */
export async function committedWatermark(db: Executor): Promise<number> {
  const row = await db.selectFrom('sync_clock').select('last_stamp').where('id', '=', 1).executeTakeFirstOrThrow();
  return Number(row.last_stamp);
}
