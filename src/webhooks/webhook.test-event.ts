import { newEventId } from '../events/index.js';
import type { Store } from '../store/store.js';
import type { DateStyle } from '../wire/dates.js';
import type { Casing } from '../wire/negotiation.js';
import { toJson, wireDate } from '../wire/serializer.js';
import type { WriteDoor } from '../writes/unit.js';
import { signingSecrets } from './webhook.endpoint-secrets.js';
import { sendWebhook } from './webhook.sender.js';
import { signatureHeaders } from './webhook.signature.js';
import { getEndpoint, type DeliveryEntry } from './webhook.service.js';
import { logTestAttemptWrite } from './webhook.writes.js';

/**
 * The type of a test event. It is not one of EVENT_TYPES: no change makes it, no endpoint
 * subscribes to it, and the pull feed never holds it (it concerns one endpoint and its operator).
 */
export const WEBHOOK_TEST_EVENT = 'webhook.test';

/** What sending a test event needs of the configuration. */
export interface TestEventSettings {
  readonly secretKey: Buffer | undefined;
  readonly allowPrivate: boolean;
  readonly timeoutMs: number;
  /** The body is written as every delivery's (the deployment's casing and date style). */
  readonly casing: Casing;
  readonly dateStyle: DateStyle;
}

/**
 * Sends a `webhook.test` event to one endpoint now, enabled or not (a receiver can be checked before
 * it is switched on): signed and shaped as every delivery, `Sequence` 0 since the feed does not hold
 * it. It is attempted once, here, and never again; the attempt is recorded in the endpoint's
 * deliveries list and answered.
 */
export async function sendTestEvent(
  store: Store,
  writes: WriteDoor,
  settings: TestEventSettings,
  endpointId: string,
): Promise<DeliveryEntry> {
  const endpoint = await getEndpoint(store, endpointId);
  const at = Date.now();
  const id = newEventId(at);
  const event = {
    Id: id,
    Type: WEBHOOK_TEST_EVENT,
    Sequence: 0,
    OccurredAt: wireDate(at),
    Data: { WebhookId: endpoint.endpoint_id, Url: endpoint.url },
  };
  const body = toJson(event, settings.casing, settings.dateStyle, true);
  const headers = signatureHeaders({ id, timestamp: new Date(at), body, secrets: signingSecrets(endpoint, settings.secretKey, at) });
  const result = await sendWebhook({
    url: endpoint.url,
    body,
    headers,
    timeoutMs: settings.timeoutMs,
    allowPrivate: settings.allowPrivate,
  });
  const delivered = result.outcome === 'delivered';
  const attempt = {
    endpoint_id: endpoint.endpoint_id,
    event_id: id,
    attempt: 1,
    status: delivered ? ('Delivered' as const) : ('Failed' as const),
    response_code: result.responseCode ?? null,
    duration_ms: result.durationMs,
    at,
    next_attempt_at: null,
    error: delivered ? null : (result.error ?? 'failed'),
  };
  await writes.run(logTestAttemptWrite, attempt);
  return attempt;
}
