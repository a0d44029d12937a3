import { randomBytes } from 'node:crypto';
import type { Transaction } from 'kysely';
import { duplicateOrderNumber, orderNotFound } from '../errors.js';
import type { Database } from '../store/database.js';
import type { Store } from '../store/store.js';
import { isUniqueViolation } from '../store/unique-violation.js';
import { ConfirmationService, type ConfirmOutcome } from './confirmation.service.js';
import { RetryWork, type GroupCommit } from './group-commit.js';
import { IdempotencyKeys, type KeyRef } from './idempotency.js';
import { orderRepository, type StoredOrder } from './order.repository.js';
import type { CreateOrderRequest } from './order.schemas.js';
import type { ValidConfirmation } from './order.validation.js';

/** A generated order number: `ORD-` and the order id, at least six digits. */
export const generatedOrderNumber = (orderId: number): string => `ORD-${String(orderId).padStart(6, '0')}`;

export interface CreatedOrder {
  readonly OrderId: number;
  readonly OrderNumber: string;
  readonly Status: 'Open';
}

async function insertOrder(trx: Transaction<Database>, req: CreateOrderRequest): Promise<CreatedOrder> {
  const given = req.OrderNumber === undefined || req.OrderNumber === '' ? undefined : req.OrderNumber;
  const now = Date.now();
  if (given !== undefined) {
    if (await orderRepository.orderNumberTaken(trx, given)) throw duplicateOrderNumber();
    try {
      return { OrderId: await orderRepository.insert(trx, { order_number: given, note: req.Note ?? null, created_at: now }), OrderNumber: given, Status: 'Open' };
    } catch (err) {
      if (isUniqueViolation(err)) throw duplicateOrderNumber();
      throw err;
    }
  }
  // The number derives from the id, known only after the insert; a placeholder holds the place.
  const orderId = await orderRepository.insert(trx, { order_number: `tmp-${randomBytes(12).toString('hex')}`, note: req.Note ?? null, created_at: now });
  let orderNumber = generatedOrderNumber(orderId);
  // An operator may have chosen this number by hand before: then add a suffix.
  for (let n = 2; await orderRepository.orderNumberTaken(trx, orderNumber); n++) orderNumber = `${generatedOrderNumber(orderId)}-${n}`;
  try {
    await orderRepository.setOrderNumber(trx, orderId, orderNumber);
  } catch (err) {
    if (isUniqueViolation(err)) throw new RetryWork('order number taken meanwhile');
    throw err;
  }
  return { OrderId: orderId, OrderNumber: orderNumber, Status: 'Open' };
}

/** The writes of the order module; `openWrites` picks where they run (see order-writes.ts). */
export interface OrderWrites {
  confirm(c: ValidConfirmation, idempotencyKey?: KeyRef): Promise<ConfirmOutcome>;
  create(req: CreateOrderRequest): Promise<CreatedOrder>;
  cancel(orderId: number): Promise<StoredOrder>;
}

/** The order writes, as units of work of a group-commit queue (shared with other writes, see writer.ts). */
export class OrderWriter implements OrderWrites {
  readonly #commits: GroupCommit;
  readonly #confirmations: ConfirmationService;

  constructor(commits: GroupCommit) {
    this.#commits = commits;
    this.#confirmations = new ConfirmationService(this.#commits, new IdempotencyKeys(this.#commits));
  }

  confirm(c: ValidConfirmation, idempotencyKey?: KeyRef): Promise<ConfirmOutcome> {
    return this.#confirmations.confirm(c, idempotencyKey);
  }

  create(req: CreateOrderRequest): Promise<CreatedOrder> {
    return this.#commits.run((trx) => insertOrder(trx, req));
  }

  /** Open or confirmed → cancelled; cancelling a cancelled order again changes nothing. */
  cancel(orderId: number): Promise<StoredOrder> {
    return this.#commits.run(async (trx) => {
      await orderRepository.markCancelled(trx, orderId, Date.now());
      const order = await orderRepository.find(trx, orderId);
      if (!order) throw orderNotFound(orderId);
      return order;
    });
  }
}

/** Reads an order (from the read connection: committed data only). */
export async function getOrder(store: Store, orderId: number): Promise<StoredOrder> {
  const order = await orderRepository.find(store.reader, orderId);
  if (!order) throw orderNotFound(orderId);
  return order;
}
