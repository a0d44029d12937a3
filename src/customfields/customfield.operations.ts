import type { Store } from '../store/store.js';
import type { AnyOperation } from '../wire/operation.js';

/** The custom-field operations (GetCustomerCustomFields, writes and definitions). */
export function customFieldOperations(_store: Store): AnyOperation[] {
  return [];
}
