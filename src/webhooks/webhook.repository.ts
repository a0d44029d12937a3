import { sql } from 'kysely';
import type { WebhookAttemptRow, WebhookDeliveryRow, WebhookEndpointRow } from '../store/database.js';
import type { DbHandle } from '../store/store.js';

/** An endpoint as the service reads it (numbers as numbers on both backends). */
export type StoredEndpoint = WebhookEndpointRow;
/** One attempt of the log, read back. */
export type StoredAttempt = Omit<WebhookAttemptRow, 'attempt_id'> & { attempt_id: number };

/** A job claimed for delivery: what the dispatcher needs to send it and to record the outcome. */
export interface ClaimedJob {
  readonly endpoint_id: string;
  readonly event_sequence: number;
  readonly attempts: number;
  readonly failures: number;
}

const endpoint = (r: WebhookEndpointRow): StoredEndpoint => ({
  ...r,
  disabled_at: r.disabled_at === null ? null : Number(r.disabled_at),
  previous_secret_until: r.previous_secret_until === null ? null : Number(r.previous_secret_until),
  cursor: Number(r.cursor),
  created_at: Number(r.created_at),
  updated_at: Number(r.updated_at),
});

const attempt = (r: StoredAttempt): StoredAttempt => ({
  ...r,
  attempt_id: Number(r.attempt_id),
  event_sequence: Number(r.event_sequence),
  at: Number(r.at),
  next_attempt_at: r.next_attempt_at === null ? null : Number(r.next_attempt_at),
});

/** Rows per statement when jobs are made from events. */
const JOBS_PER_INSERT = 500;

