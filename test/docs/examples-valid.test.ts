import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { createKey } from '../../src/auth/key.service.js';
import { EXAMPLE_KEY_ID } from '../../src/keys/key.operations.js';
import { seedCustomers } from '../../src/customers/customer.seed.js';
import { seedOrders } from '../../src/orders/order.seed.js';
import { newWebhookSecret, sealSecret } from '../../src/webhook-settings/webhook-secret.js';
import { createEndpointWrite } from '../../src/webhooks/webhook.writes.js';
import { allBackends, leftOut } from '../helpers/test-store.js';
import { createTestApp, json, type TestApp } from '../helpers/test-app.js';

type Json = Record<string, any>;

interface Example {
  readonly label: string;
  readonly method: string;
  readonly url: string;
  readonly body: string | undefined;
  /** The 404 is documented for this request. */
  readonly may404: boolean;
}

/** Every operation route of /openapi.json as the docs page's try-it-out sends it, unchanged. */
async function openApiExamples(app: TestApp): Promise<Example[]> {
  const doc = json<Json>(await app.inject('/openapi.json'));
  const out: Example[] = [];
  for (const [path, item] of Object.entries<Json>(doc.paths)) {
    for (const [method, op] of Object.entries<Json>(item)) {
      const params: Json[] = op.parameters ?? [];
      const value = (p: Json) => (Array.isArray(p.example) ? p.example.join(',') : String(p.example));
      let url = path;
      for (const p of params.filter((x) => x.in === 'path')) {
        assert.notEqual(p.example, undefined, `${method} ${path}: path parameter ${p.name} has no example`);
        url = url.replace(`{${p.name}}`, encodeURIComponent(value(p)));
      }
      const query = params.filter((p) => p.in === 'query' && p.example !== undefined).map((p) => `${p.name}=${encodeURIComponent(value(p))}`);
      const body = op.requestBody?.content?.['application/json']?.example;
      out.push({ label: `OpenAPI ${op.operationId}`, method: method.toUpperCase(), url: url + (query.length ? `?${query.join('&')}` : ''), body: body === undefined ? undefined : JSON.stringify(body), may404: '404' in op.responses });
    }
  }
  return out;
}

const unescapeHtml = (s: string): string => s.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&amp;/g, '&');

/** The sample request of every operation's /metadata page. */
async function metadataExamples(app: TestApp, names: Map<string, boolean>): Promise<Example[]> {
  const out: Example[] = [];
  for (const [name, may404] of names) {
    const page = await app.inject(`/json/metadata?op=${name}`);
    assert.equal(page.statusCode, 200, name);
    const pre = /<h3>Sample request<\/h3><pre>([\s\S]*?)<\/pre>/.exec(page.body)?.[1];
    assert.ok(pre, `${name}: no sample request`);
    const [head, ...rest] = unescapeHtml(pre).split('\n\n');
    const [method, url] = head!.split('\n')[0]!.split(' ');
    out.push({ label: `/metadata ${name}`, method: method!, url: url!, body: rest.length ? rest.join('\n\n') : undefined, may404 });
  }
  return out;
}

async function send(app: TestApp, e: Example) {
  return app.inject({ method: e.method as 'GET', url: e.url, ...(e.body === undefined ? {} : { payload: e.body, headers: { 'content-type': 'application/json' } }) });
}

/**
 * Sends the examples in order; each must succeed, or (`missingData`) say that what it names does not
 * exist: its documented 404, UnknownCustomField for a field number in a body, or an order not confirmed.
 */
async function assertValid(app: TestApp, examples: Example[], missingData: boolean): Promise<void> {
  for (const e of examples) {
    const res = await send(app, e);
    const code = res.statusCode >= 400 ? json(res).ResponseStatus.ErrorCode : undefined;
    // The examples of payments and refunds name an order that is confirmed only once the ConfirmOrder example ran on it.
    const missing = (e.may404 && res.statusCode === 404) || code === 'UnknownCustomField' || code === 'OrderNotConfirmed';
    const ok = (res.statusCode >= 200 && res.statusCode < 300) || (missingData && missing);
    assert.ok(ok, `${e.label}: ${e.method} ${e.url} ${e.body ?? ''} → ${res.statusCode} ${res.body.slice(0, 300)}`);
  }
}

