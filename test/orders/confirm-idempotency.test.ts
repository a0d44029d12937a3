import assert from 'node:assert/strict';
import { test } from 'node:test';
import { keyId } from '../../src/auth/key.model.js';
import { bearer, describeEachBackend, json, type TestApp } from '../helpers/test-app.js';
import { confirm, confirmation, createOrder, unique } from './order-fixtures.js';

const HOUR = 60 * 60 * 1000;

const withKey = (key: string, apiKey?: string): Record<string, string> => ({ 'idempotency-key': key, ...(apiKey ? bearer(apiKey) : {}) });

async function keyRow(app: TestApp, key: string) {
  return app.store.db
    .selectFrom('idempotency_keys')
    .selectAll()
    .where('api_key_id', '=', keyId(app.keys.admin))
    .where('idempotency_key', '=', key)
    .executeTakeFirst();
}

/** Puts a key row in a given state, as a request of the past (or one still in flight) left it. */
async function plantKey(app: TestApp, key: string, state: 'running' | 'done', ageMs: number): Promise<void> {
  await app.store.db
    .insertInto('idempotency_keys')
    .values({
      api_key_id: keyId(app.keys.admin),
      idempotency_key: key,
      operation: 'ConfirmOrder',
      request_hash: 'some other request',
      state,
      response_status: state === 'done' ? 200 : null,
      response_body: state === 'done' ? '{}' : null,
      created_at: Date.now() - ageMs,
    })
    .execute();
}

describeEachBackend(
  'ConfirmOrder with an Idempotency-Key',
  (t) => {
    test('the same key and body replays the first answer, marked as a replay', async () => {
      const id = await createOrder(t());
      const key = `k-${unique()}`;
      const first = await confirm(t(), id, confirmation(), withKey(key));
      assert.equal(first.statusCode, 200, first.body);
      assert.equal(first.headers['idempotent-replayed'], undefined);
      assert.equal((await keyRow(t(), key))?.state, 'done');
      const replay = await confirm(t(), id, confirmation(), withKey(key));
      assert.equal(replay.statusCode, 200);
      assert.equal(replay.headers['idempotent-replayed'], 'true');
      assert.equal(replay.body, first.body);
    });

    test('the same key with a different body → 422, also for another order; nothing changes', async () => {
      const id = await createOrder(t());
      const other = await createOrder(t());
      const key = `k-${unique()}`;
      assert.equal((await confirm(t(), id, confirmation(), withKey(key))).statusCode, 200);
      const changed = await confirm(t(), id, confirmation({ CustomerCity: 'Bonn' }), withKey(key));
      assert.equal(changed.statusCode, 422);
      assert.equal(json(changed).ResponseStatus.ErrorCode, 'IdempotencyKeyReused');
      const elsewhere = await confirm(t(), other, confirmation(), withKey(key));
      assert.equal(elsewhere.statusCode, 422);
      assert.equal(json(await t().inject(`/orders/${other}`)).Status, 'Open');
    });

    test('keys belong to the API key that sent them', async () => {
      const key = `k-${unique()}`;
      const a = await confirm(t(), await createOrder(t()), confirmation(), withKey(key));
      const b = await confirm(t(), await createOrder(t()), confirmation(), withKey(key, t().keys.all));
      assert.equal(a.statusCode, 200);
      assert.equal(b.statusCode, 200);
      assert.notEqual(json(a).OrderId, json(b).OrderId);
    });

    test('while the first request with the key is running → 409, whatever the body', async () => {
      const key = `k-${unique()}`;
      await plantKey(t(), key, 'running', 1000);
      const res = await confirm(t(), await createOrder(t()), confirmation(), withKey(key));
      assert.equal(res.statusCode, 409);
      assert.equal(json(res).ResponseStatus.ErrorCode, 'IdempotencyKeyInUse');
    });

    test('a key left running by a request that died is taken over after its lease; an expired key is new again', async () => {
      const abandoned = `k-${unique()}`;
      await plantKey(t(), abandoned, 'running', 2 * 60 * 1000);
      const res = await confirm(t(), await createOrder(t()), confirmation(), withKey(abandoned));
      assert.equal(res.statusCode, 200, res.body);
      const expired = `k-${unique()}`;
      await plantKey(t(), expired, 'done', 25 * HOUR);
      assert.equal((await confirm(t(), await createOrder(t()), confirmation(), withKey(expired))).statusCode, 200);
      const kept = `k-${unique()}`;
      await plantKey(t(), kept, 'done', 23 * HOUR);
      assert.equal((await confirm(t(), await createOrder(t()), confirmation(), withKey(kept))).statusCode, 422);
    });

    test('a refused request frees its key: the retry runs again instead of replaying the refusal', async () => {
      const id = await createOrder(t());
      await t().inject({ method: 'POST', url: `/orders/${id}/cancel` });
      const key = `k-${unique()}`;
      const refused = await confirm(t(), id, confirmation(), withKey(key));
      assert.equal(refused.statusCode, 409);
      assert.equal(await keyRow(t(), key), undefined);
      const other = await createOrder(t());
      assert.equal((await confirm(t(), other, confirmation(), withKey(key))).statusCode, 200);
    });

    test('a key longer than 255 characters is a 400 naming the header', async () => {
      const res = await confirm(t(), await createOrder(t()), confirmation(), withKey('k'.repeat(256)));
      assert.equal(res.statusCode, 400);
      assert.equal(json(res).ResponseStatus.Errors[0].FieldName, 'Idempotency-Key');
    });

    test('parallel requests with one key: one confirmation; the others replay it or are told it is running', async () => {
      const id = await createOrder(t());
      const key = `k-${unique()}`;
      const answers = await Promise.all(
        Array.from({ length: 8 }, () => confirm(t(), id, confirmation({ ExternalCustomerId: key }), withKey(key))),
      );
      const ok = answers.filter((r) => r.statusCode === 200);
      assert.ok(ok.length >= 1);
      for (const r of answers) {
        if (r.statusCode === 200) assert.equal(r.body, ok[0]!.body);
        else assert.equal(json(r).ResponseStatus.ErrorCode, 'IdempotencyKeyInUse', r.body);
      }
      const customers = json(await t().inject(`/customer/?Identifiers=${key}`));
      assert.equal(customers.length, 1);
      assert.equal(customers[0].CustomerId, json(ok[0]!).CustomerId);
    });
  },
  {},
  { pgbouncer: true },
);
