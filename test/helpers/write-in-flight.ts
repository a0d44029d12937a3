import { setImmediate } from 'node:timers/promises';
import { readdirSync, readFileSync } from 'node:fs';
import { BetterSqlite3 } from '../../src/store/sqlite/sqlite-driver.js';
import pg from 'pg';
import type { TestDatabase } from './test-store.js';

/**
 * Watches a database from a session of its own for a write transaction of another session that is
 * open: the crash tests kill a server on this signal, so that the kill provably finds a write in
 * flight instead of hoping a fixed delay lands inside one.
 */
export interface WriteWatch {
  /** Whether another session holds an open write transaction right now. */
  writing(): Promise<boolean>;
  close(): Promise<void>;
}

/**
 * PostgreSQL: a session whose transaction has taken a transaction id (it wrote) and not ended.
 * SQLite: the database's write lock is held (BEGIN IMMEDIATE without waiting is refused as busy).
 */
export async function watchWrites(database: TestDatabase): Promise<WriteWatch> {
  const url = database.env.DATABASE_DIRECT_URL ?? database.url;
  if (url.startsWith('sqlite:')) {
    const conn = new BetterSqlite3(url.slice('sqlite:'.length).replace(/^\/\//, ''), { fileMustExist: true, timeout: 0 });
    return {
      async writing() {
        try {
          conn.exec('BEGIN IMMEDIATE');
        } catch (err) {
          if ((err as { code?: string }).code === 'SQLITE_BUSY') return true;
          throw err;
        }
        conn.exec('ROLLBACK');
        return false;
      },
      async close() {
        conn.close();
      },
    };
  }
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  return {
    async writing() {
      const res = await client.query<{ n: number }>(
        'select count(*)::int as n from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid() and backend_xid is not null',
      );
      return res.rows[0]!.n > 0;
    },
    async close() {
      await client.end();
    },
  };
}

/**
 * Resolves true as soon as a write is in flight, or false once `until` has settled (the work that
 * was to write has ended) or `deadlineMs` has passed without one: a hang guard, not a measurement.
 */
export async function writeInFlight(watch: WriteWatch, until?: Promise<unknown>, deadlineMs = 60_000): Promise<boolean> {
  let ended = false;
  void until?.then(
    () => (ended = true),
    () => (ended = true),
  );
  const stop = Date.now() + deadlineMs;
  while (!ended && Date.now() < stop) {
    if (await watch.writing()) return true;
    await setImmediate();
  }
  return false;
}

/**
 * Whether a thread of this process is waiting for SQLite's write lock: asleep between the tries of
 * SQLite's busy handler (busy_timeout), the only place where the test process sleeps in the kernel
 * (its threads otherwise wait in epoll or on a futex). Linux: read from /proc/self/task.
 */
export function waitingForSqliteLock(): boolean {
  let tasks: string[];
  try {
    tasks = readdirSync('/proc/self/task');
  } catch {
    throw new Error('waitingForSqliteLock reads /proc/self/task (Linux)');
  }
  return tasks.some((task) => {
    try {
      return readFileSync(`/proc/self/task/${task}/wchan`, 'utf8').includes('nanosleep');
    } catch {
      return false; // the thread ended meanwhile
    }
  });
}
