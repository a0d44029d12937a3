import { sql } from 'kysely';
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
 * with a stamp ≤ W has committed too. A reader therefore reads the committed `last_stamp` first,
 * returns rows with stamps in (after, W] and hands out W as the watermark; a row stamped later
 * (even mid-stream) has a stamp > W and is returned by the next sync. Take the stamp as late in the
 * transaction as practical: other customer writers queue behind it until commit.
 */
export async function nextStamp(dialect: Dialect, trx: Transaction<Database>, now = Date.now()): Promise<number> {
  const row = await trx
    .updateTable('sync_clock')
    .set({ last_stamp: greatest(dialect, sql<number>`last_stamp + 1`, now) })
    .where('id', '=', 1)
    .returning('last_stamp')
    .executeTakeFirstOrThrow();
  return Number(row.last_stamp);
}

/** The newest committed stamp: everything with a stamp at or below it is visible now. */
export async function committedWatermark(db: Executor): Promise<number> {
  const row = await db.selectFrom('sync_clock').select('last_stamp').where('id', '=', 1).executeTakeFirstOrThrow();
  return Number(row.last_stamp);
}
