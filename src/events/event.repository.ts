import type { EventRow } from '../store/database.js';
import { chunks } from '../store/statement-texts.js';
import type { DbHandle } from '../store/store.js';
import { insertEventsSql } from './event.statements.js';
import type { EventType } from '../writes/event-types.js';

/** Rows per INSERT: well under either backend's limit on parameters (7 per row). */
const ROWS_PER_INSERT = 500;
/** Events the retention purge looks at (and deletes) in one go. */
export const PURGE_CHUNK = 1000;

const stored = (row: EventRow): EventRow => ({
  ...row,
  sequence: Number(row.sequence),
  occurred_at: Number(row.occurred_at),
  order_id: row.order_id === null ? null : Number(row.order_id),
});

/** All SQL about the outbox of events. */
export const eventRepository = {
  /** Appends events (a statement written once per row count: every write transaction runs it). */
  async insertMany(db: DbHandle, rows: readonly EventRow[]): Promise<void> {
    for (const slice of chunks(rows, ROWS_PER_INSERT)) {
      const params: unknown[] = [];
      for (const r of slice) params.push(r.sequence, r.event_id, r.type, r.occurred_at, r.customer_id, r.order_id, r.data);
      await db.run(insertEventsSql(slice.length), params);
    }
  },

  /** Events with a sequence above `after` (of the given types, when any), ascending, at most `take`. */
  async list(db: DbHandle, after: number, types: readonly EventType[], take: number): Promise<EventRow[]> {
    let q = db.selectFrom('events').selectAll().where('sequence', '>', after);
    if (types.length > 0) q = q.where('type', 'in', types);
    return (await q.orderBy('sequence').limit(take).execute()).map(stored);
  },

  /** Events by sequence (a delivery loads the events of its jobs). */
  async bySequences(db: DbHandle, sequences: readonly number[]): Promise<EventRow[]> {
    if (sequences.length === 0) return [];
    return (await db.selectFrom('events').selectAll().where('sequence', 'in', sequences).execute()).map(stored);
  },

  /** A customer's events (those whose payload may hold its personal data), ascending. */
  async ofCustomer(db: DbHandle, customerId: string): Promise<EventRow[]> {
    return (await db.selectFrom('events').selectAll().where('customer_id', '=', customerId).orderBy('sequence').execute()).map(stored);
  },

  /**
   * Events about these orders that name no customer (an order's events from before its
   * confirmation), ascending; by the index of the events' order.
   */
  async ownerlessOfOrders(db: DbHandle, orderIds: readonly number[]): Promise<EventRow[]> {
    if (orderIds.length === 0) return [];
    return (
      await db
        .selectFrom('events')
        .selectAll()
        .where('order_id', 'in', orderIds)
        .where('customer_id', 'is', null)
        .orderBy('sequence')
        .execute()
    ).map(stored);
  },

  async replaceData(db: DbHandle, sequence: number, data: string): Promise<void> {
    await db.updateTable('events').set({ data }).where('sequence', '=', sequence).execute();
  },

  /** The oldest events (sequence and time), for the retention purge. */
  async oldest(db: DbHandle, count: number): Promise<Array<{ sequence: number; occurred_at: number }>> {
    const rows = await db.selectFrom('events').select(['sequence', 'occurred_at']).orderBy('sequence').limit(count).execute();
    return rows.map((r) => ({ sequence: Number(r.sequence), occurred_at: Number(r.occurred_at) }));
  },

  async deleteThrough(db: DbHandle, sequence: number): Promise<void> {
    await db.deleteFrom('events').where('sequence', '<=', sequence).execute();
  },

  async markPurged(db: DbHandle, sequence: number): Promise<void> {
    await db.updateTable('sync_clock').set({ purged_event: sequence }).where('id', '=', 1).where('purged_event', '<', sequence).execute();
  },
};
