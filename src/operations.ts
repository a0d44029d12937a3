import { customerOperations } from './customers/customer.operations.js';
import { customFieldOperations } from './customfields/customfield.operations.js';
import { orderOperations } from './orders/order.operations.js';
import type { Store } from './store/store.js';
import type { AnyOperation } from './wire/operation.js';

/** The operation table: every operation of the service, spec and operator alike. */
export function allOperations(store: Store): AnyOperation[] {
  return [...customerOperations(store), ...orderOperations(store), ...customFieldOperations(store)];
}
