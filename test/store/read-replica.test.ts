import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { buildApp } from '../../src/app.js';
import { createKey } from '../../src/auth/key.service.js';
import { loadConfig } from '../../src/config.js';
import { customerNotFound } from '../../src/errors.js';
import { ReadReplica, routeRead } from '../../src/store/read-replica.js';
import type { Store } from '../../src/store/store.js';
import { parseWireDate } from '../../src/wire/dates.js';
import { createReplicatedTestStore, replicaCaughtUp, replicaPair, setReplay, type ReplicaPair } from '../helpers/replica.js';
import { TcpProxy } from '../helpers/tcp-proxy.js';
import { openTestWrites, leftOut } from '../helpers/test-store.js';
import { Receiver } from '../webhooks/receiver.js';

const RETRY_MS = 300;

describe('read routing: which store answers (no server)', () => {
  /** A replica whose committed watermark is `at` (counting the times it was asked), in front of a primary. */
  function rig(at = 100) {
    const asked = { watermark: 0 };
    const view = {
      name: 'replica',
      reader: { run: async () => (asked.watermark++, { rows: [{ last_stamp: at }] }) },
    } as unknown as Store;
    const replica = new ReadReplica(view, 50);
    const primary = { name: 'primary', replica } as unknown as Store;
    const nameOf = (s: Store) => (s as unknown as { name: string }).name;
    return { primary, replica, asked, nameOf };
  }
  const failing =
    (code: string, where = 'replica') =>
    (s: Store) => {
      const name = (s as unknown as { name: string }).name;
      return name === where ? Promise.reject(Object.assign(new Error(code), { code })) : Promise.resolve(name);
    };

  test('a replica that cannot be reached is left alone for a while: the primary answers, then the replica again', async () => {
    const r = rig();
    assert.equal(await routeRead(r.primary, undefined, failing('ECONNREFUSED')), 'primary');
    assert.equal(r.replica.available, false);
    assert.equal(await routeRead(r.primary, undefined, async (s) => r.nameOf(s)), 'primary');
    assert.deepEqual(r.replica.counts, { replica: 0, down: 1, behind: 0, failed: 1 });
    await sleep(60);
    assert.equal(await routeRead(r.primary, undefined, async (s) => r.nameOf(s)), 'replica');
    for (const code of ['57P01', '08006', '53300', '57P03']) {
      const again = rig();
      assert.equal(await routeRead(again.primary, undefined, failing(code)), 'primary', code);
      assert.equal(again.replica.available, false, code);
    }
  });

  test('a query cancelled by replay, or a table the replica has not replayed yet: the primary answers this read only', async () => {
    for (const code of ['40001', '42P01', '42703']) {
      const r = rig();
      assert.equal(await routeRead(r.primary, undefined, failing(code)), 'primary', code);
      assert.equal(r.replica.available, true, code);
    }
  });

  test("the read's own errors are its answer, from the replica as from the primary", async () => {
    const r = rig();
    await assert.rejects(
      routeRead(r.primary, undefined, () => Promise.reject(customerNotFound('x'))),
      /not found/,
    );
    assert.deepEqual([r.replica.available, r.replica.counts.failed], [true, 0]);
  });

  test('X-Min-Watermark: the replica answers once it has reached it, the primary before', async () => {
    const r = rig(100);
    assert.equal(await routeRead(r.primary, 150, async (s) => r.nameOf(s)), 'primary');
    assert.equal(await routeRead(r.primary, 100, async (s) => r.nameOf(s)), 'replica');
    assert.equal(await routeRead(r.primary, 90, async (s) => r.nameOf(s)), 'replica');
    assert.equal(r.asked.watermark, 1, 'what the replica reached is remembered');
    assert.deepEqual(r.replica.counts, { replica: 2, down: 0, behind: 1, failed: 0 });
  });

  test('a store without a replica answers every read itself', async () => {
    const store = { name: 'primary' } as unknown as Store;
    assert.equal(await routeRead(store, 1e15, async (s) => (s as unknown as { name: string }).name), 'primary');
  });
});

/**
 * The service on a PostgreSQL primary with a real streaming replica of it (helpers/replica.ts),
 * reached through a TCP proxy so that one test can make it unreachable. Lag is made on demand by
 * pausing the replica's replay: what it shows stays as it was while the primary goes on.
 */
