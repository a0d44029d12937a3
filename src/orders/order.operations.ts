import type { Store } from '../store/store.js';
import type { AnyOperation } from '../wire/operation.js';

/** The order operations (ConfirmOrder and the operator's order routes). */
export function orderOperations(_store: Store): AnyOperation[] {
  return [];
}
