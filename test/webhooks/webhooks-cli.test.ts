import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Webhook } from 'standardwebhooks';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/app.js';
import { createKey } from '../../src/auth/key.service.js';
import { loadConfig } from '../../src/config.js';
import { migrateToLatest } from '../../src/store/migrate.js';
import { openStore } from '../../src/store/open-store.js';
import type { Store } from '../../src/store/store.js';
import { assertBuilt } from '../helpers/cli.js';
import { CliThread } from '../helpers/cli-in-thread.js';
import { createTestDatabase, type TestDatabase, allBackends, leftOut } from '../helpers/test-store.js';
import { Receiver } from './receiver.js';

const SECRET_KEY = Buffer.alloc(32, 9).toString('base64');

for (const backend of allBackends()) {
  describe(`ordergate webhooks … [${backend}]`, { skip: leftOut(backend) }, () => {
    let database: TestDatabase;
    let store: Store;
    let app: FastifyInstance;
    let receiver: Receiver;
    let key: string;
    // The commands run in one thread of this process: what they do with their arguments and the store, without a node process each.
    let thread: CliThread;
    const env = (): Record<string, string> => ({
      DATABASE_URL: database.url,
      WEBHOOK_ALLOW_PRIVATE: 'true',
      WEBHOOK_SECRET_KEY: SECRET_KEY,
    });

    before(async () => {
      assertBuilt();
      thread = new CliThread();
      database = await createTestDatabase(backend);
      store = openStore(database.url, { poolSize: 2 });
      await migrateToLatest(store);
      receiver = await Receiver.start();
      app = await buildApp({ config: loadConfig({ ...env(), LOG_LEVEL: 'silent', WEBHOOK_POLL_MS: '50' }), store });
      key = (await createKey(app.writes, 'ops', 'all,admin')).key;
    });
    after(async () => {
      await thread?.close();
      await app?.close();
      await store?.close();
      await receiver?.close();
      await database?.drop();
    });

    test('add prints the secret alone on the last line, stored sealed; a running server delivers with it; list, replay and remove work; all audited as cli', async () => {
      const added = await thread.cli(['webhooks', 'add', receiver.url, '--events', 'order.created', '--description', 'ERP'], env());
      assert.equal(added.code, 0, added.stderr);
      const lines = added.stdout.trimEnd().split('\n');
      const secret = lines.at(-1)!;
      assert.match(secret, /^whsec_[A-Za-z0-9+/]{43}=$/);
      const id = /created webhook (wh_[0-9a-f]+)/.exec(added.stdout)![1]!;
      const stored = await store.reader
        .selectFrom('webhook_endpoints')
        .select('secret')
        .where('endpoint_id', '=', id)
        .executeTakeFirstOrThrow();
      assert.match(stored.secret, /^enc:v1:/);
      assert.ok(!stored.secret.includes(secret.slice(6)));

      const listed = await thread.cli(['webhooks', 'list'], env());
      assert.equal(listed.stdout, `${id} ${receiver.url} order.created enabled\n`);

      const res = await app.inject({ method: 'POST', url: '/orders', headers: { authorization: `Bearer ${key}` }, payload: {} });
      assert.equal(res.statusCode, 201);
      const [got] = await receiver.waitFor(1);
      new Webhook(secret).verify(got!.body, {
        'webhook-id': String(got!.headers['webhook-id']),
        'webhook-timestamp': String(got!.headers['webhook-timestamp']),
        'webhook-signature': String(got!.headers['webhook-signature']),
      });

      const replayed = await thread.cli(['webhooks', 'replay', id, '--after', '0'], env());
      assert.equal(replayed.code, 0, replayed.stderr);
      assert.match(replayed.stdout, /^queued 1 deliveries/);
      await receiver.waitFor(2);
      assert.equal(receiver.received[1]!.headers['webhook-id'], got!.headers['webhook-id']);

      assert.equal((await thread.cli(['webhooks', 'remove', id], env())).code, 0);
      assert.equal((await thread.cli(['webhooks', 'list'], env())).stdout, '');
      const audit = await thread.cli(['audit', 'list'], env());
      assert.deepEqual(
        audit.stdout
          .trimEnd()
          .split('\n')
          .map((l) => l.split(' ').slice(2).join(' ')),
        [`cli webhook.create webhook ${id}`, `cli webhook.replay webhook ${id}`, `cli webhook.delete webhook ${id}`],
      );
    });

    test('mistakes: no URL, a forbidden URL, an unknown event type, an unknown id, replay without --after → exit 2 with a message; nothing stored', async () => {
      const listedBefore = (await thread.cli(['webhooks', 'list'], env())).stdout;
      const cases: Array<[string[], RegExp]> = [
        [['webhooks', 'add'], /give one URL/],
        [['webhooks', 'add', 'ftp://example.com/x'], /only http and https/],
        [['webhooks', 'add', receiver.url, '--events', 'order.shipped'], /unknown event type order\.shipped/],
        [['webhooks', 'replay', 'wh_nope'], /--after/],
      ];
      for (const [args, message] of cases) {
        const r = await thread.cli(args, env());
        assert.equal(r.code, 2, `${args.join(' ')}: ${r.stderr}`);
        assert.match(r.stderr, message);
      }
      for (const args of [
        ['webhooks', 'remove', 'wh_nope'],
        ['webhooks', 'replay', 'wh_nope', '--after', '0'],
      ]) {
        const r = await thread.cli(args, env());
        assert.equal(r.code, 1, `${args.join(' ')}: ${r.stderr}`);
        assert.match(r.stderr, /^ordergate: .*does not exist/);
      }
      const privateOnly = await thread.cli(['webhooks', 'add', 'http://127.0.0.1:9/x'], { ...env(), WEBHOOK_ALLOW_PRIVATE: 'false' });
      assert.equal(privateOnly.code, 2);
      assert.match(privateOnly.stderr, /loopback, private.*WEBHOOK_ALLOW_PRIVATE=true/);
      assert.equal((await thread.cli(['webhooks', 'list'], env())).stdout, listedBefore);
    });

    test('test sends a signed webhook.test event now and prints the outcome: exit 0 delivered, 1 failed (with the reason) or an unknown id', async () => {
      const added = await thread.cli(['webhooks', 'add', receiver.url], env());
      assert.equal(added.code, 0, added.stderr);
      const id = /created webhook (wh_[0-9a-f]+)/.exec(added.stdout)![1]!;
      const secret = added.stdout.trimEnd().split('\n').at(-1)!;
      const from = receiver.received.length;
      const tested = await thread.cli(['webhooks', 'test', id], env());
      assert.equal(tested.code, 0, tested.stderr);
      const got = receiver.received[from]!;
      new Webhook(secret).verify(got.body, {
        'webhook-id': String(got.headers['webhook-id']),
        'webhook-timestamp': String(got.headers['webhook-timestamp']),
        'webhook-signature': String(got.headers['webhook-signature']),
      });
      const event = JSON.parse(got.body);
      assert.equal(event.Type, 'webhook.test');
      assert.match(tested.stdout, new RegExp(`^delivered webhook\\.test ${event.Id} to ${receiver.url}, HTTP 200 in \\d+ ms\\n$`));
      const listed = await app.inject({ url: `/webhooks/${id}/deliveries`, headers: { authorization: `Bearer ${key}` } });
      assert.deepEqual(
        JSON.parse(listed.body).map((d: { EventId: string; Status: string }) => [d.EventId, d.Status]),
        [[event.Id, 'Delivered']],
      );

      const closed = await Receiver.start();
      await closed.close();
      const auth = { authorization: `Bearer ${key}` };
      const refused: string = JSON.parse(
        (await app.inject({ method: 'POST', url: '/webhooks', headers: auth, payload: { Url: closed.url } })).body,
      ).Id;
      const failed = await thread.cli(['webhooks', 'test', refused], env());
      assert.equal(failed.code, 1, failed.stderr);
      assert.match(
        failed.stdout,
        new RegExp(`^failed webhook\\.test evt_[0-9a-f]+ to ${closed.url}: connection refused after \\d+ ms\\n$`),
      );

      const unknown = await thread.cli(['webhooks', 'test', 'wh_nope'], env());
      assert.equal(unknown.code, 1);
      assert.match(unknown.stderr, /does not exist/);
      for (const each of [id, refused])
        assert.equal((await app.inject({ method: 'DELETE', url: `/webhooks/${each}`, headers: auth })).statusCode, 204);
    });
  });
}
