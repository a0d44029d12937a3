import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { confirm } from './orders.js';
import { call, describe, isMissingRoute, notAvailable, type Scenario, type ScenarioContext, type ScenarioResult } from './scenario.js';

/** A receiver as fast as a receiver can be: counts deliveries by webhook-id, answers 204 at once. */
interface FastReceiver {
  readonly url: string;
  readonly seen: Set<string>;
  close(): Promise<void>;
}

async function fastReceiver(): Promise<FastReceiver> {
  const seen = new Set<string>();
  const server: Server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      seen.add(String(req.headers['webhook-id']));
      res.writeHead(204).end();
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    seen,
    async close() {
      server.closeAllConnections();
      server.close();
    },
  };
}

/** Registers an endpoint for the duration of `fn`, then removes it (later scenarios run without it). */
async function withEndpoint<T>(
  ctx: ScenarioContext,
  url: string,
  events: string[],
  fn: (id: string) => Promise<T>,
): Promise<T | ScenarioResult> {
  const created = await call(ctx.server, 'POST', '/webhooks', { Url: url, Events: events, Description: 'bench' });
  if (isMissingRoute(created)) return notAvailable('webhooks');
  if (created.status !== 201) return { status: 'failed', note: `register: ${describe(created)}` };
  const id = (created.body as { Id: string }).Id;
  try {
    return await fn(id);
  } finally {
    await call(ctx.server, 'DELETE', `/webhooks/${id}`);
  }
}

const BACKLOG_LIMIT_MS = 120_000;

/** Waits until no event waits for delivery (the dispatcher's gauge); answers the seconds it took. */
async function backlogDelivered(ctx: ScenarioContext): Promise<number | undefined> {
  const started = performance.now();
  while (performance.now() - started < BACKLOG_LIMIT_MS) {
    const metrics = await call(ctx.server, 'GET', '/metrics');
    const age = /^ordergate_webhook_oldest_undelivered_event_age_seconds\S* (\S+)$/m.exec(String(metrics.body))?.[1];
    if (age !== undefined && Number(age) === 0) return (performance.now() - started) / 1000;
    await new Promise((r) => setTimeout(r, 50));
  }
  return undefined;
}

/**
 * The confirmation load again, with one endpoint receiving every event it makes. While the API is
 * saturated the dispatcher only trickles (docs/events.md): what it held back is timed after the load.
 */
export const confirmWithWebhook: Scenario = {
  id: 'confirm-webhook',
  label: 'order confirmation, one webhook endpoint receiving every event',
  async run(ctx) {
    const receiver = await fastReceiver();
    try {
      const result = await withEndpoint(ctx, receiver.url, [], async () => {
        const confirmed = await confirm.run(ctx);
        const during = receiver.seen.size;
        const seconds = await backlogDelivered(ctx);
        return { confirmed, during, seconds };
      });
      if (!('confirmed' in result)) return result;
      const { confirmed, during, seconds } = result;
      // backlogSeconds is left out when the backlog was not delivered within BACKLOG_LIMIT_MS.
      return {
        ...confirmed,
        extra: { delivered: during, afterLoad: receiver.seen.size - during, ...(seconds === undefined ? {} : { backlogSeconds: seconds }) },
      };
    } finally {
      await receiver.close();
    }
  },
};

const DELIVERY_LIMIT_MS = 120_000;
const DELIVERED_EVENTS = 5000;
const IDS_PER_REPLAY = 1000;

/**
 * Delivery throughput: DELIVERED_EVENTS of the confirmations the earlier scenarios made, replayed
 * by id to a new endpoint at once, timed until the receiver has every one.
 */
export const webhookDelivery: Scenario = {
  id: 'webhook-delivery',
  label: 'webhook delivery to a local receiver (replay of the run’s confirmations)',
  async run(ctx) {
    const events = await call(ctx.server, 'GET', `/events/?Types=order.confirmed&Take=${DELIVERED_EVENTS}`);
    if (isMissingRoute(events)) return notAvailable('GetEvents');
    const ids = (events.body as Array<{ Id: string }>).map((e) => e.Id);
    if (ids.length === 0) return { status: 'failed', note: 'no events to deliver (run the confirm scenario first)' };
    const receiver = await fastReceiver();
    try {
      return (await withEndpoint(ctx, receiver.url, ['order.confirmed'], async (id): Promise<ScenarioResult> => {
        const started = performance.now();
        for (let i = 0; i < ids.length; i += IDS_PER_REPLAY) {
          const replay = await call(ctx.server, 'POST', `/webhooks/${id}/replay`, { EventIds: ids.slice(i, i + IDS_PER_REPLAY) });
          if (replay.status !== 202) return { status: 'failed', note: `replay: ${describe(replay)}` };
        }
        while (receiver.seen.size < ids.length) {
          if (performance.now() - started > DELIVERY_LIMIT_MS)
            return { status: 'failed', note: `${receiver.seen.size} of ${ids.length} delivered in ${DELIVERY_LIMIT_MS / 1000} s` };
          await new Promise((r) => setTimeout(r, 10));
        }
        const seconds = (performance.now() - started) / 1000;
        return { status: 'ok', extra: { eventsPerSec: ids.length / seconds, events: ids.length } };
      })) as ScenarioResult;
    } finally {
      await receiver.close();
    }
  },
};

export const webhookScenarios: readonly Scenario[] = [confirmWithWebhook, webhookDelivery];
