import { auditOperations } from './audit/audit.operations.js';
import { customerOperations } from './customers/customer.operations.js';
import { customFieldOperations } from './customfields/customfield.operations.js';
import { orderOperations } from './orders/order.operations.js';
import type { Store } from './store/store.js';
import type { AnyOperation } from './wire/operation.js';
import type { WriteDoor } from './writes/write-door.js';

/** The operation table: every operation of the service, spec and operator alike. */
export function allOperations(store: Store, writes: WriteDoor): AnyOperation[] {
  return [...customerOperations(store, writes), ...orderOperations(store, writes), ...customFieldOperations(store, writes), ...auditOperations(store)];
}