/** All SQL about webhook endpoints, their delivery jobs and the log of attempts. */
export const webhookRepository = {
  async insertEndpoint(db: DbHandle, row: WebhookEndpointRow): Promise<void> {
    await db.insertInto('webhook_endpoints').values(row).execute();
  },

  /** Starts an endpoint's cursor at the newest event: it receives the events committed after it. */
  async startCursorAtNewestEvent(db: DbHandle, endpointId: string): Promise<void> {
    await db
      .updateTable('webhook_endpoints')
      .set({ cursor: sql<number>`(select last_event from sync_clock where id = 1)` })
      .where('endpoint_id', '=', endpointId)
      .execute();
  },

  async findEndpoint(db: DbHandle, endpointId: string): Promise<StoredEndpoint | undefined> {
    const row = await db.selectFrom('webhook_endpoints').selectAll().where('endpoint_id', '=', endpointId).executeTakeFirst();
    return row ? endpoint(row) : undefined;
  },

  async listEndpoints(db: DbHandle): Promise<StoredEndpoint[]> {
    return (await db.selectFrom('webhook_endpoints').selectAll().orderBy('created_at').orderBy('endpoint_id').execute()).map(endpoint);
  },

  async endpointsByIds(db: DbHandle, endpointIds: readonly string[]): Promise<StoredEndpoint[]> {
    if (endpointIds.length === 0) return [];
    return (await db.selectFrom('webhook_endpoints').selectAll().where('endpoint_id', 'in', endpointIds).execute()).map(endpoint);
  },

  async updateEndpoint(db: DbHandle, endpointId: string, set: Partial<Omit<WebhookEndpointRow, 'endpoint_id'>>): Promise<boolean> {
    const res = await db.updateTable('webhook_endpoints').set(set).where('endpoint_id', '=', endpointId).executeTakeFirst();
    return Number(res.numUpdatedRows) === 1;
  },

  async deleteEndpoint(db: DbHandle, endpointId: string): Promise<boolean> {
    await db.deleteFrom('webhook_attempts').where('endpoint_id', '=', endpointId).execute();
    await db.deleteFrom('webhook_deliveries').where('endpoint_id', '=', endpointId).execute();
    const res = await db.deleteFrom('webhook_endpoints').where('endpoint_id', '=', endpointId).executeTakeFirst();
    return Number(res.numDeletedRows) === 1;
  },

  /** Whether any enabled endpoint exists: an idle dispatcher asks this on the reader, writing nothing. */
  async anyEnabled(db: DbHandle): Promise<boolean> {
    return (
      (await db.selectFrom('webhook_endpoints').select('endpoint_id').where('disabled_at', 'is', null).limit(1).executeTakeFirst()) !==
      undefined
    );
  },

  /** Whether an enabled endpoint has events after its cursor (read-only: whether a fan-out is due). */
  async anyBehind(db: DbHandle): Promise<boolean> {
    const row = await db
      .selectFrom('webhook_endpoints')
      .select('endpoint_id')
      .where('disabled_at', 'is', null)
      .where('cursor', '<', sql<number>`(select last_event from sync_clock where id = 1)`)
      .limit(1)
      .executeTakeFirst();
    return row !== undefined;
  },

  /** Whether a delivery is due and not leased (read-only: whether a claim is worth a transaction). */
  async anyDue(db: DbHandle, now: number): Promise<boolean> {
    const row = await db
      .selectFrom('webhook_deliveries')
      .select('endpoint_id')
      .where('state', '=', 'Pending')
      .where('next_attempt_at', '<=', now)
      .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<', now)]))
      .limit(1)
      .executeTakeFirst();
    return row !== undefined;
  },

  /** Enabled endpoints with events after their cursor, locked for the fan-out (others skip them). */
  async endpointsBehind(db: DbHandle): Promise<StoredEndpoint[]> {
    const q = db
      .selectFrom('webhook_endpoints')
      .selectAll()
      .where('disabled_at', 'is', null)
      .where('cursor', '<', sql<number>`(select last_event from sync_clock where id = 1)`);
    return (await db.lockRows(q, 'claim').execute()).map(endpoint);
  },

  /** Events after a cursor (sequence and type only), ascending. */
  async eventsAfter(db: DbHandle, cursor: number, limit: number): Promise<Array<{ sequence: number; type: string }>> {
    const rows = await db
      .selectFrom('events')
      .select(['sequence', 'type'])
      .where('sequence', '>', cursor)
      .orderBy('sequence')
      .limit(limit)
      .execute();
    return rows.map((r) => ({ sequence: Number(r.sequence), type: r.type }));
  },

  /**
   * Queues deliveries of these events to an endpoint; a delivery that exists already is queued again.
   * One under way loses its lease, so that the attempt under way cannot settle it as Delivered over
   * the replay: the replay is sent after it (that attempt's outcome is not recorded).
   */
  async queue(db: DbHandle, endpointId: string, sequences: readonly number[], now: number): Promise<void> {
    for (let i = 0; i < sequences.length; i += JOBS_PER_INSERT) {
      const rows = sequences.slice(i, i + JOBS_PER_INSERT).map((s): WebhookDeliveryRow => ({
        endpoint_id: endpointId,
        event_sequence: s,
        state: 'Pending',
        attempts: 0,
        failures: 0,
        next_attempt_at: now,
        lease_until: null,
        lease_owner: null,
      }));
      await db
        .insertInto('webhook_deliveries')
        .values(rows)
        .onConflict((oc) =>
          oc
            .columns(['endpoint_id', 'event_sequence'])
            .doUpdateSet({ state: 'Pending', failures: 0, next_attempt_at: now, lease_until: null, lease_owner: null }),
        )
        .execute();
    }
  },

  /** Sequences of kept events after `after` (or the given ids) whose type the endpoint takes: a replay's events. */
  async replayable(
    db: DbHandle,
    types: readonly string[],
    after: number | undefined,
    eventIds: readonly string[] | undefined,
  ): Promise<number[]> {
    let q = db.selectFrom('events').select('sequence');
    if (after !== undefined) q = q.where('sequence', '>', after);
    if (eventIds !== undefined) q = q.where('event_id', 'in', eventIds.length > 0 ? eventIds : ['']);
    if (types.length > 0) q = q.where('type', 'in', types);
    return (await q.orderBy('sequence').execute()).map((r) => Number(r.sequence));
  },

  /**
   * Claims due deliveries of enabled endpoints: leased to `owner` until `leaseUntil`, so that no
   * other dispatcher attempts them meanwhile, and attempted again once the lease has run out (a
   * dispatcher that died). Endpoints in `skip` are at this dispatcher's limit of attempts in flight.
   */
  async claim(db: DbHandle, owner: string, now: number, leaseUntil: number, limit: number, skip: readonly string[]): Promise<ClaimedJob[]> {
    // Enabled endpoints by a subquery, not a join: only the delivery rows are locked (PostgreSQL
    // would lock the joined endpoint rows too, and other dispatchers would skip that endpoint).
    let q = db
      .selectFrom('webhook_deliveries as d')
      .select(['d.endpoint_id', 'd.event_sequence', 'd.attempts', 'd.failures'])
      .where('d.state', '=', 'Pending')
      .where('d.next_attempt_at', '<=', now)
      .where((eb) => eb.or([eb('d.lease_until', 'is', null), eb('d.lease_until', '<', now)]))
      .where('d.endpoint_id', 'in', (eb) => eb.selectFrom('webhook_endpoints').select('endpoint_id').where('disabled_at', 'is', null));
    if (skip.length > 0) q = q.where('d.endpoint_id', 'not in', skip);
    const rows = await db.lockRows(q.orderBy('d.next_attempt_at').limit(limit), 'claim').execute();
    const jobs = rows.map((r) => ({
      endpoint_id: r.endpoint_id,
      event_sequence: Number(r.event_sequence),
      attempts: Number(r.attempts),
      failures: Number(r.failures),
    }));
    if (jobs.length === 0) return jobs;
    // One statement for the whole claim: each statement is a round trip on PostgreSQL.
    await db
      .updateTable('webhook_deliveries')
      .set({ lease_until: leaseUntil, lease_owner: owner })
      .where((eb) =>
        eb(
          eb.refTuple('endpoint_id', 'event_sequence'),
          'in',
          jobs.map((j) => eb.tuple(j.endpoint_id, j.event_sequence)),
        ),
      )
      .execute();
    return jobs;
  },

  /** The outcome of a leased attempt; false when the lease was lost (another dispatcher took it over). */
  async settle(
    db: DbHandle,
    job: ClaimedJob,
    owner: string,
    set: Pick<WebhookDeliveryRow, 'state' | 'attempts' | 'failures' | 'next_attempt_at'>,
  ): Promise<boolean> {
    const res = await db
      .updateTable('webhook_deliveries')
      .set({ ...set, lease_until: null, lease_owner: null })
      .where('endpoint_id', '=', job.endpoint_id)
      .where('event_sequence', '=', job.event_sequence)
      .where('lease_owner', '=', owner)
      .executeTakeFirst();
    return Number(res.numUpdatedRows) === 1;
  },

  async logAttempts(db: DbHandle, rows: ReadonlyArray<Omit<WebhookAttemptRow, 'attempt_id'>>): Promise<void> {
    if (rows.length > 0)
      await db
        .insertInto('webhook_attempts')
        .values([...rows])
        .execute();
  },

  /**
   * Logs the attempt of an event that the feed does not hold (a test event). Its event_sequence is
   * the newest event's at that time, so that the retention purge takes it with the events of its age.
   */
  async logUnfedAttempt(db: DbHandle, row: Omit<WebhookAttemptRow, 'attempt_id' | 'event_sequence'>): Promise<void> {
    await db
      .insertInto('webhook_attempts')
      .values({ ...row, event_sequence: sql<number>`(select last_event from sync_clock where id = 1)` })
      .execute();
  },

  /** An endpoint's attempts, newest first. */
  async attempts(db: DbHandle, endpointId: string, take: number): Promise<StoredAttempt[]> {
    const rows = await db
      .selectFrom('webhook_attempts')
      .selectAll()
      .where('endpoint_id', '=', endpointId)
      .orderBy('attempt_id', 'desc')
      .limit(take)
      .execute();
    return rows.map(attempt);
  },

  /** An endpoint's deliveries waiting for their next attempt (the deliveries list shows them as Pending). */
  async pending(
    db: DbHandle,
    endpointId: string,
    take: number,
  ): Promise<Array<{ event_sequence: number; event_id: string; attempts: number; next_attempt_at: number }>> {
    const rows = await db
      .selectFrom('webhook_deliveries as d')
      .innerJoin('events as ev', 'ev.sequence', 'd.event_sequence')
      .select(['d.event_sequence', 'ev.event_id', 'd.attempts', 'd.next_attempt_at'])
      .where('d.endpoint_id', '=', endpointId)
      .where('d.state', '=', 'Pending')
      .orderBy('d.next_attempt_at', 'desc')
      .limit(take)
      .execute();
    return rows.map((r) => ({
      event_sequence: Number(r.event_sequence),
      event_id: r.event_id,
      attempts: Number(r.attempts),
      next_attempt_at: Number(r.next_attempt_at),
    }));
  },

  /** The time of the oldest event still waiting for delivery (a metric), or undefined. */
  async oldestUndelivered(db: DbHandle): Promise<number | undefined> {
    const row = await db
      .selectFrom('webhook_deliveries as d')
      .innerJoin('events as ev', 'ev.sequence', 'd.event_sequence')
      .select((eb) => eb.fn.min('ev.occurred_at').as('oldest'))
      .where('d.state', '=', 'Pending')
      .executeTakeFirst();
    return row?.oldest === null || row?.oldest === undefined ? undefined : Number(row.oldest);
  },

  /** Deletes the deliveries and attempts of events the retention purge removed. */
  async purgeOfPurgedEvents(db: DbHandle): Promise<void> {
    const purged = sql<number>`(select purged_event from sync_clock where id = 1)`;
    await db.deleteFrom('webhook_attempts').where('event_sequence', '<=', purged).execute();
    await db.deleteFrom('webhook_deliveries').where('event_sequence', '<=', purged).execute();
  },
};
