import { customerRepository } from '../customers/customer.repository.js';
import { customFieldWork, type CustomFieldWrites, type WriteEntry, type WriteOptions, type WrittenFields } from '../customfields/customfield.writes.js';
import type { Store } from '../store/store.js';
import { nextStamp } from '../store/sync-clock.js';
import type { ConfirmOutcome } from './confirmation.service.js';
import { GroupCommit } from './group-commit.js';
import type { KeyRef } from './idempotency.js';
import type { StoredOrder } from './order.repository.js';
import type { CreateOrderRequest } from './order.schemas.js';
import { OrderWriter, type CreatedOrder, type OrderWrites } from './order.service.js';
import type { ValidConfirmation } from './order.validation.js';

/** Every write that goes through the group-commit queue; `openWrites` picks where they run. */
export interface Writes extends OrderWrites, CustomFieldWrites {}

/**
 * A group-commit queue whose transactions stamp the customers their units touched, once, after
 * every unit has written its rows (the lock order of store/sync-clock.ts).
 */
export function customerCommits(store: Store): GroupCommit {
  return new GroupCommit(store, {
    // PostgreSQL writes over a network round trip per statement: a few transactions in flight
    // keep the connection pool busy; SQLite has a single writer.
    concurrency: store.dialect === 'postgres' ? 2 : 1,
    finish: async (trx, touched) => {
      if (touched.size === 0) return;
      const stamp = await nextStamp(store.dialect, trx);
      await customerRepository.touch(trx, [...touched], stamp);
    },
  });
}

/** The writes over one store, all in one queue, so that one transaction carries whatever arrived together. */
export class Writer implements Writes {
  readonly #commits: GroupCommit;
  readonly #orders: OrderWriter;

  constructor(private readonly store: Store) {
    this.#commits = customerCommits(store);
    this.#orders = new OrderWriter(this.#commits);
  }

  confirm(c: ValidConfirmation, idempotencyKey?: KeyRef): Promise<ConfirmOutcome> {
    return this.#orders.confirm(c, idempotencyKey);
  }

  create(req: CreateOrderRequest): Promise<CreatedOrder> {
    return this.#orders.create(req);
  }

  cancel(orderId: number): Promise<StoredOrder> {
    return this.#orders.cancel(orderId);
  }

  writeCustomFields(customerId: string, entries: readonly WriteEntry[], opts: WriteOptions): Promise<WrittenFields> {
    return this.#commits.run(customFieldWork(this.store.dialect, customerId, entries, opts));
  }
}
