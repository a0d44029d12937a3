import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { describe, test } from 'node:test';
import { Webhook } from 'standardwebhooks';
import { newWebhookSecret, openSecret, parseSecretKey, sealSecret, WebhookSecretError } from '../../src/webhook-settings/webhook-secret.js';
import { assertSettingRefused } from './webhook-setting-asserts.js';

const KEY = randomBytes(32);

/** Asserts that `fn` throws a WebhookSecretError whose message matches and holds none of `hidden`. */
function assertSecretError(fn: () => unknown, message: RegExp, hidden: string[]): void {
  assert.throws(fn, (err: unknown) => {
    assert.ok(err instanceof WebhookSecretError, String(err));
    assert.match(err.message, message);
    for (const h of hidden) assert.ok(!err.message.includes(h), `the message repeats a secret value: ${err.message}`);
    return true;
  });
}

describe('webhook secrets', () => {
  test('newWebhookSecret: whsec_ and the base64 of 32 random bytes, accepted by the reference library', () => {
    const a = newWebhookSecret();
    const b = newWebhookSecret();
    assert.match(a, /^whsec_[A-Za-z0-9+/]{43}=$/);
    assert.equal(Buffer.from(a.slice('whsec_'.length), 'base64').length, 32);
    assert.notEqual(a, b);
    assert.doesNotThrow(() => new Webhook(a));
  });

  test('parseSecretKey: the base64 of exactly 32 bytes', () => {
    const text = KEY.toString('base64');
    assert.deepEqual(parseSecretKey(text), KEY);
    assert.deepEqual(parseSecretKey(` ${text}\n`), KEY);
  });

  test('parseSecretKey refuses anything else with an error naming WEBHOOK_SECRET_KEY, without repeating the value', () => {
    const bad = [
      '',
      '   ',
      'not base64 at all!',
      randomBytes(16).toString('base64'),
      randomBytes(33).toString('base64'),
      KEY.toString('hex'),
      `${KEY.toString('base64')}x`,
    ];
    for (const value of bad) assertSettingRefused(() => parseSecretKey(value), 'WEBHOOK_SECRET_KEY', JSON.stringify(value), value.trim());
  });

  test('without a key a secret is stored as it is, and read back as it is', () => {
    const secret = newWebhookSecret();
    assert.equal(sealSecret(secret), secret);
    assert.equal(openSecret(secret), secret);
  });

  test('with a key: enc:v1: and AES-256-GCM, a fresh IV each time, and back', () => {
    const secret = newWebhookSecret();
    const sealed = sealSecret(secret, KEY);
    assert.match(sealed, /^enc:v1:[A-Za-z0-9+/]+=*$/);
    assert.ok(!sealed.includes(secret.slice('whsec_'.length)));
    assert.notEqual(sealSecret(secret, KEY), sealed, 'random IV: equal secrets do not look equal at rest');
    assert.equal(openSecret(sealed, KEY), secret);
  });

  test('a secret stored before the key was set still opens with the key', () => {
    const secret = newWebhookSecret();
    assert.equal(openSecret(secret, KEY), secret);
  });

  test('an encrypted secret without the key, or with another key, throws a clear error holding no secret', () => {
    const secret = newWebhookSecret();
    const sealed = sealSecret(secret, KEY);
    assertSecretError(() => openSecret(sealed), /encrypted, but WEBHOOK_SECRET_KEY is not set/, [secret, sealed]);
    assertSecretError(
      () => openSecret(sealed, randomBytes(32)),
      /cannot be decrypted: WEBHOOK_SECRET_KEY is not the key it was sealed with/,
      [secret, sealed],
    );
  });

  test('a changed, cut or unknown sealed value is refused', () => {
    const secret = newWebhookSecret();
    const sealed = sealSecret(secret, KEY);
    const packed = Buffer.from(sealed.slice('enc:v1:'.length), 'base64');
    packed[packed.length - 1]! ^= 1;
    assertSecretError(() => openSecret(`enc:v1:${packed.toString('base64')}`, KEY), /cannot be decrypted/, [secret]);
    assertSecretError(() => openSecret('enc:v1:AAAA', KEY), /damaged/, []);
    assertSecretError(() => openSecret('enc:v1:!!!!', KEY), /damaged/, []);
    assertSecretError(() => openSecret(sealed.replace('enc:v1:', 'enc:v9:'), KEY), /unknown format/, [secret]);
  });

  test('sealing twice, or with a key of the wrong size, is refused', () => {
    const sealed = sealSecret(newWebhookSecret(), KEY);
    assertSecretError(() => sealSecret(sealed, KEY), /sealed already/, []);
    assertSecretError(() => sealSecret(newWebhookSecret(), randomBytes(16)), /32 bytes/, []);
  });
});
