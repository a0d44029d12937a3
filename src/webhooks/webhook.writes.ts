import { randomBytes } from 'node:crypto';
import { recordAuditWrite } from '../audit/index.js';
import { webhookNotFound } from '../errors.js';
import type { WebhookAttemptRow, WebhookEndpointRow } from '../store/database.js';
import { defineWrite } from '../writes/unit.js';
import { webhookRepository as repo, type ClaimedJob, type StoredEndpoint } from './webhook.repository.js';

/** How long the old secret keeps signing beside a new one after a rotation. */
export const ROTATION_OVERLAP_MS = 24 * 60 * 60 * 1000;
/** Events one fan-out hands to one endpoint's jobs at most. */
export const FAN_OUT_CHUNK = 1000;

export const newEndpointId = (): string => `wh_${randomBytes(12).toString('hex')}`;

/** Who asked (the audit log's KeyId). */
interface Actor {
  readonly keyId: string;
}

export interface NewEndpoint extends Actor {
  readonly endpointId: string;
  readonly url: string;
  readonly types: readonly string[];
  readonly description: string;
  /** The secret as stored (sealed by the caller, which holds the key). */
  readonly sealedSecret: string;
  readonly now: number;
}

/**
 * Registers an endpoint. Its cursor starts at the newest event once the clock is held (after the
 * stamp), so it receives exactly the events committed after it. Until then it stands at the newest
 * event committed before this transaction: a fan-out in the same group commit must not find it at 0
 * and queue every kept event for it.
 */
export const createEndpointWrite = defineWrite('webhook.create', async (unit, e: NewEndpoint): Promise<StoredEndpoint> => {
  const row: WebhookEndpointRow = {
    endpoint_id: e.endpointId,
    url: e.url,
    event_types: JSON.stringify(e.types),
    description: e.description,
    disabled_at: null,
    disabled_reason: null,
    secret: e.sealedSecret,
    previous_secret: null,
    previous_secret_until: null,
    cursor: 0,
    created_at: e.now,
    updated_at: e.now,
  };
  await repo.insertEndpoint(unit.db, row);
  await repo.startCursorAtNewestEvent(unit.db, e.endpointId);
  unit.onStamp(() => repo.startCursorAtNewestEvent(unit.db, e.endpointId));
  await recordAuditWrite.run(unit, { keyId: e.keyId, action: 'webhook.create', resourceType: 'webhook', resourceIds: [e.endpointId] });
  return row;
});

export interface EndpointChange extends Actor {
  readonly endpointId: string;
  readonly url?: string;
  readonly types?: readonly string[];
  readonly description?: string;
  readonly enabled?: boolean;
  readonly now: number;
}

/**
 * Changes an endpoint. Enabling a disabled one starts it at the newest event: what happened while
 * it was disabled reaches it only by replay (its queued deliveries go on).
 */
export const updateEndpointWrite = defineWrite('webhook.update', async (unit, c: EndpointChange): Promise<StoredEndpoint> => {
  const before = await repo.findEndpoint(unit.db, c.endpointId);
  if (!before) throw webhookNotFound(c.endpointId);
  const set: Partial<WebhookEndpointRow> = { updated_at: c.now };
  if (c.url !== undefined) set.url = c.url;
  if (c.types !== undefined) set.event_types = JSON.stringify(c.types);
  if (c.description !== undefined) set.description = c.description;
  if (c.enabled === false && before.disabled_at === null) Object.assign(set, { disabled_at: c.now, disabled_reason: 'Disabled' });
  if (c.enabled === true && before.disabled_at !== null) {
    Object.assign(set, { disabled_at: null, disabled_reason: null });
    unit.onStamp(() => repo.startCursorAtNewestEvent(unit.db, c.endpointId));
  }
  await repo.updateEndpoint(unit.db, c.endpointId, set);
  await recordAuditWrite.run(unit, { keyId: c.keyId, action: 'webhook.update', resourceType: 'webhook', resourceIds: [c.endpointId] });
  return { ...before, ...set } as StoredEndpoint;
});

export const deleteEndpointWrite = defineWrite('webhook.delete', async (unit, d: Actor & { endpointId: string }): Promise<void> => {
  if (!(await repo.deleteEndpoint(unit.db, d.endpointId))) throw webhookNotFound(d.endpointId);
  await recordAuditWrite.run(unit, { keyId: d.keyId, action: 'webhook.delete', resourceType: 'webhook', resourceIds: [d.endpointId] });
});

/** A new secret; the current one goes on signing beside it until the overlap ends. */
export const rotateSecretWrite = defineWrite(
  'webhook.rotate',
  async (unit, r: Actor & { endpointId: string; sealedSecret: string; now: number }): Promise<StoredEndpoint> => {
    const before = await repo.findEndpoint(unit.db, r.endpointId);
    if (!before) throw webhookNotFound(r.endpointId);
    const set = {
      secret: r.sealedSecret,
      previous_secret: before.secret,
      previous_secret_until: r.now + ROTATION_OVERLAP_MS,
      updated_at: r.now,
    };
    await repo.updateEndpoint(unit.db, r.endpointId, set);
    await recordAuditWrite.run(unit, { keyId: r.keyId, action: 'webhook.rotate', resourceType: 'webhook', resourceIds: [r.endpointId] });
    return { ...before, ...set };
  },
);

