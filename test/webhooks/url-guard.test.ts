import assert from 'node:assert/strict';
import type { LookupAddress, lookup } from 'node:dns';
import { describe, test } from 'node:test';
import {
  checkWebhookUrl,
  FORBIDDEN_ADDRESS,
  ForbiddenAddressError,
  guardedLookup,
  isForbiddenAddress,
} from '../../src/webhooks/webhook.url-guard.js';

const FORBIDDEN = [
  '127.0.0.1',
  '127.1.2.3',
  '10.0.0.1',
  '10.255.255.255',
  '172.16.0.1',
  '172.31.255.254',
  '192.168.1.1',
  '169.254.169.254',
  '100.64.0.1',
  '0.0.0.0',
  '0.1.2.3',
  '255.255.255.255',
  '224.0.0.1',
  '239.255.255.250',
  '192.0.2.1',
  '198.51.100.7',
  '203.0.113.9',
  '198.18.0.1',
  '240.0.0.1',
  '::',
  '::1',
  'fe80::1',
  'fe80::1%eth0',
  'fc00::1',
  'fd12:3456::1',
  'ff02::1',
  'ff05::2',
  '::ffff:127.0.0.1',
  '::ffff:10.0.0.1',
  '::ffff:7f00:1',
  '::ffff:169.254.169.254',
  '64:ff9b::7f00:1',
  '2002:7f00:1::',
  '2001:db8::1',
  'not an address',
  '',
];
const PUBLIC = [
  '93.184.216.34',
  '8.8.8.8',
  '1.1.1.1',
  '172.32.0.1',
  '192.169.0.1',
  '::ffff:93.184.216.34',
  '2606:4700:4700::1111',
  '2a00:1450:4001:82b::200e',
];

type Resolve = typeof lookup;

/** A stand-in resolver that answers `addresses` for every name. */
function fakeResolver(addresses: LookupAddress[] | NodeJS.ErrnoException): Resolve {
  return ((_host: string, _options: unknown, callback: (err: NodeJS.ErrnoException | null, addresses: LookupAddress[]) => void) => {
    setImmediate(() => (addresses instanceof Error ? callback(addresses, []) : callback(null, addresses)));
  }) as unknown as Resolve;
}

/** Calls a lookup function as net does, with or without `all`. */
function callLookup(
  fn: ReturnType<typeof guardedLookup>,
  all: boolean,
): Promise<{ err: NodeJS.ErrnoException | null; address: unknown; family?: number }> {
  return new Promise((resolve) => fn('hooks.example', { all }, (err, address, family) => resolve({ err, address, family })));
}

describe('webhook URL guard', () => {
  test('isForbiddenAddress: every special range, IPv4 and IPv6, IPv4-mapped judged as IPv4', () => {
    for (const a of FORBIDDEN) assert.equal(isForbiddenAddress(a), true, a);
    for (const a of PUBLIC) assert.equal(isForbiddenAddress(a), false, a);
  });

  test('malformed URLs and schemes other than http(s)', async () => {
    for (const url of ['not a url', 'http://', '//hooks.example/x', ''])
      assert.deepEqual(await checkWebhookUrl(url, { allowPrivate: true }), { ok: false, reason: 'malformed' }, url);
    for (const url of [
      'ftp://hooks.example/',
      'file:///etc/passwd',
      'javascript:alert(1)',
      'ws://hooks.example/',
      'gopher://127.0.0.1:6379/',
    ]) {
      assert.deepEqual(await checkWebhookUrl(url, { allowPrivate: true }), { ok: false, reason: 'scheme' }, url);
    }
  });

  test('non-public address literals are refused, in any spelling the URL parser accepts', async () => {
    const urls = [
      'http://127.0.0.1/',
      'http://10.1.2.3:8080/hook',
      'http://169.254.169.254/latest/meta-data/',
      'http://[::1]/',
      'http://[::ffff:127.0.0.1]/',
      'https://[fc00::1]/',
      'http://224.0.0.1/',
      'http://[ff02::1]/',
      'http://0.0.0.0/',
      'http://2130706433/',
      'http://0x7f.1/',
      'http://017700000001/',
      'http://[::ffff:a9fe:a9fe]/',
      'http://192.168.0.10/',
    ];
    for (const url of urls)
      assert.deepEqual(await checkWebhookUrl(url, { allowPrivate: false }), { ok: false, reason: 'forbidden-address' }, url);
  });

  test('a name that resolves to loopback is refused', async () => {
    assert.deepEqual(await checkWebhookUrl('http://localhost:3000/hook', { allowPrivate: false }), {
      ok: false,
      reason: 'forbidden-address',
    });
    assert.deepEqual(await checkWebhookUrl('http://LOCALHOST:3000/hook', { allowPrivate: false }), {
      ok: false,
      reason: 'forbidden-address',
    });
  });

  test('allowPrivate lets them through', async () => {
    for (const url of ['http://127.0.0.1:3000/hook', 'http://localhost/', 'http://[::1]/', 'http://10.0.0.1/']) {
      const res = await checkWebhookUrl(url, { allowPrivate: true });
      assert.ok(res.ok, url);
      assert.equal(res.url.href, new URL(url).href);
    }
  });

  test('public addresses pass; a name that does not resolve is unresolvable', async () => {
    for (const url of ['https://93.184.216.34/hooks?x=1', 'http://[2606:4700:4700::1111]:8443/'])
      assert.ok((await checkWebhookUrl(url, { allowPrivate: false })).ok, url);
    assert.deepEqual(await checkWebhookUrl('https://no-such-host.invalid/hook', { allowPrivate: false }), {
      ok: false,
      reason: 'unresolvable',
    });
  });

  test('guardedLookup answers like dns.lookup for public addresses, in both the single and the `all` form', async () => {
    const addresses = [
      { address: '93.184.216.34', family: 4 },
      { address: '2606:2800:220:1::248', family: 6 },
    ];
    const fn = guardedLookup(false, fakeResolver(addresses));
    assert.deepEqual(await callLookup(fn, false), { err: null, address: '93.184.216.34', family: 4 });
    assert.deepEqual(await callLookup(fn, true), { err: null, address: addresses, family: undefined });
  });

  test('guardedLookup fails with a recognizable error when any address is non-public (DNS rebinding)', async () => {
    for (const addresses of [
      [{ address: '10.0.0.7', family: 4 }],
      [
        { address: '93.184.216.34', family: 4 },
        { address: '::ffff:127.0.0.1', family: 6 },
      ],
    ]) {
      for (const all of [false, true]) {
        const { err } = await callLookup(guardedLookup(false, fakeResolver(addresses)), all);
        assert.ok(err instanceof ForbiddenAddressError, String(err));
        assert.equal(err.code, FORBIDDEN_ADDRESS);
        assert.equal(err.hostname, 'hooks.example');
        assert.match(err.message, /hooks\.example resolves to the non-public address/);
      }
    }
    assert.deepEqual(await callLookup(guardedLookup(true, fakeResolver([{ address: '10.0.0.7', family: 4 }])), false), {
      err: null,
      address: '10.0.0.7',
      family: 4,
    });
  });

  test('guardedLookup passes resolver errors on, and treats no address as not found', async () => {
    const notFound = Object.assign(new Error('getaddrinfo ENOTFOUND hooks.example'), { code: 'ENOTFOUND' });
    assert.equal((await callLookup(guardedLookup(false, fakeResolver(notFound)), false)).err, notFound);
    assert.equal((await callLookup(guardedLookup(false, fakeResolver([])), true)).err?.code, 'ENOTFOUND');
  });
});
