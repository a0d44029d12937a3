import { createHmac } from 'node:crypto';
import { webhookSecretKey } from '../webhook-settings/index.js';

/** The Standard Webhooks headers that identify and sign one delivery attempt. */
// A type rather than an interface: it then fits a Record<string, string> of request headers as it is.
export type WebhookSignatureHeaders = {
  readonly 'webhook-id': string;
  readonly 'webhook-timestamp': string;
  readonly 'webhook-signature': string;
};

export interface SignatureInput {
  /** The event's Id: the same on every attempt, so receivers can drop duplicates. */
  readonly id: string;
  /** When this attempt is sent (a Date, or Unix seconds). */
  readonly timestamp: Date | number;
  /** The exact bytes that will be sent. */
  readonly body: string | Buffer;
  /** `whsec_` secrets, the current one first; during a rotation also the previous one. */
  readonly secrets: readonly string[];
}

/**
 * The `webhook-id`, `webhook-timestamp` and `webhook-signature` headers: `v1,<base64 HMAC-SHA256 of
 * "<id>.<timestamp>.<body>">` per secret, space-separated, so receivers holding either the new or the
 * old secret accept the delivery during a rotation. Signed with node:crypto (native, where the reference
 * library's HMAC is plain JavaScript), so the tests' verification with the reference library is an
 * independent check rather than the library agreeing with itself.
 */
export function signatureHeaders(input: SignatureInput): WebhookSignatureHeaders {
  if (input.secrets.length === 0) throw new Error('a webhook needs at least one secret to be signed');
  if (input.id === '') throw new Error('a webhook needs an id to be signed');
  const seconds = unixSeconds(input.timestamp);
  const prefix = `${input.id}.${seconds}.`;
  const signatures = input.secrets.map((secret) => {
    const hmac = createHmac('sha256', webhookSecretKey(secret)).update(prefix, 'utf8');
    if (typeof input.body === 'string') hmac.update(input.body, 'utf8');
    else hmac.update(input.body);
    return `v1,${hmac.digest('base64')}`;
  });
  return { 'webhook-id': input.id, 'webhook-timestamp': String(seconds), 'webhook-signature': signatures.join(' ') };
}

function unixSeconds(timestamp: Date | number): number {
  const seconds = timestamp instanceof Date ? Math.floor(timestamp.getTime() / 1000) : Math.floor(timestamp);
  if (!Number.isFinite(seconds)) throw new Error('a webhook timestamp must be a valid date or number of seconds');
  return seconds;
}
