import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { WebhookSettingError } from './webhook-setting-error.js';

/** The prefix of a Standard Webhooks secret; the rest is the base64 of the HMAC key. */
export const WEBHOOK_SECRET_PREFIX = 'whsec_';

// The specification asks for 24 to 64 random bytes; 32 is SHA-256's output size, the key length
// RFC 2104 recommends for HMAC-SHA256.
const SECRET_BYTES = 32;
const MIN_SECRET_BYTES = 24;

const SEALED_PREFIX = 'enc:';
const SEALED_V1 = 'enc:v1:';
const KEY_BYTES = 32;
const IV_BYTES = 12; // GCM's native nonce size: no extra GHASH pass, and random 96-bit IVs are safe at our volumes
const TAG_BYTES = 16;

const STRICT_BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/** A stored secret that cannot be opened. The message never holds the secret or the stored value. */
export class WebhookSecretError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'WebhookSecretError';
  }
}

/** A fresh endpoint secret: `whsec_` + base64 of 32 random bytes. */
export function newWebhookSecret(): string {
  return WEBHOOK_SECRET_PREFIX + randomBytes(SECRET_BYTES).toString('base64');
}

/**
 * The HMAC key of a `whsec_` secret. Strict: Buffer's base64 decoder skips junk silently, which would
 * turn a damaged secret into a key no receiver holds.
 */
export function webhookSecretKey(secret: string): Buffer {
  const encoded = secret.startsWith(WEBHOOK_SECRET_PREFIX) ? secret.slice(WEBHOOK_SECRET_PREFIX.length) : '';
  const key = STRICT_BASE64.test(encoded) ? Buffer.from(encoded, 'base64') : Buffer.alloc(0);
  if (key.length < MIN_SECRET_BYTES) {
    throw new WebhookSecretError(
      `a webhook secret must be ${WEBHOOK_SECRET_PREFIX} followed by the base64 of at least ${MIN_SECRET_BYTES} bytes`,
    );
  }
  return key;
}

/** WEBHOOK_SECRET_KEY: the base64 of exactly 32 bytes (AES-256). The message never repeats the value. */
export function parseSecretKey(base64: string): Buffer {
  const text = base64.trim();
  const key = STRICT_BASE64.test(text) ? Buffer.from(text, 'base64') : undefined;
  if (key === undefined)
    throw new WebhookSettingError(
      'WEBHOOK_SECRET_KEY',
      `expected the base64 of ${KEY_BYTES} bytes (openssl rand -base64 32), got text that is not base64`,
    );
  if (key.length !== KEY_BYTES)
    throw new WebhookSettingError(
      'WEBHOOK_SECRET_KEY',
      `expected the base64 of ${KEY_BYTES} bytes (openssl rand -base64 32), got ${key.length} bytes`,
    );
  return key;
}

/**
 * The form a secret is stored in: with a key, `enc:v1:<base64 of iv | tag | ciphertext>` (AES-256-GCM,
 * a random IV per value, so equal secrets do not look equal at rest); without one, the secret itself.
 */
export function sealSecret(secret: string, key?: Buffer): string {
  if (key === undefined) return secret;
  // Sealing a sealed value would store something that opens to ciphertext, not to a secret.
  if (secret.startsWith(SEALED_PREFIX)) throw new WebhookSecretError('the webhook secret is sealed already');
  checkKeyLength(key);
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const ciphertext = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
  return SEALED_V1 + Buffer.concat([iv, cipher.getAuthTag(), ciphertext]).toString('base64');
}

/**
 * The secret of a stored value. A value without the `enc:` prefix was stored before a key was set
 * and is returned as it is, with or without a key, so setting a key later needs no migration.
 */
export function openSecret(stored: string, key?: Buffer): string {
  if (!stored.startsWith(SEALED_PREFIX)) return stored;
  if (!stored.startsWith(SEALED_V1)) throw new WebhookSecretError('the stored webhook secret is sealed in an unknown format');
  if (key === undefined) throw new WebhookSecretError('the stored webhook secret is encrypted, but WEBHOOK_SECRET_KEY is not set');
  checkKeyLength(key);
  const encoded = stored.slice(SEALED_V1.length);
  const packed = STRICT_BASE64.test(encoded) ? Buffer.from(encoded, 'base64') : Buffer.alloc(0);
  if (packed.length <= IV_BYTES + TAG_BYTES) throw new WebhookSecretError('the stored webhook secret is damaged');
  const decipher = createDecipheriv('aes-256-gcm', key, packed.subarray(0, IV_BYTES));
  decipher.setAuthTag(packed.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
  try {
    return Buffer.concat([decipher.update(packed.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString('utf8');
  } catch {
    // GCM cannot tell a wrong key from a changed value: both fail the tag.
    throw new WebhookSecretError(
      'the stored webhook secret cannot be decrypted: WEBHOOK_SECRET_KEY is not the key it was sealed with, or the value is damaged',
    );
  }
}

function checkKeyLength(key: Buffer): void {
  if (key.length !== KEY_BYTES) throw new WebhookSecretError(`WEBHOOK_SECRET_KEY must be ${KEY_BYTES} bytes, got ${key.length}`);
}
