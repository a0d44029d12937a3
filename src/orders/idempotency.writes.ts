import { idempotencyKeyInUse, idempotencyKeyReused } from '../errors.js';
import { isUniqueViolation } from '../store/unique-violation.js';
import { RetryWork, defineWrite, type Unit } from '../writes/unit.js';
import type { WriteDoor } from '../writes/write-door.js';
import { idempotencyRepository, type KeyRef } from './idempotency.repository.js';

export type { KeyRef } from './idempotency.repository.js';

export const IDEMPOTENCY_HEADER = 'Idempotency-Key';
/** How long a key is remembered: a retry within this time replays the first answer. */
export const RETENTION_MS = 24 * 60 * 60 * 1000;
/** A key still "running" after this long belongs to a request that died; a retry may take it over. */
export const RUNNING_LEASE_MS = 60_000;
const PURGE_EVERY_MS = 60 * 60 * 1000;

/** A claimed key (`at`: when, which tells this claim from a later takeover) or the answer to replay. */
export type Claim =
  { readonly kind: 'claimed'; readonly at: number } | { readonly kind: 'replay'; readonly status: number; readonly body: unknown };

/** A claim held by the request that made it: its answer is stored by the unit that makes its effect. */
export interface HeldKey {
  readonly ref: KeyRef;
  readonly at: number;
}

/** Claims a key for a request, or tells how to answer instead (replay, 409, 422). */
export const claimKeyWrite = defineWrite(
  'idempotency.claim',
  async (unit, input: { ref: KeyRef; operation: string; requestHash: string }): Promise<Claim> => {
    const { ref, operation, requestHash } = input;
    const now = Date.now();
    const row = await idempotencyRepository.find(unit.db, ref);
    if (!row) {
      try {
        await idempotencyRepository.insertRunning(unit.db, ref, operation, requestHash, now);
      } catch (err) {
        if (isUniqueViolation(err)) throw new RetryWork('idempotency key claimed meanwhile');
        throw err;
      }
      return { kind: 'claimed', at: now };
    }
    const expired = row.created_at <= now - RETENTION_MS;
    const abandoned = row.state === 'running' && row.created_at <= now - RUNNING_LEASE_MS;
    if (expired || abandoned) {
      if (await idempotencyRepository.replace(unit.db, ref, row.created_at, operation, requestHash, now))
        return { kind: 'claimed', at: now };
      throw new RetryWork('idempotency key changed meanwhile');
    }
    // While the first request runs, its outcome is unknown: any other request with the key waits.
    if (row.state === 'running') {
      throw idempotencyKeyInUse(IDEMPOTENCY_HEADER);
    }
    if (row.request_hash !== requestHash || row.operation !== operation) {
      throw idempotencyKeyReused(IDEMPOTENCY_HEADER);
    }
    return { kind: 'replay', status: row.response_status ?? 200, body: JSON.parse(row.response_body ?? 'null') as unknown };
  },
);

/** Frees the key of a request that failed, so that a retry runs again instead of a replay. */
export const releaseKeyWrite = defineWrite('idempotency.release', (unit, key: HeldKey) =>
  idempotencyRepository.delete(unit.db, key.ref, key.at),
);

/** Forgets keys older than the retention. */
export const purgeKeysWrite = defineWrite('idempotency.purge', (unit, cutoff: number) =>
  idempotencyRepository.deleteOlderThan(unit.db, cutoff),
);

export const idempotencyWrites = [claimKeyWrite, releaseKeyWrite, purgeKeysWrite];

/** Records the answer; called by the unit of work that makes the request's effect. */
export async function completeKey(unit: Unit, key: HeldKey, status: number, body: unknown): Promise<void> {
  await idempotencyRepository.complete(unit.db, key.ref, key.at, status, JSON.stringify(body));
}

/**
 * Idempotency keys (per API key): the first request claims its key in a committed "running" row,
 * so that other requests — in this process or another — see it; its answer is stored in the same
 * transaction as its effect, so "done" and the effect are committed together or not at all.
 */
export class IdempotencyKeys {
  #lastPurge = 0;

  constructor(private readonly writes: WriteDoor) {}

  claim(ref: KeyRef, operation: string, requestHash: string): Promise<Claim> {
    this.#purgeNowAndThen();
    return this.writes.run(claimKeyWrite, { ref, operation, requestHash });
  }

  release(key: HeldKey): Promise<void> {
    return this.writes.run(releaseKeyWrite, key);
  }

  #purgeNowAndThen(): void {
    const now = Date.now();
    if (now - this.#lastPurge < PURGE_EVERY_MS) return;
    this.#lastPurge = now;
    // Best effort: a failed purge only leaves expired rows for the next one.
    this.writes.run(purgeKeysWrite, now - RETENTION_MS).catch(() => undefined);
  }
}
