/** Webhooks as the rest of the service sees them: endpoints, their operations and writes, delivery, and the events' retention. */
export { webhookOperations } from './webhook.operations.js';
export { sendTestEvent, WEBHOOK_TEST_EVENT } from './webhook.test-event.js';
export { createEndpoint, deleteEndpoint, getEndpoint, listEndpoints, replay } from './webhook.service.js';
export { webhookWrites } from './webhook.writes.js';
export { webhookDelivery } from './webhook.delivery.js';
