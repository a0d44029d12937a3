import { eventsExpired } from '../errors.js';
import type { EventRow } from '../store/database.js';
import type { DbHandle, Store } from '../store/store.js';
import { eventBounds } from '../store/sync-clock.js';
import { wireDate } from '../wire/serializer.js';
import { defineWrite } from '../writes/unit.js';
import type { EventType } from '../writes/event-types.js';
import { decodeEventData } from './event.json.js';
import { eventRepository, PURGE_CHUNK } from './event.repository.js';

/** An event as the feed and webhooks show it (the serializer applies the API's casing and dates). */
export const toEvent = (row: EventRow) => ({
  Id: row.event_id,
  Type: row.type as EventType,
  Sequence: row.sequence,
  OccurredAt: wireDate(row.occurred_at)!,
  Data: decodeEventData(row.data),
});

/**
 * Events after a sequence, ascending. The rows are read before the purge mark: a purge that
 * deleted any event the consumer has not seen (after `after`) shows in the mark, and the consumer
 * is told to resync instead of silently missing it.
 */
export async function listEvents(store: Store, after: number, types: readonly EventType[], take: number): Promise<EventRow[]> {
  const rows = take === 0 ? [] : await eventRepository.list(store.reader, after, types, take);
  const { purged } = await eventBounds(store.reader);
  if (after < purged) throw eventsExpired(purged);
  return rows;
}

/**
 * Deletes events older than `cutoff` (epoch ms), oldest first, at most one chunk per call; answers
 * how many. Event times follow sequences (each event takes its transaction's stamp), so the
 * oldest events are the first ones. The purge mark moves in the same transaction, once the clock
 * is held (after the stamp), like every other writer of the clock row.
 */
export const purgeEventsWrite = defineWrite('events.purge', async (unit, cutoff: number): Promise<number> => {
  const oldest = await eventRepository.oldest(unit.db, PURGE_CHUNK);
  const expired = oldest.filter((e) => e.occurred_at < cutoff);
  const last = expired.at(-1);
  if (!last) return 0;
  await eventRepository.deleteThrough(unit.db, last.sequence);
  unit.onStamp(() => eventRepository.markPurged(unit.db, last.sequence));
  return expired.length;
});

export const eventWrites = [purgeEventsWrite];

/** Events by sequence (a webhook delivery loads the events of its jobs). */
export const eventsBySequence = (db: DbHandle, sequences: readonly number[]): Promise<EventRow[]> =>
  eventRepository.bySequences(db, sequences);

/** The oldest event's sequence and time, or undefined when there is none (the retention purge looks first). */
export const oldestEvent = async (db: DbHandle): Promise<{ sequence: number; occurred_at: number } | undefined> =>
  (await eventRepository.oldest(db, 1))[0];

/** A customer's events as the feed shows them, ascending (a customer's data export). */
export const customerEvents = async (db: DbHandle, customerId: string) => (await eventRepository.ofCustomer(db, customerId)).map(toEvent);
