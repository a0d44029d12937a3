import { auditWrites } from './audit/index.js';
import { keyWrites } from './auth/index.js';
import { keyApiWrites } from './keys/index.js';
import { customerEventSource, customerWrites, stampCustomers } from './customers/index.js';
import { createOutbox, eventWrites } from './events/index.js';
import { privacyWrites } from './privacy/index.js';
import { definitionWrites, writeValuesWrite } from './customfields/index.js';
import { webhookWrites } from './webhooks/index.js';
import { orderEventSource, orderWrites, stampOrders } from './orders/index.js';
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
  commands: [
    ...customerWrites,
    ...orderWrites,
    writeValuesWrite,
    ...definitionWrites,
    ...keyWrites,
    ...keyApiWrites,
    ...auditWrites,
    ...eventWrites,
    ...webhookWrites,
    ...privacyWrites,
  ],
  stampers: { customer: stampCustomers, order: stampOrders },
  outbox: createOutbox({ order: orderEventSource, customer: customerEventSource }),
};
