import { customerOfConfirmation } from '../customers/index.js';
import { alreadyConfirmed, orderCancelled, orderNotFound, unknownCustomerId } from '../errors.js';
import { RetryWork, defineWrite, type Unit } from '../writes/unit.js';
import type { WriteDoor } from '../writes/write-door.js';
import { IdempotencyKeys, completeKey, type HeldKey, type KeyRef } from './idempotency.writes.js';
import { sha256 } from '../digest.js';
import { addressOf, answerFromStored, answerOf, confirmationJson, storedAnswer, type ConfirmAnswer } from './order.mapping.js';
import { confirmationPayments } from './order-life.service.js';
import { orderRepository } from './order.repository.js';
import type { ValidConfirmation } from './order.validation.js';

export const CONFIRM_OPERATION = 'ConfirmOrder';

export interface ConfirmOutcome {
  readonly answer: ConfirmAnswer;
  /** True when an Idempotency-Key replayed an earlier answer. */
  readonly replayed: boolean;
}

/** The confirmation as stored with the order, and its hash (what retries are compared by). */
interface Stored {
  readonly text: string;
  readonly hash: string;
}

/**
 * The usual case, an open order, without reading it first: the customer is written and the order
 * marked confirmed (one statement and, on PostgreSQL, one round trip fewer). Anything else — the
 * order not open or unknown, an unknown CustomerId — rolls the unit back (RetryWork), and the next
 * attempt reads the order first and answers as it stands.
 */
async function confirmOpen(unit: Unit, c: ValidConfirmation, stored: Stored): Promise<ConfirmAnswer> {
  const now = Date.now();
  const customerId = await customerOfConfirmation(
    unit,
    { customerId: c.data.CustomerId, externalId: c.data.ExternalCustomerId },
    addressOf(c.data),
    now,
  );
  if (customerId === undefined) throw new RetryWork('unknown customer: check the order first');
  const state = { customer_id: customerId, confirmed_at: now, confirmation: stored.text, confirmation_hash: stored.hash };
  const row = await orderRepository.markConfirmed(unit.db, c.orderId, state, (o) => confirmationPayments(o, c.data.Payment));
  if (row === undefined) throw new RetryWork('order not open');
  unit.touch('order', String(c.orderId));
  unit.emit({ type: 'order.confirmed', orderId: c.orderId, row });
  return answerOf(row);
}

/** The order read first: unknown, cancelled, already confirmed (same data: the first answer), or open. */
async function confirmChecked(unit: Unit, c: ValidConfirmation, stored: Stored): Promise<ConfirmAnswer> {
  const order = await orderRepository.find(unit.db, c.orderId);
  if (!order) throw orderNotFound(c.orderId);
  if (order.status === 'Cancelled') throw orderCancelled(c.orderId);
  if (order.status === 'Confirmed') {
    if (order.confirmation_hash === stored.hash) return answerOf(order);
    throw alreadyConfirmed(c.orderId);
  }
  const now = Date.now();
  const customerId = await customerOfConfirmation(
    unit,
    { customerId: c.data.CustomerId, externalId: c.data.ExternalCustomerId },
    addressOf(c.data),
    now,
  );
  if (customerId === undefined) throw unknownCustomerId();
  const state = { customer_id: customerId, confirmed_at: now, confirmation: stored.text, confirmation_hash: stored.hash };
  // Another instance confirmed it since the read: run again, and answer as the order now stands.
  const row = await orderRepository.markConfirmed(unit.db, c.orderId, state, (o) => confirmationPayments(o, c.data.Payment));
  if (row === undefined) throw new RetryWork('order changed meanwhile');
  unit.touch('order', String(c.orderId));
  unit.emit({ type: 'order.confirmed', orderId: c.orderId, row });
  return answerOf(row);
}

/**
 * A confirmation as a write: the open-order path first, the checked path when that one rolled
 * back; with an Idempotency-Key, its answer is stored in the same transaction.
 */
export const confirmOrderWrite = defineWrite(
  'order.confirm',
  async (unit, input: { c: ValidConfirmation; stored: Stored; key?: HeldKey }): Promise<ConfirmAnswer> => {
    const answer = unit.attempt === 1 ? await confirmOpen(unit, input.c, input.stored) : await confirmChecked(unit, input.c, input.stored);
    if (input.key) await completeKey(unit, input.key, 200, storedAnswer(answer));
    return answer;
  },
);

/** Confirms orders exactly once: safe retries by body, and by Idempotency-Key. */
export class ConfirmationService {
  readonly #keys: IdempotencyKeys;

  constructor(private readonly writes: WriteDoor) {
    this.#keys = new IdempotencyKeys(writes);
  }

  async confirm(c: ValidConfirmation, idempotencyKey?: KeyRef): Promise<ConfirmOutcome> {
    const text = confirmationJson(c.data);
    const stored: Stored = { text, hash: sha256(text) };
    if (!idempotencyKey) return { answer: await this.writes.run(confirmOrderWrite, { c, stored }), replayed: false };
    const claim = await this.#keys.claim(idempotencyKey, CONFIRM_OPERATION, sha256(`${c.orderId}\n${stored.hash}`));
    if (claim.kind === 'replay') return { answer: answerFromStored(claim.body), replayed: true };
    const key: HeldKey = { ref: idempotencyKey, at: claim.at };
    try {
      return { answer: await this.writes.run(confirmOrderWrite, { c, stored, key }), replayed: false };
    } catch (err) {
      // Only answers are replayed: a failed request frees its key, so that its retry runs again
      // (if the store cannot even do that, the key's lease runs out instead).
      await this.#keys.release(key).catch(() => undefined);
      throw err;
    }
  }
}
