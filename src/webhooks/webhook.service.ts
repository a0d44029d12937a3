import { forbiddenUrl, webhookNotFound } from '../errors.js';
import type { Store } from '../store/store.js';
import type { WriteDoor } from '../writes/unit.js';
import { checkWebhookUrl } from './webhook.url-guard.js';
import { newWebhookSecret, sealSecret } from '../webhook-settings/index.js';
import { webhookRepository as repo, type StoredAttempt, type StoredEndpoint } from './webhook.repository.js';
import {
  createEndpointWrite,
  deleteEndpointWrite,
  newEndpointId,
  replayWrite,
  rotateSecretWrite,
  updateEndpointWrite,
} from './webhook.writes.js';

/** What the webhook API needs of the configuration. */
export interface WebhookSettings {
  /** WEBHOOK_SECRET_KEY: secrets are sealed with it at rest (stored as they are without it). */
  readonly secretKey: Buffer | undefined;
  /** WEBHOOK_ALLOW_PRIVATE. */
  readonly allowPrivate: boolean;
}

/**
 * Refuses a URL that is not http(s) or whose host resolves to a non-public address (unless
 * allowed). A name that does not resolve yet is accepted: DNS may follow the registration, and
 * every delivery checks the address it connects to again.
 */
async function checkUrl(url: string, settings: WebhookSettings): Promise<void> {
  const check = await checkWebhookUrl(url, { allowPrivate: settings.allowPrivate });
  if (check.ok || check.reason === 'unresolvable') return;
  const why = {
    scheme: 'only http and https URLs are allowed',
    malformed: 'it is not an absolute URL',
    'forbidden-address': 'its host is a loopback, private, link-local or multicast address (WEBHOOK_ALLOW_PRIVATE=true allows such hosts)',
  };
  throw forbiddenUrl(why[check.reason]);
}

export interface CreatedEndpoint {
  readonly endpoint: StoredEndpoint;
  /** Shown once, here. */
  readonly secret: string;
}

export async function createEndpoint(
  writes: WriteDoor,
  settings: WebhookSettings,
  keyId: string,
  req: { url: string; types: readonly string[]; description: string },
): Promise<CreatedEndpoint> {
  await checkUrl(req.url, settings);
  const secret = newWebhookSecret();
  const endpoint = await writes.run(createEndpointWrite, {
    keyId,
    endpointId: newEndpointId(),
    url: req.url,
    types: req.types,
    description: req.description,
    sealedSecret: sealSecret(secret, settings.secretKey),
    now: Date.now(),
  });
  return { endpoint, secret };
}

export async function updateEndpoint(
  writes: WriteDoor,
  settings: WebhookSettings,
  keyId: string,
  endpointId: string,
  change: { url?: string; types?: readonly string[]; description?: string; enabled?: boolean },
): Promise<StoredEndpoint> {
  if (change.url !== undefined) await checkUrl(change.url, settings);
  return writes.run(updateEndpointWrite, { keyId, endpointId, ...change, now: Date.now() });
}

export const deleteEndpoint = (writes: WriteDoor, keyId: string, endpointId: string): Promise<void> =>
  writes.run(deleteEndpointWrite, { keyId, endpointId });

export async function rotateSecret(
  writes: WriteDoor,
  settings: WebhookSettings,
  keyId: string,
  endpointId: string,
): Promise<CreatedEndpoint> {
  const secret = newWebhookSecret();
  const endpoint = await writes.run(rotateSecretWrite, {
    keyId,
    endpointId,
    sealedSecret: sealSecret(secret, settings.secretKey),
    now: Date.now(),
  });
  return { endpoint, secret };
}

export const replay = (
  writes: WriteDoor,
  keyId: string,
  endpointId: string,
  after: number | undefined,
  eventIds: readonly string[] | undefined,
): Promise<number> =>
  writes.run(replayWrite, {
    keyId,
    endpointId,
    ...(after !== undefined ? { after } : {}),
    ...(eventIds !== undefined ? { eventIds } : {}),
    now: Date.now(),
  });

export async function getEndpoint(store: Store, endpointId: string): Promise<StoredEndpoint> {
  const e = await repo.findEndpoint(store.reader, endpointId);
  if (!e) throw webhookNotFound(endpointId);
  return e;
}

export const listEndpoints = (store: Store): Promise<StoredEndpoint[]> => repo.listEndpoints(store.reader);

/** One entry of the deliveries list: an attempt made, or the next one of a delivery still pending. */
export type DeliveryEntry = Pick<StoredAttempt, 'event_id' | 'attempt' | 'response_code' | 'next_attempt_at' | 'error'> & {
  readonly status: 'Delivered' | 'Failed' | 'Pending' | 'Dead';
  readonly duration_ms: number | null;
  readonly at: number | null;
};

/** Pending deliveries first (their next attempt), then attempts made, newest first. */
export async function deliveries(store: Store, endpointId: string, take: number): Promise<DeliveryEntry[]> {
  await getEndpoint(store, endpointId);
  const pending = (await repo.pending(store.reader, endpointId, take)).map((p): DeliveryEntry => ({
    event_id: p.event_id,
    attempt: p.attempts + 1,
    status: 'Pending',
    response_code: null,
    duration_ms: null,
    at: null,
    next_attempt_at: p.next_attempt_at,
    error: null,
  }));
  const made = await repo.attempts(store.reader, endpointId, Math.max(0, take - pending.length));
  return [...pending, ...made];
}
