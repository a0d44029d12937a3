/** Webhooks as the rest of the service sees them: endpoints, their operations and writes, delivery, and the events' retention. */
export { startEventRetention } from './event-retention.js';
export { WebhookDispatcher } from './webhook-dispatcher.js';
export { registerWebhookMetrics } from './webhook-metrics.js';
export { webhookOperations } from './webhook.operations.js';
export { createEndpoint, deleteEndpoint, listEndpoints, replay } from './webhook.service.js';
export { webhookWrites } from './webhook.writes.js';
