import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { Webhook } from 'standardwebhooks';
import { errorOf } from '../customfields/cf-helpers.js';
import { bearer, describeEachBackend, json, type TestApp } from '../helpers/test-app.js';
import { createOrder } from '../orders/order-fixtures.js';
import { Receiver, type Received } from './receiver.js';
import { createEndpoint } from '../../src/webhooks/webhook.service.js';

const TIMEOUT_MS = 500;
const ENV = { WEBHOOK_ALLOW_PRIVATE: 'true', WEBHOOK_POLL_MS: '50', WEBHOOK_RETRY_SCHEDULE: '1,1', WEBHOOK_TIMEOUT_MS: String(TIMEOUT_MS) };

interface Delivery {
  EventId: string;
  Attempt: number;
  Status: string;
  ResponseCode: number | null;
  DurationMs: number | null;
  At: string | null;
  NextAttemptAt: string | null;
  Error: string | null;
}

async function register(t: TestApp, url: string, events: string[] = []): Promise<{ Id: string; Secret: string }> {
  const res = await t.inject({ method: 'POST', url: '/webhooks', payload: { Url: url, Events: events, Description: 'test' } });
  assert.equal(res.statusCode, 201, res.body);
  return json(res);
}

async function sendTest(t: TestApp, id: string): Promise<Delivery> {
  const res = await t.inject({ method: 'POST', url: `/webhooks/${id}/test` });
  assert.equal(res.statusCode, 202, res.body);
  return json(res);
}

async function deliveries(t: TestApp, id: string): Promise<Delivery[]> {
  const res = await t.inject(`/webhooks/${id}/deliveries`);
  assert.equal(res.statusCode, 200, res.body);
  return json(res);
}

