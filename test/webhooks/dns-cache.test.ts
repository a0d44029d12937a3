import assert from 'node:assert/strict';
import type { LookupAddress } from 'node:dns';
import { test } from 'node:test';
import { sharedLookup } from '../../src/webhooks/webhook.dns-cache.js';
import type { Resolver } from '../../src/webhooks/webhook.url-guard.js';

/** A resolver that counts its calls and answers after a tick. */
function counting(answer: LookupAddress[] | NodeJS.ErrnoException): { resolve: Resolver; calls: () => number } {
  let calls = 0;
  const resolve: Resolver = (_host, _options, callback) => {
    calls++;
    setImmediate(() => (answer instanceof Error ? callback(answer, []) : callback(null, answer)));
  };
  return { resolve, calls: () => calls };
}

const ask = (lookup: Resolver, host: string, family?: number) =>
  new Promise<{ err: NodeJS.ErrnoException | null; addresses: LookupAddress[] }>((r) =>
    lookup(host, { all: true, ...(family ? { family } : {}) }, (err, addresses) => r({ err, addresses })),
  );

test('deliveries to one host share one lookup, and its answer for a while', async () => {
  const { resolve, calls } = counting([{ address: '93.184.216.34', family: 4 }]);
  const lookup = sharedLookup(resolve);
  const answers = await Promise.all(Array.from({ length: 300 }, () => ask(lookup, 'erp.example.com')));
  assert.equal(calls(), 1);
  assert.ok(answers.every((a) => a.err === null && a.addresses[0]?.address === '93.184.216.34'));
  await ask(lookup, 'erp.example.com');
  assert.equal(calls(), 1, 'reused');
  await ask(lookup, 'other.example.com');
  await ask(lookup, 'erp.example.com', 6);
  assert.equal(calls(), 3, 'another host or family is looked up on its own');
});

test('a failure is shared and reused too: a dead host costs one lookup, not one per delivery', async () => {
  const notFound = Object.assign(new Error('getaddrinfo ENOTFOUND dead.example'), { code: 'ENOTFOUND' });
  const { resolve, calls } = counting(notFound);
  const lookup = sharedLookup(resolve);
  const answers = await Promise.all(Array.from({ length: 50 }, () => ask(lookup, 'dead.example')));
  assert.ok(answers.every((a) => a.err === notFound));
  assert.equal((await ask(lookup, 'dead.example')).err, notFound);
  assert.equal(calls(), 1);
});
