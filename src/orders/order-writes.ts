import type { Store } from '../store/store.js';
import { sqliteMainFile } from './order.repository.js';
import { OrderWriter, type OrderWrites } from './order.service.js';
import { WriteThread } from './write-thread.js';

/**
 * Where the order writes run. PostgreSQL: in this thread (its driver is asynchronous). A SQLite
 * file: in a write thread of its own, so that waiting for the disk does not stall HTTP (see
 * write-thread.ts). Which one is decided on the first write, when the store is surely open.
 */
export function openOrderWrites(store: Store): OrderWrites {
  let target: Promise<OrderWrites> | undefined;
  const get = (): Promise<OrderWrites> =>
    (target ??= store.dialect === 'postgres' ? Promise.resolve(new OrderWriter(store)) : sqliteMainFile(store.db).then(
      (file) => (file === '' ? new OrderWriter(store) : new WriteThread(file)),
      (err: unknown) => {
        target = undefined; // try again on the next write
        throw err;
      },
    ));
  // Nothing is opened before the first write: building the operation table stays free of effects.
  return {
    confirm: async (...args) => (await get()).confirm(...args),
    create: async (...args) => (await get()).create(...args),
    cancel: async (...args) => (await get()).cancel(...args),
  };
}
