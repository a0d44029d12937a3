import { auditOperations } from './audit/audit.operations.js';
import { keyOperations } from './keys/key.operations.js';
import { customerOperations } from './customers/customer.operations.js';
import { customFieldOperations } from './customfields/customfield.operations.js';
import { eventOperations } from './events/event.operations.js';
import { orderOperations } from './orders/order.operations.js';
import type { Config } from './config.js';
import { privacyOperations } from './privacy/privacy.operations.js';
import type { Store } from './store/store.js';
import type { AnyOperation } from './wire/operation.js';
import { webhookOperations } from './webhooks/webhook.operations.js';
import type { WriteDoor } from './writes/write-door.js';

/** The operation table: every operation of the service, spec and operator alike. */
export function allOperations(store: Store, writes: WriteDoor, config: Pick<Config, 'webhook'>): AnyOperation[] {
  return [...customerOperations(store, writes), ...orderOperations(store, writes), ...customFieldOperations(store, writes), ...auditOperations(store), ...eventOperations(store), ...webhookOperations(store, writes, config.webhook), ...privacyOperations(store, writes), ...keyOperations(store, writes)];
}
