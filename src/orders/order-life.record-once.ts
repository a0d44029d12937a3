import { sha256 } from '../digest.js';
import type { HeldKey, IdempotencyKeys, KeyRef } from './idempotency.writes.js';

/** A record as it is answered, and whether an Idempotency-Key replayed it. */
export interface Recorded<R> {
  readonly record: R;
  readonly replayed: boolean;
}

/** What a record of an order's life answers and an Idempotency-Key replays: the record's id (the record is read again, as it stands). */
export interface RecordAnswer {
  readonly id: number;
}

/** The request as retries are compared: the order and every field, in a fixed order. */
export const requestHash = (orderId: number, fields: readonly unknown[]): string => sha256(`${orderId}\n${JSON.stringify(fields)}`);

/** How one kind of record is added once: its operation's name (idempotency keys are per operation), the write, and the read of a replay. */
export interface RecordKind<R> {
  readonly operation: string;
  readonly write: (key: HeldKey | undefined) => Promise<R>;
  readonly find: (id: number) => Promise<R | undefined>;
}

/** Adds a record; with an Idempotency-Key, a retry answers the first record instead of adding one. */
export async function recordOnce<R>(
  keys: IdempotencyKeys,
  ref: KeyRef | undefined,
  hash: string,
  kind: RecordKind<R>,
): Promise<Recorded<R>> {
  if (!ref) return { record: await kind.write(undefined), replayed: false };
  const claim = await keys.claim(ref, kind.operation, hash);
  if (claim.kind === 'replay') {
    const record = await kind.find((claim.body as RecordAnswer).id);
    if (record === undefined) throw new Error(`${kind.operation}: the record of a stored answer is gone`);
    return { record, replayed: true };
  }
  const key: HeldKey = { ref, at: claim.at };
  try {
    return { record: await kind.write(key), replayed: false };
  } catch (err) {
    // As for a confirmation: a failed request frees its key, so that its retry runs again.
    await keys.release(key).catch(() => undefined);
    throw err;
  }
}
