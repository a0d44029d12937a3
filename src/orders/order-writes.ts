import type { Store } from '../store/store.js';
import { sqliteMainFile } from './order.repository.js';
import { WriteThread } from './write-thread.js';
import { Writer, type Writes } from './writer.js';

/**
 * Where the queued writes (orders, custom-field values) run. PostgreSQL: in this thread (its driver
 * is asynchronous). A SQLite file: in a write thread of its own, so that waiting for the disk does
 * not stall HTTP (see write-thread.ts). Which one is decided on the first write, when the store is
 * surely open. One per store: its writes share one queue, and on SQLite one writer.
 */
export function openWrites(store: Store): Writes {
  let target: Promise<Writes> | undefined;
  const get = (): Promise<Writes> =>
    (target ??= store.dialect === 'postgres' ? Promise.resolve(new Writer(store)) : sqliteMainFile(store.db).then(
      (file) => (file === '' ? new Writer(store) : new WriteThread(file)),
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
    writeCustomFields: async (...args) => (await get()).writeCustomFields(...args),
  };
}
