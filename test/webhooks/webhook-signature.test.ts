import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { Webhook, WebhookVerificationError } from 'standardwebhooks';
import { newWebhookSecret } from '../../src/webhook-settings/webhook-secret.js';
import { signatureHeaders } from '../../src/webhooks/webhook.signature.js';

const EVENT = { Id: 'evt_01HZX3', Type: 'order.confirmed', Data: { OrderNumber: 'A-1001', Name: 'Jürgen 🚚' } };
const BODY = JSON.stringify(EVENT);

describe('webhook signatures', () => {
  test('one secret: the three headers, verified by the reference library', () => {
    const secret = newWebhookSecret();
    const now = new Date();
    const headers = signatureHeaders({ id: EVENT.Id, timestamp: now, body: BODY, secrets: [secret] });
    assert.deepEqual(Object.keys(headers).sort(), ['webhook-id', 'webhook-signature', 'webhook-timestamp']);
    assert.equal(headers['webhook-id'], EVENT.Id);
    assert.equal(headers['webhook-timestamp'], String(Math.floor(now.getTime() / 1000)));
    assert.match(headers['webhook-signature'], /^v1,[A-Za-z0-9+/]{43}=$/);
    assert.deepEqual(new Webhook(secret).verify(BODY, headers), EVENT);
    assert.deepEqual(new Webhook(secret).verify(Buffer.from(BODY), headers), EVENT, 'the bytes, not only the string');
  });

  test('a Date and the same Unix seconds sign alike; a Buffer body signs like its string', () => {
    const secret = newWebhookSecret();
    const seconds = Math.floor(Date.now() / 1000);
    const fromDate = signatureHeaders({ id: 'e1', timestamp: new Date(seconds * 1000 + 999), body: BODY, secrets: [secret] });
    const fromSeconds = signatureHeaders({ id: 'e1', timestamp: seconds, body: Buffer.from(BODY, 'utf8'), secrets: [secret] });
    assert.deepEqual(fromDate, fromSeconds);
  });

  test("the specification's test vector", () => {
    const headers = signatureHeaders({
      id: 'msg_p5jXN8AQM9LWM0D4loKWxJek',
      timestamp: 1614265330,
      body: '{"test": 2432232314}',
      secrets: ['whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw'],
    });
    assert.equal(headers['webhook-signature'], 'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=');
  });

  test('a rotation: one signature per secret, space-separated; either secret alone verifies, a third does not', () => {
    const fresh = newWebhookSecret();
    const old = newWebhookSecret();
    const headers = signatureHeaders({ id: EVENT.Id, timestamp: new Date(), body: BODY, secrets: [fresh, old] });
    const parts = headers['webhook-signature'].split(' ');
    assert.equal(parts.length, 2);
    for (const p of parts) assert.match(p, /^v1,[A-Za-z0-9+/]{43}=$/);
    assert.equal(
      parts[0],
      signatureHeaders({ id: EVENT.Id, timestamp: Number(headers['webhook-timestamp']), body: BODY, secrets: [fresh] })[
        'webhook-signature'
      ],
      'the new secret first',
    );
    assert.deepEqual(new Webhook(fresh).verify(BODY, headers), EVENT);
    assert.deepEqual(new Webhook(old).verify(BODY, headers), EVENT);
    assert.throws(() => new Webhook(newWebhookSecret()).verify(BODY, headers), WebhookVerificationError);
  });

  test('a changed body, id or timestamp no longer verifies', () => {
    const secret = newWebhookSecret();
    const now = Math.floor(Date.now() / 1000);
    const headers = signatureHeaders({ id: EVENT.Id, timestamp: now, body: BODY, secrets: [secret] });
    const wh = new Webhook(secret);
    assert.throws(() => wh.verify(BODY.replace('A-1001', 'A-1002'), { ...headers }), WebhookVerificationError);
    assert.throws(() => wh.verify(BODY, { ...headers, 'webhook-id': 'evt_other' }), WebhookVerificationError);
    assert.throws(() => wh.verify(BODY, { ...headers, 'webhook-timestamp': String(now - 1) }), WebhookVerificationError);
  });

  test('no secret, a malformed secret or no id: an error that does not repeat the secret', () => {
    const input = { id: 'e1', timestamp: new Date(), body: BODY };
    assert.throws(() => signatureHeaders({ ...input, secrets: [] }), /at least one secret/);
    assert.throws(() => signatureHeaders({ ...input, id: '', secrets: [newWebhookSecret()] }), /needs an id/);
    assert.throws(() => signatureHeaders({ ...input, timestamp: new Date(Number.NaN), secrets: [newWebhookSecret()] }), /timestamp/);
    const short = `whsec_${Buffer.alloc(16, 7).toString('base64')}`;
    for (const bad of ['s3cr3t-without-prefix', 'whsec_', 'whsec_not*base64*at*all*but*long*enough', short]) {
      assert.throws(
        () => signatureHeaders({ ...input, secrets: [newWebhookSecret(), bad] }),
        (err: Error) => {
          assert.match(err.message, /whsec_ followed by the base64 of at least 24 bytes/);
          const hidden = bad.replace(/^whsec_/, '');
          assert.ok(hidden === '' || !err.message.includes(hidden), err.message);
          return true;
        },
        bad,
      );
    }
  });
});
