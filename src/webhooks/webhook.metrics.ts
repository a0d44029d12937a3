import { Counter, Gauge, type Registry } from 'prom-client';
import type { Store } from '../store/store.js';
import { webhookRepository } from './webhook.repository.js';

/** What the dispatcher counts. */
export interface WebhookMetrics {
  attempt(status: 'Delivered' | 'Failed' | 'Dead', durationMs: number): void;
}

/**
 * Webhook metrics on the service's registry: attempts by result (Delivered, Failed: to be retried,
 * Dead: the schedule ran out) and the age of the oldest event still waiting for delivery, read
 * from the store when scraped (the same for every worker: aggregated as the maximum).
 */
export function registerWebhookMetrics(registry: Registry, store: Store): WebhookMetrics {
  const attempts = new Counter({
    name: 'ordergate_webhook_attempts_total',
    help: 'Webhook delivery attempts by result (Delivered, Failed: retried later, Dead: no attempt left)',
    labelNames: ['result'] as const,
    registers: [registry],
  });
  const seconds = new Counter({
    name: 'ordergate_webhook_attempt_seconds_total',
    help: 'Time spent in webhook delivery attempts',
    registers: [registry],
  });
  new Gauge({
    name: 'ordergate_webhook_oldest_undelivered_event_age_seconds',
    help: 'Age of the oldest event waiting for a webhook delivery (0: none waiting)',
    registers: [registry],
    aggregator: 'max',
    async collect() {
      const oldest = await webhookRepository.oldestUndelivered(store.reader).catch(() => undefined);
      this.set(oldest === undefined ? 0 : Math.max(0, (Date.now() - oldest) / 1000));
    },
  });
  return {
    attempt(status, durationMs) {
      attempts.inc({ result: status });
      seconds.inc(durationMs / 1000);
    },
  };
}
