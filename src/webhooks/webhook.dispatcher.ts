import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import { eventsBySequence, toEvent } from '../events/index.js';
import type { EventRow } from '../store/database.js';
import type { Store } from '../store/store.js';
import type { DateStyle } from '../wire/dates.js';
import type { Casing } from '../wire/negotiation.js';
import { toJson } from '../wire/serializer.js';
import type { WriteDoor } from '../writes/unit.js';
import { nextAttemptDelayMs } from '../webhook-settings/index.js';
import type { WebhookMetrics } from './webhook.metrics.js';
import { signingSecrets } from './webhook.endpoint-secrets.js';
import { WebhookConnections } from './webhook.connections.js';
import { sendWebhook } from './webhook.sender.js';
import { signatureHeaders } from './webhook.signature.js';
import { webhookRepository as repo, type ClaimedJob, type StoredEndpoint } from './webhook.repository.js';
import { claimWrite, FAN_OUT_CHUNK, fanOutWrite, settleWrite, type AttemptOutcome } from './webhook.writes.js';

export interface DispatcherSettings {
  readonly timeoutMs: number;
  readonly retrySchedule: readonly number[];
  readonly allowPrivate: boolean;
  readonly secretKey: Buffer | undefined;
  readonly pollMs: number;
  readonly casing: Casing;
  readonly dateStyle: DateStyle;
}

/** Attempts in flight per process, and per endpoint (a slow endpoint holds only its own share). */
const MAX_IN_FLIGHT = 64;
const MAX_PER_ENDPOINT = 16;
/** A lease outlives the attempt's deadline by this much, so it never runs out under a live attempt. */
const LEASE_MARGIN_MS = 5_000;
/** While the API is saturated: attempts in flight at most, the pause before each next round, events made jobs per round and endpoint. */
const SATURATED_IN_FLIGHT = 8;
const SATURATED_PAUSE_MS = 200;
const SATURATED_FAN_OUT = 16;

/** Whether the process's API is saturated (ops/api-load.ts): delivery makes way for it then. */
export interface LoadSignal {
  readonly saturated: boolean;
}

/**
 * Delivers events to webhook endpoints; one runs in every process. Each round it hands new events
 * to the endpoints' jobs (fan-out), leases due jobs (so that no other dispatcher, in this or
 * another instance, attempts them meanwhile), sends each attempt without waiting for the others,
 * and records the outcome. Everything it writes goes through the write door; an idle round only
 * reads. A process that dies mid-attempt leaves a lease that runs out within timeout + 5 s: then
 * any dispatcher attempts the delivery again (at least once).
 */
export class WebhookDispatcher {
  readonly #owner = `dispatcher-${randomUUID()}`;
  readonly #inFlight = new Map<string, number>();
  readonly #attempts = new Set<Promise<void>>();
  #timer: NodeJS.Timeout | undefined;
  #running: Promise<void> | undefined;
  /** Set when an attempt ended during a round: the next round starts at once. */
  #again = false;
  /** Outcomes waiting to be recorded together (one write for the attempts that ended meanwhile). */
  #outcomes: Array<{ outcome: AttemptOutcome; done: (status: Promise<'Delivered' | 'Failed' | 'Dead'>) => void }> = [];
  #stopped = false;
  readonly #connections = new WebhookConnections(MAX_PER_ENDPOINT);

  constructor(
    private readonly store: Store,
    private readonly writes: WriteDoor,
    private readonly settings: DispatcherSettings,
    private readonly metrics: WebhookMetrics,
    private readonly log: FastifyBaseLogger,
    private readonly load: LoadSignal = { saturated: false },
  ) {}

  start(): void {
    this.#schedule(0);
  }