describe('read replica [postgres, streaming replica]', { skip: leftOut('postgres') }, () => {
  let pair: ReplicaPair;
  let proxy: TcpProxy;
  let store: Store;
  let app: FastifyInstance;
  let closeStore: () => Promise<void>;
  let auth: Record<string, string>;
  let receiver: Receiver;

  before(async () => {
    pair = await replicaPair();
    // Only this suite pauses replay; a run that died paused must not leave it so.
    await setReplay(pair, 'resume');
    const replicaUrl = new URL(pair.replicaUrl);
    proxy = new TcpProxy(replicaUrl.hostname, Number(replicaUrl.port));
    await proxy.start();
    const proxied = (url: string): string => {
      const u = new URL(url);
      u.port = String(proxy.port);
      return u.toString();
    };
    const made = await createReplicatedTestStore({ retryMs: RETRY_MS, readUrl: proxied });
    store = made.store;
    closeStore = made.close;
    const { key } = await createKey(openTestWrites(store), 'replica', 'all,admin');
    auth = { authorization: `Bearer ${key}` };
    const config = loadConfig({
      LOG_LEVEL: 'silent',
      RATE_LIMIT_PER_SECOND: '0',
      WEBHOOK_ALLOW_PRIVATE: 'true',
      WEBHOOK_POLL_MS: '50',
      DATABASE_URL: made.database.url,
      DATABASE_READ_URL: proxied(made.database.readUrl),
    });
    app = await buildApp({ config, store });
    await app.ready();
    receiver = await Receiver.start();
  });
  after(async () => {
    await setReplay(pair, 'resume').catch(() => undefined);
    await app?.close();
    await closeStore?.();
    await proxy?.close();
    await receiver?.close();
  });

  const inject = (
    method: 'GET' | 'PUT' | 'POST',
    url: string,
    payload?: unknown,
    headers: Record<string, string> = {},
  ): Promise<LightMyRequestResponse> =>
    app.inject({ method, url, headers: { ...auth, ...headers }, ...(payload === undefined ? {} : { payload: payload as object }) });
  const body = (res: LightMyRequestResponse): any => {
    assert.ok(res.statusCode < 300, `${res.statusCode} ${res.body}`);
    return res.body === '' ? undefined : JSON.parse(res.body);
  };
  /** A write; answers its X-Write-Watermark in ms. */
  const write = async (
    method: 'PUT' | 'POST',
    url: string,
    payload: unknown,
  ): Promise<{ res: LightMyRequestResponse; watermark: number }> => {
    const res = await inject(method, url, payload);
    body(res);
    const header = res.headers['x-write-watermark'];
    assert.equal(typeof header, 'string', `X-Write-Watermark on ${method} ${url}`);
    const watermark = parseWireDate(header as string);
    assert.ok(watermark !== undefined && watermark > 0, String(header));
    return { res, watermark };
  };
  const counts = () => ({ ...store.replica!.counts });

  /** The five reads the replica serves, as a client sees them; `headers` go with each. */
  async function replicaReads(ids: { customer: string; order: number; after: number }, headers: Record<string, string> = {}) {
    const get = async (url: string) => body(await inject('GET', url, undefined, headers));
    const field1 = ((await get(`/customer/rr-1/customfields/`)) as Array<{ Number: number; Value: unknown }>).find((f) => f.Number === 1);
    return {
      customers: ((await get(`/customer/?Identifiers=${ids.customer}`)) as Array<{ CustomerId: string }>).map((c) => c.CustomerId),
      orders: ((await get(`/orders/?OrderIds=${ids.order}`)) as Array<{ OrderId: number }>).map((o) => o.OrderId),
      field1: field1?.Value,
      definitions: ((await get('/customfields/')) as Array<{ Number: number }>).map((d) => d.Number),
      events: ((await get(`/events/?After=${ids.after}`)) as Array<{ Type: string }>).map((e) => e.Type).sort(),
    };
  }

  test("searches, feeds, custom-field reads and the event feed come from the replica; X-Min-Watermark reads one's own writes", async () => {
    await write('PUT', '/customfields/1', { Label: 'Newsletter', FieldType: 'Boolean' });
    await write('PUT', '/customer/rr-1', { FirstName: 'Anna' });
    await replicaCaughtUp(pair);
    const events = body(await inject('GET', '/events/?Take=10000')) as Array<{ Sequence: number }>;
    const after = events.at(-1)!.Sequence;

    await setReplay(pair, 'pause');
    let written = 0;
    let order: number;
    try {
      // Written while the replica stands still: the primary has them, the replica does not.
      written = Math.max(written, (await write('PUT', '/customer/rr-2', { FirstName: 'Ben' })).watermark);
      written = Math.max(written, (await write('PUT', '/customer/rr-1/customfields/1', { Value: true })).watermark);
      written = Math.max(written, (await write('PUT', '/customfields/2', { Label: 'VIP', FieldType: 'Boolean' })).watermark);
      const created = await write('POST', '/orders', {});
      written = Math.max(written, created.watermark);
      order = JSON.parse(created.res.body).OrderId as number;
      const ids = { customer: 'rr-2', order, after };

      const c0 = counts();
      const stale = await replicaReads(ids);
      assert.deepEqual(stale, { customers: [], orders: [], field1: null, definitions: [1], events: [] }, 'the replica answers as it stood');
      assert.equal(counts().replica - c0.replica, 5, 'each read answered by the replica');
      const feed = await inject('GET', '/customer/?LastModifiedAfter=/Date(0)/');
      assert.ok(parseWireDate(feed.headers['x-sync-watermark'] as string)! < written, 'its X-Sync-Watermark is behind the writes');

      // Its own writes, with the X-Write-Watermark they answered: the primary answers (the replica is behind).
      const c1 = counts();
      const fresh = await replicaReads(ids, { 'X-Min-Watermark': `/Date(${written})/` });
      assert.deepEqual(fresh.customers, ['rr-2']);
      assert.deepEqual(fresh.orders, [order]);
      assert.equal(fresh.field1, true);
      assert.deepEqual(fresh.definitions, [1, 2]);
      assert.deepEqual(fresh.events, ['customer.created', 'customer.customfields_changed', 'customfield.defined', 'order.created']);
      assert.equal(counts().behind - c1.behind, 5, 'each read left to the primary');

      // Reads not on the replica's list read the primary: an order just created is found.
      assert.equal(body(await inject('GET', `/orders/${order}`)).OrderId, order);

      const ready = await app.inject('/health/ready');
      assert.equal(ready.statusCode, 200);
      const replica = JSON.parse(ready.body).Replica;
      assert.equal(replica.Status, 'Up');
      assert.equal(replica.Streaming, true);
      assert.ok(replica.LagSeconds > 0, `lag while replay stands still: ${ready.body}`);
    } finally {
      await setReplay(pair, 'resume');
    }

    // Caught up: the same X-Min-Watermark is answered by the replica.
    await replicaCaughtUp(pair);
    const c2 = counts();
    const same = await inject('GET', '/customer/?Identifiers=rr-2', undefined, { 'X-Min-Watermark': `/Date(${written})/` });
    assert.deepEqual(
      body(same).map((c: { CustomerId: string }) => c.CustomerId),
      ['rr-2'],
    );
    assert.deepEqual([counts().replica - c2.replica, counts().behind - c2.behind], [1, 0]);
    const ready = JSON.parse((await app.inject('/health/ready')).body);
    assert.deepEqual(ready, { Status: 'Ready', Replica: { Status: 'Up', LagSeconds: 0, Streaming: true } });
  });

  test('X-Min-Watermark takes either date style; anything else is a 400 naming it', async () => {
    for (const value of ['/Date(0)/', '\\/Date(1700000000000-0000)\\/', '2024-05-01T10:00:00.123Z']) {
      assert.equal((await inject('GET', '/events/?Take=1', undefined, { 'X-Min-Watermark': value })).statusCode, 200, value);
    }
    const res = await inject('GET', '/customer/?Take=1', undefined, { 'X-Min-Watermark': 'yesterday' });
    assert.equal(res.statusCode, 400, res.body);
    const status = JSON.parse(res.body).ResponseStatus;
    assert.equal(status.Errors[0].FieldName, 'X-Min-Watermark');
  });

  test('webhook deliveries do not wait for the replica: the dispatcher reads the primary', async () => {
    // Not a write the replica-served reads show: no X-Write-Watermark.
    const created = await inject('POST', '/webhooks', { Url: receiver.url, Events: ['order.cancelled'] });
    assert.equal(created.statusCode, 201, created.body);
    assert.equal(created.headers['x-write-watermark'], undefined);
    await setReplay(pair, 'pause');
    try {
      const { res } = await write('POST', '/orders', {});
      const id = JSON.parse(res.body).OrderId as number;
      await write('POST', `/orders/${id}/cancel`, {});
      const [got] = await receiver.waitFor(1, 10_000);
      const event = JSON.parse(got!.body);
      assert.deepEqual([event.Type, event.Data?.OrderId], ['order.cancelled', id], got!.body);
    } finally {
      await setReplay(pair, 'resume');
    }
  });

  test('replica unreachable: reads answered by the primary, /health/ready still ready and says so; reads return to it', async () => {
    await write('PUT', '/customer/rr-3', { FirstName: 'Cem' });
    await proxy.cut();
    try {
      const c0 = counts();
      for (let i = 0; i < 3; i++)
        assert.deepEqual(
          body(await inject('GET', '/customer/?Identifiers=rr-3')).map((c: { CustomerId: string }) => c.CustomerId),
          ['rr-3'],
        );
      assert.equal(body(await inject('GET', '/events/?Take=1')).length, 1);
      const c1 = counts();
      assert.equal(c1.replica, c0.replica, 'none answered by the replica');
      assert.equal(c1.failed + c1.down - c0.failed - c0.down, 4, 'all answered by the primary');

      const ready = await app.inject('/health/ready');
      assert.equal(ready.statusCode, 200, ready.body);
      assert.deepEqual(JSON.parse(ready.body), { Status: 'Ready', Replica: { Status: 'Down' } });
      const metrics = (await app.inject('/metrics')).body;
      assert.match(metrics, /^ordergate_replica_available 0$/m);
      assert.match(metrics, /^ordergate_replica_reads_total\{outcome="down"\} [1-9]/m);
    } finally {
      await proxy.restore();
    }
    await sleep(RETRY_MS + 50);
    const c2 = counts();
    assert.equal(body(await inject('GET', '/customer/?Identifiers=rr-3')).length, 1);
    assert.equal(counts().replica - c2.replica, 1, 'answered by the replica again');
    assert.equal(JSON.parse((await app.inject('/health/ready')).body).Replica.Status, 'Up');
    assert.match((await app.inject('/metrics')).body, /^ordergate_replica_available 1$/m);
  });
});
