import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { Webhook } from 'standardwebhooks';
import { errorOf } from '../customfields/cf-helpers.js';
import { bearer, describeEachBackend, json, type TestApp } from '../helpers/test-app.js';
import { confirm, confirmation, createOrder, IBAN } from '../orders/order-fixtures.js';
import { Receiver, type Received } from './receiver.js';
import { purgeExpiredEvents } from '../../src/webhooks/webhook.event-retention.js';
import type { WriteDoor } from '../../src/writes/unit.js';

const ENV = { WEBHOOK_ALLOW_PRIVATE: 'true', WEBHOOK_POLL_MS: '50', WEBHOOK_RETRY_SCHEDULE: '1,1', WEBHOOK_TIMEOUT_MS: '1000' };

interface Endpoint {
  Id: string;
  Url: string;
  Events: string[];
  Description: string;
  Enabled: boolean;
  DisabledReason: string | null;
  Secret?: string;
}

async function register(t: TestApp, url: string, events: string[] = []): Promise<Endpoint & { Secret: string }> {
  const res = await t.inject({ method: 'POST', url: '/webhooks', payload: { Url: url, Events: events, Description: 'test' } });
  assert.equal(res.statusCode, 201, res.body);
  return json(res);
}

const remove = async (t: TestApp, id: string): Promise<void> =>
  assert.equal((await t.inject({ method: 'DELETE', url: `/webhooks/${id}` })).statusCode, 204);

const headersOf = (r: Received): Record<string, string> => ({
  'webhook-id': String(r.headers['webhook-id']),
  'webhook-timestamp': String(r.headers['webhook-timestamp']),
  'webhook-signature': String(r.headers['webhook-signature']),
});

