import fp from 'fastify-plugin';
import type { Store } from '../store/store.js';
import { startEventRetention } from './webhook.event-retention.js';
import { WebhookDispatcher, type DispatcherSettings } from './webhook.dispatcher.js';

export interface WebhookDeliveryOptions {
  readonly store: Store;
  readonly settings: DispatcherSettings;
  readonly eventRetentionDays: number;
}

/**
 * Every instance delivers webhooks (making way while the API is saturated) and purges old events,
 * from when the app is ready until it closes; both stop before the write door closes (plugins close
 * in the reverse order of their registration, and this one needs the door).
 */
export const webhookDelivery = fp(
  async (app, { store, settings, eventRetentionDays }: WebhookDeliveryOptions) => {
    // Loaded with the server only: the CLI's commands reach this module through the write registry,
    // and a command that starts no server should not pay for loading the metrics client.
    const { registerWebhookMetrics } = await import('./webhook.metrics.js');
    const dispatcher = new WebhookDispatcher(
      store,
      app.writes,
      settings,
      registerWebhookMetrics(app.metrics.registry, store),
      app.log,
      app.apiLoad,
    );
    let stopRetention: (() => Promise<void>) | undefined;
    app.addHook('onReady', async () => {
      dispatcher.start();
      stopRetention = startEventRetention(store, app.writes, eventRetentionDays, app.log);
    });
    app.addHook('onClose', async () => {
      await dispatcher.stop();
      await stopRetention?.();
    });
  },
  { name: 'webhook-delivery', dependencies: ['write-door', 'metrics', 'api-load'] },
);
