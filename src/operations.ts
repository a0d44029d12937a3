import { customerOperations } from './customers/customer.operations.js';
import { customFieldOperations } from './customfields/customfield.operations.js';
import { openWrites } from './orders/order-writes.js';
import { orderOperations } from './orders/order.operations.js';
import type { Store } from './store/store.js';
import type { AnyOperation } from './wire/operation.js';

/** The operation table: every operation of the service, spec and operator alike. */
export function allOperations(store: Store): AnyOperation[] {
  // One queue of writes for both modules: on SQLite one writer thread, on either one commit per group.
  const writes = openWrites(store);
  return [...customerOperations(store), ...orderOperations(store, writes), ...customFieldOperations(store, writes)];
}
