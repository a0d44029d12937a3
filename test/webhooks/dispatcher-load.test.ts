import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { Registry } from 'prom-client';
import { pino } from 'pino';
import { WebhookDispatcher } from '../../src/webhooks/webhook.dispatcher.js';
import { registerWebhookMetrics } from '../../src/webhooks/webhook.metrics.js';
import { describeEachBackend } from '../helpers/test-app.js';
import { createOrder } from '../orders/order-fixtures.js';
import { Receiver } from './receiver.js';

/**
 * The app's own dispatcher sleeps (a long poll, and nothing to deliver at its first round); a
 * dispatcher made here on the same store and door is told whether the API is saturated.
 */
const ENV = { WEBHOOK_ALLOW_PRIVATE: 'true', WEBHOOK_POLL_MS: '60000', WEBHOOK_TIMEOUT_MS: '20000' };
const EVENTS = 40;

async function until(what: string, probe: () => boolean, ms = 10_000): Promise<void> {
  for (const end = Date.now() + ms; !probe();) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

describeEachBackend(
  'webhook delivery makes way for a saturated API',
  (t) => {
    let receiver: Receiver;
    before(async () => {
      receiver = await Receiver.start();
    });
    after(() => receiver.close());

    test('saturated: a trickle of at most 8 attempts at a time; then up to 16 per endpoint, and every event arrives', async () => {
      let open = 0;
      let most = 0;
      const held: Array<() => void> = [];
      receiver.answer = (_req, res) =>
        new Promise<void>((resolve) => {
          most = Math.max(most, ++open);
          held.push(() => {
            open--;
            res.end('ok');
            resolve();
          });
        });
      const created = await t().inject({
        method: 'POST',
        url: '/webhooks',
        payload: { Url: receiver.url, Events: ['order.created'], Description: 'load' },
      });
      assert.equal(created.statusCode, 201, created.body);
      for (let i = 0; i < EVENTS; i++) await createOrder(t());

      const load = { saturated: true };
      const c = t().config;
      const dispatcher = new WebhookDispatcher(
        t().store,
        t().app.writes,
        { ...c.webhook, casing: c.jsonCasing, dateStyle: c.dateFormat },
        registerWebhookMetrics(new Registry(), t().store),
        pino({ level: 'silent' }),
        load,
      );
      dispatcher.start();
      try {
        await until('a first attempt while saturated', () => open > 0);
        await new Promise((r) => setTimeout(r, 400));
        assert.ok(most <= 8, `${most} attempts at once while saturated`);
        // Answering lets the trickle go on, still 8 at most.
        while (held.length > 0) held.shift()!();
        await until('more attempts while saturated', () => open > 0);
        await new Promise((r) => setTimeout(r, 200));
        assert.ok(most <= 8, `${most} attempts at once while saturated`);

        load.saturated = false;
        await until('16 attempts at once', () => open === 16);
        for (;;) {
          while (held.length > 0) held.shift()!();
          if (new Set(receiver.received.map((r) => r.headers['webhook-id'])).size === EVENTS) break;
          await new Promise((r) => setTimeout(r, 10));
        }
        assert.equal(most, 16);
      } finally {
        receiver.answer = (_req, res) => void res.end('ok');
        while (held.length > 0) held.shift()!();
        await dispatcher.stop();
      }
    });
  },
  ENV,
);
