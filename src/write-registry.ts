import { auditWrites } from './audit/audit.service.js';
import { keyWrites } from './auth/key-service.js';
import { keyApiWrites } from './keys/key.writes.js';
import { customerWrites } from './customers/customer.writes.js';
import { customerRepository } from './customers/customer.repository.js';
import { eventWrites } from './events/event.service.js';
import { outbox } from './events/outbox.js';
import { privacyWrites } from './privacy/erasure.js';
import { definitionWrites } from './customfields/customfield.definitions.js';
import { writeValuesWrite } from './customfields/customfield.writes.js';
import { webhookWrites } from './webhooks/webhook.writes.js';
import { orderRepository } from './orders/order.repository.js';
import { orderWrites } from './orders/order.writes.js';
import type { WriteRegistry } from './writes/unit.js';

/**
 * This module's URL for the write thread. In dist/bin/ (scripts/bundle.mjs) its code sits in a shared
 * chunk, whose exports are renamed; the entry point of the same name beside it exports
 * `writeRegistry` by name. Compiled by tsc that entry is this file; run from sources, it is too.
 */
const registryUrl = import.meta.url.endsWith('.ts') ? import.meta.url : new URL('./write-registry.js', import.meta.url).href;

/**
 * Every write of the service, for the write door (src/writes/): adding a write is a command in its
 * module and one entry here. A write thread loads this module by its URL to know the same list.
 */
export const writeRegistry: WriteRegistry = {
  module: registryUrl,
  commands: [...customerWrites, ...orderWrites, writeValuesWrite, ...definitionWrites, ...keyWrites, ...keyApiWrites, ...auditWrites, ...eventWrites, ...webhookWrites, ...privacyWrites],
  stampers: { customer: customerRepository.touch, order: orderRepository.touch },
  outbox,
};