async function deliveries(
  t: TestApp,
  id: string,
): Promise<Array<{ EventId: string; Attempt: number; Status: string; ResponseCode: number | null; NextAttemptAt: string | null }>> {
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

describeEachBackend(
  'webhooks',
  (t) => {
    let receiver: Receiver;
    before(async () => {
      receiver = await Receiver.start();
    });
    after(() => receiver.close());

    test('endpoints: created with a secret shown once, listed, read, changed, removed; admin only; each change audited', async () => {
      const created = await register(t(), receiver.url, ['order.confirmed']);
      assert.match(created.Id, /^wh_[0-9a-f]{24}$/);
      assert.match(created.Secret, /^whsec_[A-Za-z0-9+/]{43}=$/);
      assert.deepEqual(
        { ...created, Secret: undefined, Id: undefined, CreatedAt: undefined },
        {
          Url: receiver.url,
          Events: ['order.confirmed'],
          Description: 'test',
          Enabled: true,
          DisabledReason: null,
          Secret: undefined,
          Id: undefined,
          CreatedAt: undefined,
        },
      );
      const listed: Endpoint[] = json(await t().inject('/webhooks'));
      const mine = listed.find((e) => e.Id === created.Id)!;
      assert.equal(mine.Secret, undefined);
      assert.ok(!JSON.stringify(listed).includes(created.Secret));
      assert.deepEqual(json(await t().inject(`/webhooks/${created.Id}`)), mine);
      const changed = json(
        await t().inject({ method: 'PUT', url: `/webhooks/${created.Id}`, payload: { Events: [], Description: 'all', Enabled: false } }),
      );
      assert.deepEqual([changed.Events, changed.Description, changed.Enabled, changed.DisabledReason], [[], 'all', false, 'Disabled']);
      assert.equal((await t().inject({ url: '/webhooks', headers: bearer(t().keys.all) })).statusCode, 403);
      await remove(t(), created.Id);
      assert.equal((await t().inject(`/webhooks/${created.Id}`)).statusCode, 404);
      assert.equal((await t().inject({ method: 'DELETE', url: `/webhooks/${created.Id}` })).statusCode, 404);
      const audit: Array<{ Action: string; ResourceIds: string[] }> = json(await t().inject('/audit/?Take=10000'));
      assert.deepEqual(
        audit.filter((a) => a.ResourceIds.includes(created.Id)).map((a) => a.Action),
        ['webhook.create', 'webhook.update', 'webhook.delete'],
      );
      assert.ok(!JSON.stringify(audit).includes(created.Secret));
    });

    test('bad input: a URL that is not http(s), unknown event types, Take out of range → 400 naming the field; nothing is created', async () => {
      const before = (json(await t().inject('/webhooks')) as Endpoint[]).length;
      for (const [payload, field, code] of [
        [{ Url: 'ftp://example.com/x' }, 'Url', 'ForbiddenUrl'],
        [{ Url: 'not a url' }, 'Url', 'ForbiddenUrl'],
        [{ Url: '' }, 'Url', undefined],
        [{}, 'Url', undefined],
        [{ Url: receiver.url, Events: ['order.shipped'] }, 'Events', undefined],
      ] as const) {
        const err = errorOf(await t().inject({ method: 'POST', url: '/webhooks', payload }), 400);
        assert.ok(
          err.Errors.some((e) => e.FieldName === field || e.FieldName.startsWith(`${field}[`)),
          JSON.stringify(err),
        );
        if (code) assert.equal(err.ErrorCode, code);
      }
      assert.equal((json(await t().inject('/webhooks')) as Endpoint[]).length, before);
      assert.equal((await t().inject('/webhooks/wh_x/deliveries?Take=1001')).statusCode, 400);
    });

    test('deliveries: signed per Standard Webhooks (verified with the standardwebhooks package), the event as the feed shows it, only the chosen types, only events after the endpoint was made', async () => {
      const earlier = await createOrder(t());
      const endpoint = await register(t(), receiver.url, ['order.created', 'order.confirmed']);
      const from = receiver.received.length;
      const orderId = await createOrder(t());
      assert.equal((await confirm(t(), orderId, confirmation())).statusCode, 200);
      await t().inject({ method: 'POST', url: `/orders/${orderId}/cancel` });
      // A later event of a chosen type: the fan-out reaches it only after the cancellation, so once
      // it has arrived a delivery of the cancellation would have been queued (and listed) too.
      const sentinel = await createOrder(t());
      const arrived = (await receiver.waitFor(from + 3)).slice(from);
      assert.equal(receiver.received.length, from + 3, 'only the chosen types');
      assert.deepEqual(JSON.parse(arrived[2]!.body).Data.OrderId, sentinel);
      const got = arrived.slice(0, 2);
      const feed: any[] = json(await t().inject('/events/?Take=10000'));
      const verifier = new Webhook(endpoint.Secret);
      const bodies = got.map((r) => {
        assert.equal(r.headers['content-type'], 'application/json');
        assert.match(String(r.headers['user-agent']), /^ordergate\/\d+\.\d+\.\d+/);
        assert.ok(Math.abs(Number(r.headers['webhook-timestamp']) - Date.now() / 1000) < 30);
        verifier.verify(r.body, headersOf(r));
        const event = JSON.parse(r.body);
        assert.equal(r.headers['webhook-id'], event.Id);
        assert.deepEqual(
          event,
          feed.find((e) => e.Id === event.Id),
        );
        return event;
      });
      assert.deepEqual(bodies.map((e) => [e.Type, e.Data.OrderId]).sort(), [
        ['order.confirmed', orderId],
        ['order.created', orderId],
      ]);
      assert.ok(!bodies.some((e) => e.Data.OrderId === earlier));
      assert.ok(!got.some((r) => r.body.includes(IBAN)));
      assert.throws(() => new Webhook(`whsec_${Buffer.alloc(32, 7).toString('base64')}`).verify(got[0]!.body, headersOf(got[0]!)));
      // The receiver has the sentinel before the dispatcher records its answer.
      const list = await eventually('three settled deliveries', async () => {
        const l = await deliveries(t(), endpoint.Id);
        return l.some((d) => d.Status === 'Pending') ? undefined : l;
      });
      assert.deepEqual(
        list.map((d) => [d.Status, d.Attempt, d.ResponseCode]),
        [
          ['Delivered', 1, 200],
          ['Delivered', 1, 200],
          ['Delivered', 1, 200],
        ],
      );
      // The dispatcher counts an attempt once its outcome is recorded, a moment after the list shows it.
      const metrics = await eventually('the attempts counted', async () => {
        const body = (await t().inject({ url: '/metrics', headers: { authorization: undefined as unknown as string } })).body;
        return /^ordergate_webhook_attempts_total\{result="Delivered"\} [1-9]/m.test(body) ? body : undefined;
      });
      assert.match(metrics, /^ordergate_webhook_oldest_undelivered_event_age_seconds \d/m);
      await remove(t(), endpoint.Id);
    });

    test('failures are retried on the schedule with the same webhook-id, then Dead; a 410 disables the endpoint', async () => {
      const failing = await Receiver.start();
      failing.answer = (_req, res) => void res.writeHead(500).end('no');
      const endpoint = await register(t(), failing.url, ['order.created']);
      const orderId = await createOrder(t());
      const got = await failing.waitFor(3);
      assert.equal(new Set(got.map((r) => r.headers['webhook-id'])).size, 1);
      assert.ok(got[1]!.at - got[0]!.at >= 700, 'the retry waits for the schedule');
      const dead = await eventually('Dead', async () => {
        const list = await deliveries(t(), endpoint.Id);
        return list[0]?.Status === 'Dead' ? list : undefined;
      });
      assert.deepEqual(
        dead.map((d) => [d.Status, d.Attempt, d.ResponseCode]),
        [
          ['Dead', 3, 500],
          ['Failed', 2, 500],
          ['Failed', 1, 500],
        ],
      );
      assert.equal(dead[1]!.NextAttemptAt !== null && dead[0]!.NextAttemptAt === null, true);
      // A fourth attempt would be due one schedule step (1 s) after the third. Past that instant, a
      // later event is delivered: the dispatcher claims due work oldest first, so by its arrival a
      // fourth attempt would have been claimed too (and the delivery no longer Dead).
      failing.answer = (_req, res) => void res.end('ok');
      await new Promise((r) => setTimeout(r, Math.max(0, got[2]!.at + 1100 - Date.now())));
      const sentinel = await createOrder(t());
      await failing.waitFor(4);
      assert.equal(JSON.parse(failing.received[3]!.body).Data.OrderId, sentinel);
      assert.equal(
        failing.received.filter((r) => r.headers['webhook-id'] === got[0]!.headers['webhook-id']).length,
        3,
        'no attempt after Dead',
      );
      assert.deepEqual((await deliveries(t(), endpoint.Id)).find((d) => d.EventId === JSON.parse(got[0]!.body).Id)?.Status, 'Dead');
      // Replay queues it again.
      const replayed = await t().inject({
        method: 'POST',
        url: `/webhooks/${endpoint.Id}/replay`,
        payload: { EventIds: [JSON.parse(got[0]!.body).Id] },
      });
      assert.equal(replayed.statusCode, 202, replayed.body);
      assert.equal(json(replayed).Queued, 1);
      await failing.waitFor(5);
      assert.equal(JSON.parse(failing.received[4]!.body).Data.OrderId, orderId);

      failing.answer = (_req, res) => void res.writeHead(410).end();
      await createOrder(t());
      await failing.waitFor(6);
      const gone = await eventually('disabled', async () => {
        const e: Endpoint = json(await t().inject(`/webhooks/${endpoint.Id}`));
        return e.Enabled ? undefined : e;
      });
      assert.equal(gone.DisabledReason, 'Gone');
      // The next event goes to a second endpoint as well: one fan-out covers every enabled endpoint,
      // so once it has arrived there, a delivery to the disabled one would have been queued too.
      const witness = await register(t(), receiver.url, ['order.created']);
      const from = receiver.received.length;
      const next = await createOrder(t());
      await receiver.waitFor(from + 1);
      const nextEvent = JSON.parse(receiver.received[from]!.body);
      assert.equal(nextEvent.Data.OrderId, next);
      assert.equal(failing.received.length, 6, 'a disabled endpoint receives nothing');
      assert.ok(!(await deliveries(t(), endpoint.Id)).some((d) => d.EventId === nextEvent.Id), 'and nothing is queued for it');
      await remove(t(), witness.Id);
      await remove(t(), endpoint.Id);
      await failing.close();
    });

    test('a replay asked while the event is being sent is sent once more after that attempt', async () => {
      const held = await Receiver.start();
      let release: () => void = () => undefined;
      const released = new Promise<void>((r) => (release = r));
      held.answer = async (_req, res) => {
        await released;
        res.end('ok');
      };
      const endpoint = await register(t(), held.url, ['order.created']);
      const orderId = await createOrder(t());
      const [first] = await held.waitFor(1);
      const replayed = await t().inject({
        method: 'POST',
        url: `/webhooks/${endpoint.Id}/replay`,
        payload: { EventIds: [JSON.parse(first!.body).Id] },
      });
      assert.equal(replayed.statusCode, 202, replayed.body);
      held.answer = (_req, res) => void res.end('ok');
      release();
      const got = await held.waitFor(2);
      assert.equal(got[1]!.headers['webhook-id'], first!.headers['webhook-id']);
      assert.equal(JSON.parse(got[1]!.body).Data.OrderId, orderId);
      await eventually('the replay recorded as Delivered', async () =>
        (await deliveries(t(), endpoint.Id)).some((d) => d.Status === 'Delivered') ? true : undefined,
      );
      await remove(t(), endpoint.Id);
      await held.close();
    });

    test('a closed socket and a timeout are failures retried on the schedule, like a 500', async () => {
      const flaky = await Receiver.start();
      let n = 0;
      flaky.answer = (_req, res) => {
        n++;
        if (n === 1) return void res.socket?.destroy(); // closes the connection without an answer
        if (n === 2) return; // never answers: the attempt's deadline (1 s) passes
        res.end('ok');
      };
      const endpoint = await register(t(), flaky.url, ['order.created']);
      await createOrder(t());
      await flaky.waitFor(3);
      const list = await eventually('Delivered', async () => {
        const l = await deliveries(t(), endpoint.Id);
        return l[0]?.Status === 'Delivered' ? l : undefined;
      });
      assert.deepEqual(
        list.map((d) => [d.Status, d.Attempt, d.ResponseCode]),
        [
          ['Delivered', 3, 200],
          ['Failed', 2, null],
          ['Failed', 1, null],
        ],
      );
      await remove(t(), endpoint.Id);
      await flaky.close();
    });

    test('a receiver that never answers delays no other endpoint and no request', async () => {
      const stuck = await Receiver.start();
      stuck.answer = () => undefined;
      const quick = await Receiver.start();
      const slow = await register(t(), stuck.url, ['order.created']);
      const fast = await register(t(), quick.url, ['order.created']);
      const started = Date.now();
      for (let i = 0; i < 6; i++) await createOrder(t());
      assert.ok(Date.now() - started < 3000, 'requests are not held up');
      await quick.waitFor(6, 3000);
      assert.ok(Date.now() - started < 3000, `the other endpoint got every event at once (${Date.now() - started} ms)`);
      await remove(t(), slow.Id);
      await remove(t(), fast.Id);
      await stuck.close();
      await quick.close();
    });

    test('secret rotation: deliveries carry two signatures, each verifiable with its own secret', async () => {
      const endpoint = await register(t(), receiver.url, ['order.created']);
      const rotated = await t().inject({ method: 'POST', url: `/webhooks/${endpoint.Id}/rotate-secret` });
      assert.equal(rotated.statusCode, 200, rotated.body);
      const secret: string = json(rotated).Secret;
      assert.notEqual(secret, endpoint.Secret);
      const from = receiver.received.length;
      await createOrder(t());
      const [r] = (await receiver.waitFor(from + 1)).slice(from);
      assert.equal(String(r!.headers['webhook-signature']).split(' ').length, 2);
      new Webhook(secret).verify(r!.body, headersOf(r!));
      new Webhook(endpoint.Secret).verify(r!.body, headersOf(r!));
      await remove(t(), endpoint.Id);
      // Logs name endpoints and events, never a secret or a payload.
      const logs = t().logs.join('');
      for (const value of [secret, endpoint.Secret, secret.slice(6), r!.body])
        assert.ok(!logs.includes(value), 'a secret or payload in the logs');
    });
  },
  ENV,
  { pgbouncer: true },
);

describeEachBackend(
  'event retention',
  (t) => {
    test('with no event past the retention the purge makes no write (on SQLite a write would start the write thread)', async () => {
      await createOrder(t());
      const commands: string[] = [];
      const counting: WriteDoor = {
        run: (command, input) => (commands.push(command.name), t().app.writes.run(command, input)),
        close: async () => undefined,
      };
      assert.equal(await purgeExpiredEvents(t().store, counting, 30), 0);
      assert.deepEqual(commands, []);
    });

    test('events older than EVENT_RETENTION_DAYS go, with their deliveries; newer ones stay; the feed then answers 410 below them', async () => {
      const receiver = await Receiver.start();
      const endpoint = await register(t(), receiver.url, ['order.created']);
      await createOrder(t());
      await receiver.waitFor(1);
      await eventually('the delivery recorded', async () => ((await deliveries(t(), endpoint.Id)).length > 0 ? true : undefined));
      const old: Array<{ Sequence: number }> = json(await t().inject('/events/?Take=10000'));
      // Back-date what exists by 31 days (below the door on purpose: time cannot be made to pass).
      await t()
        .store.db.updateTable('events')
        .set((eb) => ({ occurred_at: eb('occurred_at', '-', 31 * 86_400_000) }))
        .execute();
      const kept = await createOrder(t());
      assert.equal(await purgeExpiredEvents(t().store, t().app.writes, 30), old.length);
      const left: Array<{ Id: string; Sequence: number; Data: { OrderId: number } }> = json(
        await t().inject(`/events/?After=${old.at(-1)!.Sequence}`),
      );
      assert.deepEqual(
        left.map((e) => e.Data.OrderId),
        [kept],
      );
      assert.equal((await t().inject('/events/?After=0')).statusCode, 410);
      const keptIds = new Set(left.map((e) => e.Id));
      assert.deepEqual(
        (await deliveries(t(), endpoint.Id)).filter((d) => !keptIds.has(d.EventId)),
        [],
        'deliveries of deleted events are gone',
      );
      await remove(t(), endpoint.Id);
      await receiver.close();
    });
  },
  ENV,
  { pgbouncer: true },
);
