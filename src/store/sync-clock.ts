import type { DbHandle } from './store.js';

/**
 * The sync clock makes `X-Sync-Watermark` safe under concurrent writers.
 *
 * Every transaction that changes stamped rows (customers) takes its modification stamp from the
 * single `sync_clock` row: `last_stamp = max(last_stamp + 1, now_ms)`. Updating that row takes its
 * row lock (PostgreSQL) or happens under the database write lock (SQLite), held until commit, so
 * stamps are strictly increasing in commit order: when a reader sees a committed stamp W, every
 * transaction with a stamp ≤ W has committed too. (PostgreSQL wakes a waiter for the row only after
 * the holder's commit is visible, and under READ COMMITTED the waiter's UPDATE then reads the
 * committed value; a writer must not run this under REPEATABLE READ or SERIALIZABLE.) Two
 * transactions in the same millisecond get different stamps; stamps run ahead of the wall clock only
 * above 1,000 per second.
 *
 * A reader reads the committed `last_stamp` W first, returns only rows with stamps in (after, W] —
 * also when it sees rows stamped later, whose lower-stamped neighbours may still be uncommitted —
 * and hands out W as the watermark; a row stamped later (even mid-stream) has a stamp > W and is
 * returned by the next sync.
 *
 * Lock order: write (or lock) the rows first, take the stamp last (other stamping writers queue
 * behind it until commit), then stamp the rows written. A transaction that held the clock and then
 * waited for a row held by a transaction waiting for the clock would deadlock. The write door
 * (src/writes/) is the only writer that takes stamps (nextStampAndEvents): once per transaction,
 * after every unit of work in it has written its rows.
 */
const WATERMARK = 'select last_stamp from sync_clock where id = 1';

/** Takes the next stamp inside a write transaction (see above: last, once per transaction). */
export async function nextStamp(trx: DbHandle, now = Date.now()): Promise<number> {
  return (await nextStampAndEvents(trx, 0, now)).stamp;
}

/** The newest committed stamp: everything with a stamp at or below it is visible now. */
export async function committedWatermark(db: DbHandle): Promise<number> {
  const row = (await db.run<{ last_stamp: number | string }>(WATERMARK, [])).rows[0];
  if (!row) throw new Error('sync_clock row missing');
  return Number(row.last_stamp);
}

const NEXT_STAMP_AND_EVENTS =
  'update sync_clock set last_stamp = case when last_stamp + 1 > ? then last_stamp + 1 else ? end, last_event = last_event + ? where id = 1 returning last_stamp, last_event';
const EVENT_BOUNDS = 'select last_event, purged_event from sync_clock where id = 1';

/**
 * nextStamp that also numbers `count` events of the transaction, in the same statement: the row
 * lock makes sequences follow commit order, so a reader that passed sequence S never sees an event
 * below S appear later. Every statement after the stamp runs while other writers wait for the
 * clock; one fewer round trip there is one fewer for each of them. Returns the stamp and the first
 * of the `count` sequences.
 */
export async function nextStampAndEvents(trx: DbHandle, count: number, now = Date.now()): Promise<{ stamp: number; firstEvent: number }> {
  const row = (await trx.run<{ last_stamp: number | string; last_event: number | string }>(NEXT_STAMP_AND_EVENTS, [now, now, count]))
    .rows[0];
  if (!row) throw new Error('sync_clock row missing');
  return { stamp: Number(row.last_stamp), firstEvent: Number(row.last_event) - count + 1 };
}

/** The newest committed event sequence, and the sequence up to which events were purged. */
export async function eventBounds(db: DbHandle): Promise<{ last: number; purged: number }> {
  const row = (await db.run<{ last_event: number | string; purged_event: number | string }>(EVENT_BOUNDS, [])).rows[0];
  if (!row) throw new Error('sync_clock row missing');
  return { last: Number(row.last_event), purged: Number(row.purged_event) };
}
