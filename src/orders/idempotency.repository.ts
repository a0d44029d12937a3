import type { IdempotencyRow } from '../store/database.js';
import type { Executor } from '../store/store.js';

export interface KeyRef {
  readonly apiKeyId: string;
  readonly key: string;
}

/** All SQL about idempotency keys. */
export const idempotencyRepository = {
  find(db: Executor, ref: KeyRef): Promise<IdempotencyRow | undefined> {
    return db
      .selectFrom('idempotency_keys')
      .selectAll()
      .where('api_key_id', '=', ref.apiKeyId)
      .where('idempotency_key', '=', ref.key)
      .executeTakeFirst();
  },

  async insertRunning(db: Executor, ref: KeyRef, operation: string, requestHash: string, now: number): Promise<void> {
    await db
      .insertInto('idempotency_keys')
      .values({
        api_key_id: ref.apiKeyId,
        idempotency_key: ref.key,
        operation,
        request_hash: requestHash,
        state: 'running',
        response_status: null,
        response_body: null,
        created_at: now,
      })
      .execute();
  },

  /** Takes over an expired or abandoned row; false when someone else changed it first. */
  async replace(db: Executor, ref: KeyRef, seenCreatedAt: number, operation: string, requestHash: string, now: number): Promise<boolean> {
    const res = await db
      .updateTable('idempotency_keys')
      .set({ operation, request_hash: requestHash, state: 'running', response_status: null, response_body: null, created_at: now })
      .where('api_key_id', '=', ref.apiKeyId)
      .where('idempotency_key', '=', ref.key)
      .where('created_at', '=', seenCreatedAt)
      .executeTakeFirst();
    return Number(res.numUpdatedRows) === 1;
  },

  /** Stores the answer of the claim made at `claimedAt` (a claim taken over since is left alone). */
  async complete(db: Executor, ref: KeyRef, claimedAt: number, status: number, body: string): Promise<void> {
    await db
      .updateTable('idempotency_keys')
      .set({ state: 'done', response_status: status, response_body: body })
      .where('api_key_id', '=', ref.apiKeyId)
      .where('idempotency_key', '=', ref.key)
      .where('created_at', '=', claimedAt)
      .execute();
  },

  async delete(db: Executor, ref: KeyRef, claimedAt: number): Promise<void> {
    await db
      .deleteFrom('idempotency_keys')
      .where('api_key_id', '=', ref.apiKeyId)
      .where('idempotency_key', '=', ref.key)
      .where('created_at', '=', claimedAt)
      .execute();
  },

  async deleteOlderThan(db: Executor, cutoff: number): Promise<number> {
    const res = await db.deleteFrom('idempotency_keys').where('created_at', '<', cutoff).executeTakeFirst();
    return Number(res.numDeletedRows);
  },
};
