import { sql } from 'kysely';
import { isStoreUnavailable, isTransactionConflict } from './store-errors.js';
import type { ReplicaStatus, RoutedOutcome, Store, StoreReplica } from './store.js';
import { committedWatermark } from './sync-clock.js';

/** How long a replica that failed is left alone before reads try it again. */
export const REPLICA_RETRY_MS = 5000;

/** undefined_table, undefined_column: the replica has not replayed the migration that made them. */
const SCHEMA_BEHIND = new Set(['42P01', '42703']);

const STATUS = sql<{ standby: boolean; lag: number | string | null; streaming: boolean }>`
  select pg_is_in_recovery() as standby,
    case when not pg_is_in_recovery() or pg_last_wal_receive_lsn() = pg_last_wal_replay_lsn() then 0
      else extract(epoch from now() - pg_last_xact_replay_timestamp()) end as lag,
    exists (select 1 from pg_stat_wal_receiver where status = 'streaming') as streaming`;

/**
 * A streaming replica of a PostgreSQL store (DATABASE_READ_URL), and a circuit in front of it.
 *
 * Only the reads that route through routeRead() go to it: the feeds and searches, custom-field
 * reads and the event feed. Everything else, store.reader included, reads the primary.
 *
 * Why the watermark promise holds on it: stamps and event sequences are taken under the sync
 * clock's row lock (sync-clock.ts), so their transactions' commit records enter the WAL in stamp
 * order; a standby makes transactions visible in the order it replays those records. A snapshot on
 * the standby that sees stamp W therefore sees every stamp below W, as on the primary. One request
 * runs all its statements on one server (a later snapshot on the same standby never sees less), and
 * it only ever moves from the replica to the primary, which is ahead of it, never back.
 */
export class ReadReplica implements StoreReplica {
  /** Reads answered here or sent to the primary, by outcome (the metrics read these). */
  readonly counts: Record<RoutedOutcome, number> = { replica: 0, down: 0, behind: 0, failed: 0 };
  #downUntil = 0;
  /** The highest committed watermark seen on the replica since it last failed. */
  #reached = 0;

  /**
   * @param store the store with `reader` on the replica (and everything else as the primary's)
   * @param onDown told once each time the replica is found failing
   */
  constructor(
    readonly store: Store,
    private readonly retryMs = REPLICA_RETRY_MS,
    private readonly onDown: (err: unknown) => void = () => undefined,
  ) {}

  /** False for a while after the replica failed: reads go to the primary meanwhile. */
  get available(): boolean {
    return Date.now() >= this.#downUntil;
  }

  /**
   * After an error of a read on the replica: whether the read should be answered by the primary
   * instead. The replica is left alone for a while unless the error was a conflict with recovery
   * (a query cancelled by replay, which says nothing about the next one) or a table or column it
   * has not replayed yet.
   */
  failed(err: unknown): boolean {
    // A replica still replaying a migration lacks its tables or columns: the primary has them.
    if (SCHEMA_BEHIND.has(String((err as { code?: unknown } | null)?.code))) return true;
    if (!isStoreUnavailable(err)) return false;
    if (!isTransactionConflict(err)) this.markDown(err);
    return true;
  }

  markDown(err: unknown): void {
    const wasUp = this.available;
    this.#downUntil = Date.now() + this.retryMs;
    // Another server may answer the next connection: what this one had reached says nothing of it.
    this.#reached = 0;
    if (wasUp) this.onDown(err);
  }

  /** Whether the replica has replayed every commit with a stamp at or below `watermark`. */
  async hasReached(watermark: number): Promise<boolean> {
    if (watermark <= this.#reached) return true;
    const committed = await committedWatermark(this.store.reader);
    this.#reached = Math.max(this.#reached, committed);
    return committed >= watermark;
  }

  /** Asks the replica how it is, within `timeoutMs`; a failure leaves it alone for a while. */
  async status(timeoutMs = 1000): Promise<ReplicaStatus> {
    let timer: NodeJS.Timeout | undefined;
    try {
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(
          () => reject(Object.assign(new Error('the read replica did not answer in time'), { code: 'ETIMEDOUT' })),
          timeoutMs,
        );
      });
      const row = (await Promise.race([STATUS.execute(this.store.reader), timeout])).rows[0];
      if (!row) throw new Error('no status row');
      // It answers: reads may try it again at once.
      this.#downUntil = 0;
      return { up: true, lagSeconds: Math.max(0, Number(row.lag ?? 0)), streaming: row.standby ? row.streaming : false };
    } catch (err) {
      this.markDown(err);
      return { up: false };
    } finally {
      clearTimeout(timer);
    }
  }
}

/**
 * Runs a read on the replica when the store has one that is available and has reached
 * `minWatermark` (read-your-writes: X-Min-Watermark); else, or when the replica fails before the
 * read has answered, on the primary. `read` runs all its statements on the store it is given
 * (`reader`), and only reads.
 */
export async function routeRead<T>(store: Store, minWatermark: number | undefined, read: (store: Store) => Promise<T>): Promise<T> {
  const replica = store.replica;
  if (!replica) return read(store);
  if (!replica.available) {
    replica.counts.down++;
    return read(store);
  }
  try {
    if (minWatermark !== undefined && !(await replica.hasReached(minWatermark))) {
      replica.counts.behind++;
      return read(store);
    }
    const value = await read(replica.store);
    replica.counts.replica++;
    return value;
  } catch (err) {
    if (!replica.failed(err)) throw err;
    replica.counts.failed++;
    return read(store);
  }
}

/**
 * The primary's committed watermark, read once for every caller that asked while no read was
 * under way (a read already under way may have started before the caller's write committed, so
 * the caller waits for the next one). What a write's answer hands out as X-Write-Watermark.
 */
export function primaryWatermark(store: Store): () => Promise<number> {
  let running: Promise<number> | undefined;
  let next: Promise<number> | undefined;
  const start = (): Promise<number> => {
    const p = committedWatermark(store.reader).finally(() => {
      if (running === p) running = undefined;
    });
    running = p;
    return p;
  };
  return () => {
    if (!running) return start();
    next ??= running
      .catch(() => undefined)
      .then(() => {
        next = undefined;
        return start();
      });
    return next;
  };
}