/** Queues kept events again for an endpoint (after a sequence, or by id); answers how many. */
export const replayWrite = defineWrite(
  'webhook.replay',
  async (unit, r: Actor & { endpointId: string; after?: number; eventIds?: readonly string[]; now: number }): Promise<number> => {
    const e = await repo.findEndpoint(unit.db, r.endpointId);
    if (!e) throw webhookNotFound(r.endpointId);
    const types = r.eventIds !== undefined ? [] : (JSON.parse(e.event_types) as string[]);
    const sequences = await repo.replayable(unit.db, types, r.eventIds === undefined ? (r.after ?? 0) : r.after, r.eventIds);
    await repo.queue(unit.db, r.endpointId, sequences, r.now);
    await recordAuditWrite.run(unit, { keyId: r.keyId, action: 'webhook.replay', resourceType: 'webhook', resourceIds: [r.endpointId] });
    return sequences.length;
  },
);

/**
 * Hands new events (`chunk` at most per endpoint) to the jobs of every enabled endpoint that takes
 * their type, and moves each endpoint's cursor past them. Sequences follow commit order (store/sync-clock.ts), so no event
 * can appear below a cursor later. Endpoints another dispatcher is fanning out are skipped.
 */
export const fanOutWrite = defineWrite('webhook.fan-out', async (unit, input: { now: number; chunk: number }): Promise<number> => {
  const { now, chunk } = input;
  let queued = 0;
  for (const e of await repo.endpointsBehind(unit.db)) {
    const events = await repo.eventsAfter(unit.db, e.cursor, chunk);
    const last = events.at(-1);
    if (!last) continue;
    const types = new Set(JSON.parse(e.event_types) as string[]);
    const sequences = events.filter((ev) => types.size === 0 || types.has(ev.type)).map((ev) => ev.sequence);
    await repo.queue(unit.db, e.endpoint_id, sequences, now);
    await repo.updateEndpoint(unit.db, e.endpoint_id, { cursor: last.sequence });
    queued += sequences.length;
  }
  return queued;
});

export interface ClaimInput {
  readonly owner: string;
  readonly now: number;
  readonly leaseMs: number;
  readonly limit: number;
  readonly skip: readonly string[];
}

/** Leases due deliveries to one dispatcher. */
export const claimWrite = defineWrite('webhook.claim', (unit, c: ClaimInput): Promise<ClaimedJob[]> =>
  repo.claim(unit.db, c.owner, c.now, c.now + c.leaseMs, c.limit, c.skip),
);

export interface AttemptOutcome {
  readonly job: ClaimedJob;
  readonly owner: string;
  readonly eventId: string;
  readonly result: 'delivered' | 'failed' | 'gone';
  readonly responseCode: number | undefined;
  readonly durationMs: number;
  /** Why it failed, in a few words (the sender's reason); undefined when delivered. */
  readonly error: string | undefined;
  readonly at: number;
  /** When a failure is attempted again; undefined when the schedule is exhausted (Dead). */
  readonly retryAt: number | undefined;
}

/**
 * Records attempts, as many as ended together (one unit: each statement is a round trip on
 * PostgreSQL): the log entries, each delivery's new state, and for a 410 the endpoint disabled. An
 * attempt that outlived its lease (another dispatcher took the delivery over) changes nothing: the
 * other one's attempt decides. Answers each attempt's status, in order.
 */
export const settleWrite = defineWrite(
  'webhook.settle',
  async (unit, outcomes: readonly AttemptOutcome[]): Promise<Array<'Delivered' | 'Failed' | 'Dead'>> => {
    const statuses: Array<'Delivered' | 'Failed' | 'Dead'> = [];
    const log: Parameters<typeof repo.logAttempts>[1][number][] = [];
    for (const o of outcomes) {
      const attempt = o.job.attempts + 1;
      const dead = o.result !== 'delivered' && o.retryAt === undefined;
      const status = o.result === 'delivered' ? 'Delivered' : dead ? 'Dead' : 'Failed';
      statuses.push(status);
      const next = status === 'Failed' ? o.retryAt! : o.at;
      const settled = await repo.settle(unit.db, o.job, o.owner, {
        state: status === 'Failed' ? 'Pending' : status,
        attempts: attempt,
        failures: o.job.failures + (o.result === 'delivered' ? 0 : 1),
        next_attempt_at: next,
      });
      if (!settled) continue;
      if (o.result === 'gone')
        await repo.updateEndpoint(unit.db, o.job.endpoint_id, { disabled_at: o.at, disabled_reason: 'Gone', updated_at: o.at });
      log.push({
        endpoint_id: o.job.endpoint_id,
        event_sequence: o.job.event_sequence,
        event_id: o.eventId,
        attempt,
        status,
        response_code: o.responseCode ?? null,
        duration_ms: Math.round(o.durationMs),
        at: o.at,
        next_attempt_at: status === 'Failed' ? next : null,
        error: o.result === 'delivered' ? null : (o.error ?? 'failed'),
      });
    }
    await repo.logAttempts(unit.db, log);
    return statuses;
  },
);

/** Records the attempt of a test event (it has no delivery job: it is attempted once, never again). */
export const logTestAttemptWrite = defineWrite(
  'webhook.test',
  async (unit, a: Omit<WebhookAttemptRow, 'attempt_id' | 'event_sequence'>): Promise<void> => {
    // Removed while the attempt was under way: there is no list left to show it in.
    if (!(await repo.findEndpoint(unit.db, a.endpoint_id))) throw webhookNotFound(a.endpoint_id);
    await repo.logUnfedAttempt(unit.db, a);
  },
);

/** Deliveries and attempts of events past retention go with them. */
export const purgeDeliveriesWrite = defineWrite('webhook.purge', (unit, _: null) => repo.purgeOfPurgedEvents(unit.db));

export const webhookWrites = [
  purgeDeliveriesWrite,
  createEndpointWrite,
  updateEndpointWrite,
  deleteEndpointWrite,
  rotateSecretWrite,
  replayWrite,
  fanOutWrite,
  claimWrite,
  settleWrite,
  logTestAttemptWrite,
];
