import type { FastifyBaseLogger } from 'fastify';
import { oldestEvent, purgeEventsWrite } from '../events/index.js';
import type { Store } from '../store/store.js';
import type { WriteDoor } from '../writes/unit.js';
import { purgeDeliveriesWrite } from './webhook.writes.js';

const DAY_MS = 24 * 60 * 60 * 1000;
const EVERY_MS = 60 * 60 * 1000;

/**
 * Deletes the events older than `days` (and their deliveries), chunk by chunk; answers how many.
 * The oldest event is read first: with nothing to delete no write is made (on SQLite a write starts
 * the write thread, a second V8 isolate of about 26 MB, and every start would pay for it).
 */
export async function purgeExpiredEvents(
  store: Store,
  writes: WriteDoor,
  days: number,
  stop: () => boolean = () => false,
): Promise<number> {
  const cutoff = Date.now() - days * DAY_MS;
  const oldest = await oldestEvent(store.reader);
  if (oldest === undefined || oldest.occurred_at >= cutoff) return 0;
  let deleted = 0;
  for (let n: number; !stop() && (n = await writes.run(purgeEventsWrite, cutoff)) > 0;) deleted += n;
  if (deleted > 0) await writes.run(purgeDeliveriesWrite, null);
  return deleted;
}

/**
 * Deletes events older than the retention (EVENT_RETENTION_DAYS), with their webhook deliveries,
 * once at start and then hourly, in small transactions. Every instance runs it; they delete the
 * same rows, so running it twice does no harm. Returns a stop function that waits for a purge under way.
 */
export function startEventRetention(store: Store, writes: WriteDoor, days: number, log: FastifyBaseLogger): () => Promise<void> {
  let stopped = false;
  let running: Promise<void> = Promise.resolve();
  const purge = async (): Promise<void> => {
    const deleted = await purgeExpiredEvents(store, writes, days, () => stopped);
    if (deleted > 0) log.info({ deleted, days }, 'events past retention deleted');
  };
  const run = (): void => {
    running = purge().catch((err: unknown) =>
      log.warn({ err: err instanceof Error ? err.message : String(err) }, 'event retention purge failed; next try in an hour'),
    );
  };
  const timer = setInterval(run, EVERY_MS).unref();
  run();
  return async () => {
    stopped = true;
    clearInterval(timer);
    await running;
  };
}
