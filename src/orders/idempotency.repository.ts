import type { IdempotencyRow } from '../store/database.js';
import type { DbHandle } from '../store/store.js';

export interface KeyRef {
  readonly apiKeyId: string;
  readonly key: string;
}

// A confirmation with a key runs these: written once (db.run), not built per call.
const KEY = 'api_key_id = ? and idempotency_key = ?';
// Columns by name, not `*`: a prepared statement's result may not change shape under a migration.
const FIND = `select api_key_id, idempotency_key, operation, request_hash, state, response_status, response_body, created_at from idempotency_keys where ${KEY}`;
const INSERT_RUNNING =
  'insert into idempotency_keys (api_key_id, idempotency_key, operation, request_hash, state, response_status, response_body, created_at)' +
  " values (?, ?, ?, ?, 'running', null, null, ?)";
const COMPLETE = `update idempotency_keys set state = 'done', response_status = ?, response_body = ? where ${KEY} and created_at = ?`;
const DELETE = `delete from idempotency_keys where ${KEY} and created_at = ?`;

/** All SQL about idempotency keys. */
export const idempotencyRepository = {
  async find(db: DbHandle, ref: KeyRef): Promise<IdempotencyRow | undefined> {
    return (await db.run<IdempotencyRow>(FIND, [ref.apiKeyId, ref.key])).rows[0];
  },

  async insertRunning(db: DbHandle, ref: KeyRef, operation: string, requestHash: string, now: number): Promise<void> {
    await db.run(INSERT_RUNNING, [ref.apiKeyId, ref.key, operation, requestHash, now]);
  },

  /** Takes over an expired or abandoned row; false when someone else changed it first. */
  async replace(db: DbHandle, ref: KeyRef, seenCreatedAt: number, operation: string, requestHash: string, now: number): Promise<boolean> {
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
  async complete(db: DbHandle, ref: KeyRef, claimedAt: number, status: number, body: string): Promise<void> {
    await db.run(COMPLETE, [status, body, ref.apiKeyId, ref.key, claimedAt]);
  },

  async delete(db: DbHandle, ref: KeyRef, claimedAt: number): Promise<void> {
    await db.run(DELETE, [ref.apiKeyId, ref.key, claimedAt]);
  },

  async deleteOlderThan(db: DbHandle, cutoff: number): Promise<number> {
    const res = await db.deleteFrom('idempotency_keys').where('created_at', '<', cutoff).executeTakeFirst();
    return Number(res.numDeletedRows);
  },
};