async function eventually<T>(what: string, probe: () => Promise<T | undefined>, ms = 15_000): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const got = await probe();
    if (got !== undefined) return got;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** A URL on 127.0.0.1 where nothing listens (a receiver's port, closed again). */
async function closedUrl(): Promise<string> {
  const r = await Receiver.start();
  await r.close();
  return r.url;
}

const headersOf = (r: Received): Record<string, string> => ({
  'webhook-id': String(r.headers['webhook-id']),
  'webhook-timestamp': String(r.headers['webhook-timestamp']),
  'webhook-signature': String(r.headers['webhook-signature']),
});

/** The first delivery of an order event that failed, once the dispatcher has attempted it. */
const firstFailure = (t: TestApp, id: string): Promise<Delivery> =>
  eventually('a failed attempt', async () => (await deliveries(t, id)).find((d) => d.Status === 'Failed' && d.At !== null));

describeEachBackend(
  'webhook test events and the reasons of failed attempts',
  (t) => {
    let receiver: Receiver;
    before(async () => {
      receiver = await Receiver.start();
    });
    after(() => receiver.close());

    test('POST /webhooks/{Id}/test: 202 with the attempt; the receiver gets a signed webhook.test event at once; it shows in the deliveries list', async () => {
      const endpoint = await register(t(), receiver.url, ['order.cancelled']);
      const from = receiver.received.length;
      const sent = await sendTest(t(), endpoint.Id);
      // Sent before the answer: no waiting for a dispatcher round.
      assert.equal(receiver.received.length, from + 1);
      const got = receiver.received[from]!;
      new Webhook(endpoint.Secret).verify(got.body, headersOf(got));
      const event = JSON.parse(got.body);
      assert.deepEqual(Object.keys(event), ['Id', 'Type', 'Sequence', 'OccurredAt', 'Data']);
      assert.equal(event.Type, 'webhook.test');
      assert.equal(event.Sequence, 0);
      assert.match(event.OccurredAt, /^\/Date\(\d+-0000\)\/$/);
      assert.deepEqual(event.Data, { WebhookId: endpoint.Id, Url: receiver.url });
      assert.equal(got.headers['webhook-id'], event.Id);
      assert.match(event.Id, /^evt_[0-9a-f]{32}$/);
      assert.deepEqual(
        { ...sent, DurationMs: typeof sent.DurationMs, At: typeof sent.At },
        {
          EventId: event.Id,
          Attempt: 1,
          Status: 'Delivered',
          ResponseCode: 200,
          DurationMs: 'number',
          At: 'string',
          NextAttemptAt: null,
          Error: null,
        },
      );
      assert.deepEqual((await deliveries(t(), endpoint.Id))[0], sent);
    });

    test('a test event is not in the pull feed and reaches no other endpoint; the endpoints go on receiving the real events', async () => {
      const other = await Receiver.start();
      const target = await register(t(), receiver.url, []);
      const bystander = await register(t(), other.url, []);
      const sent = await sendTest(t(), target.Id);
      const orderId = await createOrder(t());
      const [first] = await other.waitFor(1);
      assert.equal(JSON.parse(first!.body).Type, 'order.created');
      assert.equal(JSON.parse(first!.body).Data.OrderId, orderId);
      await eventually('the order event at the tested endpoint', async () =>
        receiver.received.some((r) => JSON.parse(r.body).Data?.OrderId === orderId) ? true : undefined,
      );
      assert.ok(!other.received.some((r) => JSON.parse(r.body).Type === 'webhook.test'));
      const feed: Array<{ Id: string; Type: string }> = json(await t().inject('/events/?Take=10000'));
      assert.ok(feed.length > 0);
      assert.ok(!feed.some((e) => e.Id === sent.EventId || e.Type === 'webhook.test'));
      assert.ok(!(await deliveries(t(), bystander.Id)).some((d) => d.EventId === sent.EventId));
      await other.close();
    });

    test('a disabled endpoint can be tested (before it is switched on); its state does not change', async () => {
      const endpoint = await register(t(), receiver.url, []);
      assert.equal((await t().inject({ method: 'PUT', url: `/webhooks/${endpoint.Id}`, payload: { Enabled: false } })).statusCode, 200);
      assert.equal((await sendTest(t(), endpoint.Id)).Status, 'Delivered');
      assert.equal(json(await t().inject(`/webhooks/${endpoint.Id}`)).Enabled, false);
    });

    test('a failed test attempt: 202 all the same, Status Failed with the reason in Error, never retried', async () => {
      const answering500 = await Receiver.start();
      answering500.answer = (_req, res) => {
        res.statusCode = 500;
        res.end('boom');
      };
      const refused = await register(t(), await closedUrl());
      const sent = await sendTest(t(), refused.Id);
      assert.deepEqual([sent.Status, sent.ResponseCode, sent.NextAttemptAt, sent.Error], ['Failed', null, null, 'connection refused']);
      const failing = await register(t(), answering500.url);
      const answered = await sendTest(t(), failing.Id);
      assert.deepEqual([answered.Status, answered.ResponseCode, answered.Error], ['Failed', 500, 'the receiver answered 500']);
      await new Promise((r) => setTimeout(r, 1500)); // past the first retry of the schedule (1 s)
      assert.equal(answering500.received.length, 1);
      assert.deepEqual(await deliveries(t(), refused.Id), [sent]);
      await answering500.close();
    });

    test('deliveries of events: a closed port shows "connection refused", a receiver past WEBHOOK_TIMEOUT_MS the timeout, a success null', async () => {
      const stuck = await Receiver.start();
      stuck.answer = () => undefined;
      const refused = await register(t(), await closedUrl(), ['order.created']);
      const slow = await register(t(), stuck.url, ['order.created']);
      const fine = await register(t(), receiver.url, ['order.created']);
      await createOrder(t());
      const failure = await firstFailure(t(), refused.Id);
      assert.deepEqual([failure.Attempt, failure.ResponseCode, failure.Error], [1, null, 'connection refused']);
      assert.notEqual(failure.NextAttemptAt, null);
      const timedOut = await firstFailure(t(), slow.Id);
      assert.deepEqual([timedOut.ResponseCode, timedOut.Error], [null, `timeout after ${TIMEOUT_MS} ms`]);
      const delivered = await eventually('a delivery', async () => (await deliveries(t(), fine.Id)).find((d) => d.Status === 'Delivered'));
      assert.equal(delivered.Error, null);
      // Waiting deliveries carry no reason of their own: the attempt before them does.
      const pending = (await deliveries(t(), refused.Id)).filter((d) => d.Status === 'Pending');
      assert.ok(pending.every((d) => d.Error === null));
      for (const id of [refused.Id, slow.Id, fine.Id])
        assert.equal((await t().inject({ method: 'DELETE', url: `/webhooks/${id}` })).statusCode, 204);
      await stuck.close();
    });

    test('an unknown endpoint → 404; permission admin; a bad Id → 400', async () => {
      const err = errorOf(await t().inject({ method: 'POST', url: '/webhooks/wh_000000000000000000000000/test' }), 404);
      assert.equal(err.ErrorCode, 'NotFound');
      const endpoint = await register(t(), receiver.url);
      const from = receiver.received.length;
      assert.equal(
        (await t().inject({ method: 'POST', url: `/webhooks/${endpoint.Id}/test`, headers: bearer(t().keys.all) })).statusCode,
        403,
      );
      assert.equal((await t().inject({ method: 'POST', url: `/webhooks/${'x'.repeat(101)}/test` })).statusCode, 400);
      assert.equal(receiver.received.length, from);
      const viaApi = await t().inject({ method: 'POST', url: '/api/TestWebhook', payload: { Id: endpoint.Id } });
      assert.equal(viaApi.statusCode, 202, viaApi.body);
    });
  },
  ENV,
  { pgbouncer: true },
);

describeEachBackend(
  'webhooks without WEBHOOK_ALLOW_PRIVATE',
  (t) => {
    test('a private URL is refused: 400 ForbiddenUrl on Url, naming WEBHOOK_ALLOW_PRIVATE', async () => {
      for (const url of ['http://127.0.0.1:3000/hook', 'http://10.1.2.3/hook', 'http://localhost:3000/hook']) {
        const err = errorOf(await t().inject({ method: 'POST', url: '/webhooks', payload: { Url: url } }), 400);
        assert.equal(err.ErrorCode, 'ForbiddenUrl', url);
        assert.deepEqual(
          err.Errors.map((e) => [e.FieldName, e.ErrorCode]),
          [['Url', 'ForbiddenUrl']],
        );
        assert.match(err.Message, /WEBHOOK_ALLOW_PRIVATE=true/);
      }
    });

    test('an endpoint registered while private hosts were allowed: its test and its deliveries fail with "host resolves to a private address", nothing is sent', async () => {
      const receiver = await Receiver.start();
      const { endpoint } = await createEndpoint(t().app.writes, { secretKey: undefined, allowPrivate: true }, 'test', {
        url: receiver.url,
        types: ['order.created'],
        description: '',
      });
      const sent = await sendTest(t(), endpoint.endpoint_id);
      assert.deepEqual([sent.Status, sent.ResponseCode, sent.Error], ['Failed', null, 'host resolves to a private address']);
      await createOrder(t());
      const failure = await eventually('a failed attempt', async () =>
        (await deliveries(t(), endpoint.endpoint_id)).find((d) => d.Status === 'Failed' && d.EventId !== sent.EventId),
      );
      assert.equal(failure.Error, 'host resolves to a private address');
      assert.equal(receiver.received.length, 0);
      await receiver.close();
    });
  },
  { WEBHOOK_POLL_MS: '50', WEBHOOK_RETRY_SCHEDULE: '60' },
);
