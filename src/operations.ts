import { auditOperations } from './audit/index.js';
import { keyOperations } from './keys/index.js';
import { customerOperations } from './customers/index.js';
import { customFieldOperations } from './customfields/index.js';
import { eventOperations } from './events/index.js';
import { orderLifeOperations, orderOperations, orderShipmentOperations } from './orders/index.js';
import type { Config } from './config.js';
import { privacyOperations } from './privacy/index.js';
import type { Store } from './store/store.js';
import type { AnyOperation } from './wire/operation.js';
import { webhookOperations } from './webhooks/index.js';
import type { WriteDoor } from './writes/write-door.js';

/** The operation table: every operation of the service, spec and operator alike. */
export function allOperations(
  store: Store,
  writes: WriteDoor,
  config: Pick<Config, 'webhook' | 'jsonCasing' | 'dateFormat' | 'defaultCurrency'>,
): AnyOperation[] {
  const webhookSettings = { ...config.webhook, casing: config.jsonCasing, dateStyle: config.dateFormat };
  return [
    ...customerOperations(store, writes),
    ...orderOperations(store, writes, config.defaultCurrency),
    ...orderLifeOperations(store, writes),
    ...orderShipmentOperations(store, writes),
    ...customFieldOperations(store, writes),
    ...auditOperations(store),
    ...eventOperations(store),
    ...webhookOperations(store, writes, webhookSettings),
    ...privacyOperations(store, writes),
    ...keyOperations(store, writes),
  ];
}