  /** Stops taking work and waits for the attempts in flight to be recorded. */
  async stop(): Promise<void> {
    this.#stopped = true;
    clearTimeout(this.#timer);
    await this.#running;
    await Promise.allSettled([...this.#attempts]);
    this.#connections.close();
  }

  #schedule(ms: number): void {
    if (this.#stopped) return;
    clearTimeout(this.#timer);
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      this.#again = false;
      this.#running = this.#round()
        .catch((err: unknown) => void this.log.warn({ err: errorText(err) }, 'webhook dispatcher round failed'))
        .then((busy) => {
          this.#running = undefined;
          this.#schedule(busy === true || this.#again ? this.#soon() : this.settings.pollMs);
        });
    }, ms);
    this.#timer.unref();
  }

  /** An attempt ended, so there is room: the next round starts now (or right after the running one). */
  #wake(): void {
    if (this.#running) this.#again = true;
    else this.#schedule(this.#soon());
  }

  /**
   * When a round with more to do comes: at once, or after a pause while the API is saturated, so
   * that delivery takes what the API leaves and a burst of changes costs no API throughput; the
   * backlog is delivered as soon as the load eases (and a trickle goes on meanwhile).
   */
  #soon(): number {
    return this.load.saturated ? SATURATED_PAUSE_MS : 0;
  }

  /** One round; true when there is likely more to do at once. */
  async #round(): Promise<boolean> {
    if (!(await repo.anyEnabled(this.store.reader))) return false;
    const now = Date.now();
    // While the API is saturated, only as many events become jobs as the trickle can send: each
    // job is a row written beside the API's own writes.
    const chunk = this.load.saturated ? SATURATED_FAN_OUT : FAN_OUT_CHUNK;
    if (await repo.anyBehind(this.store.reader)) await this.writes.run(fanOutWrite, { now, chunk });
    const room = (this.load.saturated ? SATURATED_IN_FLIGHT : MAX_IN_FLIGHT) - this.#attempts.size;
    // Held back by a saturated API: look again after the pause, the load may have eased.
    if (room <= 0) return this.load.saturated;
    if (this.#stopped || !(await repo.anyDue(this.store.reader, now))) return false;
    const full = [...this.#inFlight].filter(([, n]) => n >= MAX_PER_ENDPOINT).map(([id]) => id);
    const leaseMs = this.settings.timeoutMs + LEASE_MARGIN_MS;
    const jobs = await this.writes.run(claimWrite, { owner: this.#owner, now, leaseMs, limit: room, skip: full });
    if (jobs.length === 0) return false;
    const events = new Map(
      (await eventsBySequence(this.store.reader, [...new Set(jobs.map((j) => j.event_sequence))])).map((e) => [e.sequence, e]),
    );
    const endpoints = new Map(
      (await repo.endpointsByIds(this.store.reader, [...new Set(jobs.map((j) => j.endpoint_id))])).map((e) => [e.endpoint_id, e]),
    );
    for (const job of jobs) this.#begin(job, endpoints.get(job.endpoint_id), events.get(job.event_sequence));
    // A full claim likely left more due work; room is made again as attempts end (#wake).
    return jobs.length === room;
  }

  #begin(job: ClaimedJob, endpoint: StoredEndpoint | undefined, event: EventRow | undefined): void {
    this.#inFlight.set(job.endpoint_id, (this.#inFlight.get(job.endpoint_id) ?? 0) + 1);
    const attempt = this.#attempt(job, endpoint, event)
      .catch((err: unknown) =>
        this.log.warn(
          { err: errorText(err), endpoint: job.endpoint_id },
          'webhook attempt not recorded; its lease will run out and it is attempted again',
        ),
      )
      .finally(() => {
        this.#attempts.delete(attempt);
        const n = (this.#inFlight.get(job.endpoint_id) ?? 1) - 1;
        if (n === 0) this.#inFlight.delete(job.endpoint_id);
        else this.#inFlight.set(job.endpoint_id, n);
        this.#wake();
      });
    this.#attempts.add(attempt);
  }

  async #attempt(job: ClaimedJob, endpoint: StoredEndpoint | undefined, event: EventRow | undefined): Promise<void> {
    // Deleted meanwhile (its jobs went with it) or an event past retention: nothing left to send.
    if (!endpoint || !event) {
      await this.#settle({
        job,
        owner: this.#owner,
        eventId: event?.event_id ?? '',
        result: 'failed',
        responseCode: undefined,
        durationMs: 0,
        error: 'event no longer kept',
        at: Date.now(),
        retryAt: undefined,
      });
      return;
    }
    const at = Date.now();
    const body = toJson(toEvent(event), this.settings.casing, this.settings.dateStyle, true);
    const secrets = signingSecrets(endpoint, this.settings.secretKey, at);
    const headers = { ...signatureHeaders({ id: event.event_id, timestamp: new Date(at), body, secrets }) };
    const result = await sendWebhook({
      url: endpoint.url,
      body,
      headers,
      timeoutMs: this.settings.timeoutMs,
      allowPrivate: this.settings.allowPrivate,
      connections: this.#connections,
    });
    const delay = result.outcome === 'delivered' ? undefined : nextAttemptDelayMs(this.settings.retrySchedule, job.failures + 1);
    const status = await this.#settle({
      job,
      owner: this.#owner,
      eventId: event.event_id,
      result: result.outcome,
      responseCode: result.responseCode,
      durationMs: result.durationMs,
      error: result.error,
      at,
      retryAt: delay === undefined ? undefined : Date.now() + delay,
    });
    this.metrics.attempt(status, result.durationMs);
    if (result.outcome !== 'delivered') {
      this.log.info(
        {
          endpoint: endpoint.endpoint_id,
          event: event.event_id,
          attempt: job.attempts + 1,
          status,
          responseCode: result.responseCode,
          error: result.error,
        },
        'webhook attempt failed',
      );
    }
  }

  /**
   * Records an outcome with the others that end in the same turn of the event loop: one write
   * (one transaction, one unit) for all of them instead of one per attempt.
   */
  #settle(outcome: AttemptOutcome): Promise<'Delivered' | 'Failed' | 'Dead'> {
    return new Promise((resolve, reject) => {
      if (this.#outcomes.length === 0) setImmediate(() => this.#flush());
      this.#outcomes.push({
        outcome,
        done: (status) => {
          status.then(resolve, reject);
        },
      });
    });
  }

  #flush(): void {
    const batch = this.#outcomes;
    this.#outcomes = [];
    const statuses = this.writes.run(
      settleWrite,
      batch.map((b) => b.outcome),
    );
    batch.forEach((b, i) => b.done(statuses.then((s) => s[i]!)));
  }
}

const errorText = (err: unknown): string => (err instanceof Error ? err.message : String(err));
