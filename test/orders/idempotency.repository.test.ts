import assert from 'node:assert/strict';
import { test } from 'node:test';
import { idempotencyRepository as repo, type KeyRef } from '../../src/orders/idempotency.repository.js';
import { describeEachStore } from '../helpers/store-suite.js';
import { unique } from './order-fixtures.js';

describeEachStore('idempotency repository', (s) => {
  const find = (ref: KeyRef) => repo.find(s().store.reader, ref);
  /** A running claim made at `at`. */
  const claim = async (at: number): Promise<KeyRef> => {
    const ref = { apiKeyId: 'key-1', key: unique() };
    await s().write((unit) => repo.insertRunning(unit.db, ref, 'ConfirmOrder', 'hash-1', at));
    return ref;
  };
  const complete = (ref: KeyRef, claimedAt: number) => s().write((unit) => repo.complete(unit.db, ref, claimedAt, 200, '{"ok":true}'));

  test('insertRunning stores a running claim; find reads it by key id and key only', async () => {
    const ref = await claim(1000);
    assert.deepEqual(await find(ref), {
      api_key_id: 'key-1',
      idempotency_key: ref.key,
      operation: 'ConfirmOrder',
      request_hash: 'hash-1',
      state: 'running',
      response_status: null,
      response_body: null,
      created_at: 1000,
    });
    assert.equal(await find({ apiKeyId: 'key-2', key: ref.key }), undefined);
  });

  test('complete stores the answer only for the claim made at the given time', async () => {
    const ref = await claim(1000);
    await complete(ref, 999);
    await complete(ref, 1001);
    assert.deepEqual(
      [(await find(ref))?.state, (await find(ref))?.response_body],
      ['running', null],
      'a claim taken over since is left alone',
    );
    await complete(ref, 1000);
    const row = await find(ref);
    assert.deepEqual([row?.state, row?.response_status, row?.response_body], ['done', 200, '{"ok":true}']);
  });

  test('delete removes only the claim made at the given time', async () => {
    const ref = await claim(1000);
    await s().write((unit) => repo.delete(unit.db, ref, 999));
    await s().write((unit) => repo.delete(unit.db, ref, 1001));
    assert.ok(await find(ref), 'a claim taken over since is left alone');
    await s().write((unit) => repo.delete(unit.db, ref, 1000));
    assert.equal(await find(ref), undefined);
  });

  test('replace takes over the claim it saw, and no other', async () => {
    const ref = await claim(1000);
    await complete(ref, 1000);
    const replace = (seen: number, now: number) => s().write((unit) => repo.replace(unit.db, ref, seen, 'ConfirmOrder', 'hash-2', now));
    assert.equal(await replace(999, 5000), false);
    assert.equal(await replace(1000, 5000), true);
    const row = await find(ref);
    assert.deepEqual(
      [row?.state, row?.request_hash, row?.response_status, row?.response_body, row?.created_at],
      ['running', 'hash-2', null, null, 5000],
    );
    assert.equal(await replace(1000, 6000), false, 'the claim seen at 1000 is gone');
  });

  test('deleteOlderThan removes the claims made before the cutoff', async () => {
    const base = 10_000_000 + Math.floor(Math.random() * 1_000_000) * 10;
    const old = await claim(base - 1);
    const current = await claim(base);
    const removed = await s().write((unit) => repo.deleteOlderThan(unit.db, base));
    assert.ok(removed >= 1);
    assert.equal(await find(old), undefined);
    assert.ok(await find(current));
  });
});