/**
 * A store as the README's first steps leave it: demo customers and orders, custom fields 1 and 2,
 * the webhook endpoints the examples name (endpoint ids are random: registered here with theirs), and
 * the key the revocation example names.
 */
async function prepared(app: TestApp): Promise<void> {
  await seedCustomers(app.app.writes, 3);
  await seedOrders(app.app.writes, 3);
  for (const [n, FieldType] of [[1, 'Boolean'], [2, 'Text']] as const) {
    assert.equal((await app.inject({ method: 'PUT', url: `/customfields/${n}`, payload: { Label: `Field ${n}`, FieldType } })).statusCode, 201);
  }
  const doc = json<Json>(await app.inject('/openapi.json'));
  const webhookIds = new Set<string>();
  for (const [path, item] of Object.entries<Json>(doc.paths)) {
    if (!path.startsWith('/webhooks/{Id}')) continue;
    for (const op of Object.values<Json>(item)) for (const p of op.parameters ?? []) if (p.in === 'path' && p.name === 'Id') webhookIds.add(String(p.example));
  }
  assert.ok(webhookIds.size > 0, 'the webhook examples name an endpoint');
  for (const endpointId of webhookIds) {
    const sealedSecret = sealSecret(newWebhookSecret(), app.config.webhook.secretKey);
    await app.app.writes.run(createEndpointWrite, { keyId: 'cli', endpointId, url: 'https://erp.example.com/hooks/ordergate', types: [], description: 'ERP', sealedSecret, now: Date.now() });
  }
  await createKey(app.app.writes, 'example', 'all', `${EXAMPLE_KEY_ID}_example_key_0123456789abcdefghijklmnopqrstuvwxyz`);
}

for (const backend of allBackends()) {
  describe(`every example request of the docs is a valid request [${backend}]`, { skip: leftOut(backend) }, () => {
    for (const source of ['OpenAPI (/docs try-it-out)', '/metadata'] as const) {
      const examplesOf = async (app: TestApp) => {
        const openApi = await openApiExamples(app);
        if (source !== '/metadata') return openApi;
        const doc = json<Json>(await app.inject('/openapi.json'));
        const names = new Map<string, boolean>();
        for (const item of Object.values<Json>(doc.paths)) {
          for (const op of Object.values<Json>(item)) {
            const name = String(op.operationId).split('_')[0]!;
            names.set(name, (names.get(name) ?? false) || '404' in op.responses);
          }
        }
        return metadataExamples(app, names);
      };

      test(`${source}: on an empty store each answers 2xx, or says that what it names does not exist`, async (t) => {
        const app = await createTestApp(backend);
        t.after(() => app.close());
        await assertValid(app, await examplesOf(app), true);
      });

      test(`${source}: on a store with the demo data each answers 2xx`, async (t) => {
        const app = await createTestApp(backend);
        t.after(() => app.close());
        await prepared(app);
        await assertValid(app, await examplesOf(app), false);
      });
    }

    test('the payment sample of the shared schemas is a valid payment type', async (t) => {
      const app = await createTestApp(backend);
      t.after(() => app.close());
      const doc = json<Json>(await app.inject('/openapi.json'));
      assert.equal(doc.components.schemas.OrderPayment.example.Type, 'PayPal');
    });

    test('try-it-out of SearchCustomers starts with a Take, so it never asks for every customer', async (t) => {
      const app = await createTestApp(backend);
      t.after(() => app.close());
      const doc = json<Json>(await app.inject('/openapi.json'));
      const get = doc.paths['/customer/'].get.parameters.find((p: Json) => p.name === 'Take');
      assert.equal(get.example, 100);
      assert.equal(doc.paths['/customer/'].post.requestBody.content['application/json'].example.Take, 100);
    });
  });
}
