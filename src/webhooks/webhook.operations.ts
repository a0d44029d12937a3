import { Type } from '@sinclair/typebox';
import type { Store } from '../store/store.js';
import { defineOperation, type AnyOperation } from '../wire/operation.js';
import { WireDate } from '../wire/schema-types.js';
import { wireDate } from '../wire/serializer.js';
import { EVENT_TYPES } from '../writes/event-types.js';
import type { WriteDoor } from '../writes/unit.js';
import type { StoredEndpoint } from './webhook.repository.js';
import { sendTestEvent, WEBHOOK_TEST_EVENT, type TestEventSettings } from './webhook.test-event.js';
import {
  createEndpoint,
  deleteEndpoint,
  deliveries,
  getEndpoint,
  listEndpoints,
  replay,
  rotateSecret,
  updateEndpoint,
  type DeliveryEntry,
} from './webhook.service.js';

export const DELIVERIES_TAKE = 100;
export const MAX_DELIVERIES_TAKE = 1000;
// As every string field but Note: the same length limit (docs/wire.md).
const URL_LENGTH = 255;

const EventTypes = Type.Array(Type.Union(EVENT_TYPES.map((t) => Type.Literal(t))), {
  maxItems: EVENT_TYPES.length,
  description: 'Event types to receive; empty: every type.',
});
const Url = Type.String({ minLength: 1, maxLength: URL_LENGTH, description: 'http(s) URL the events are POSTed to.' });
const Description = Type.String({ maxLength: 255 });
const Id = Type.String({ minLength: 1, maxLength: 100, description: 'wh_…' });

export const WebhookEndpoint = Type.Object(
  {
    Id: Type.String(),
    Url: Type.String(),
    Events: Type.Array(Type.String()),
    Description: Type.String(),
    Enabled: Type.Boolean(),
    DisabledReason: Type.Union([
      Type.String({ description: 'Disabled (by an operator) or Gone (the receiver answered 410).' }),
      Type.Null(),
    ]),
    CreatedAt: WireDate(),
  },
  { $id: 'WebhookEndpoint' },
);

export const WebhookEndpointWithSecret = Type.Object(
  { ...WebhookEndpoint.properties, Secret: Type.String({ description: 'whsec_…: shown only in this answer. Verify signatures with it.' }) },
  { $id: 'WebhookEndpointWithSecret' },
);

export const WebhookDelivery = Type.Object(
  {
    EventId: Type.String(),
    Attempt: Type.Integer({ description: 'Counts from 1.' }),
    Status: Type.Union(['Delivered', 'Failed', 'Pending', 'Dead'].map((s) => Type.Literal(s))),
    ResponseCode: Type.Union([Type.Integer(), Type.Null()]),
    DurationMs: Type.Union([Type.Integer(), Type.Null()]),
    At: Type.Union([WireDate(), Type.Null()]),
    NextAttemptAt: Type.Union([WireDate(), Type.Null()]),
    Error: Type.Union([
      Type.String({
        description:
          'Why the attempt failed, in a few words: "connection refused", "host resolves to a private address", "timeout after 10000 ms", "the receiver answered 500"…',
      }),
      Type.Null(),
    ]),
  },
  { $id: 'WebhookDelivery' },
);

const toEndpoint = (e: StoredEndpoint) => ({
  Id: e.endpoint_id,
  Url: e.url,
  Events: JSON.parse(e.event_types) as string[],
  Description: e.description,
  Enabled: e.disabled_at === null,
  DisabledReason: e.disabled_reason,
  CreatedAt: wireDate(e.created_at)!,
});

const toDelivery = (d: DeliveryEntry) => ({
  EventId: d.event_id,
  Attempt: d.attempt,
  Status: d.status,
  ResponseCode: d.response_code,
  DurationMs: d.duration_ms,
  At: wireDate(d.at),
  NextAttemptAt: wireDate(d.next_attempt_at),
  Error: d.error,
});

const ById = Type.Object({ Id }, { $id: 'WebhookById' });
const EXAMPLE_ID = 'wh_0123456789abcdef01234567';
// The delete example names another endpoint, so that the examples after it (rotate, deliveries,
// replay) still find theirs when the examples are tried in order.
const EXAMPLE_DELETED_ID = 'wh_89abcdef0123456789abcdef';
const NOT_FOUND = 'No webhook endpoint with this Id.';

/** Webhook endpoints (operator): register, change, rotate, test, inspect deliveries, replay. */
export function webhookOperations(store: Store, writes: WriteDoor, settings: TestEventSettings): AnyOperation[] {
  return [
    defineOperation({
      name: 'CreateWebhook',
      tag: 'Webhooks',
      summary: 'Register a webhook endpoint (operator); the answer shows its signing Secret, once.',
      description:
        'It receives the events committed after its creation (older ones by replay). URLs are http(s) on public addresses unless WEBHOOK_ALLOW_PRIVATE.',
      routes: [{ method: 'POST', path: '/webhooks' }],
      permission: 'admin',
      request: Type.Object({ Url, Events: Type.Optional(EventTypes), Description: Type.Optional(Description) }, { $id: 'CreateWebhook' }),
      response: WebhookEndpointWithSecret,
      successStatus: 201,
      example: { Url: 'https://erp.example.com/hooks/ordergate', Events: ['order.confirmed', 'order.cancelled'], Description: 'ERP' },
      handle: async (req, call) => {
        const { endpoint, secret } = await createEndpoint(writes, settings, call.key.id, {
          url: req.Url,
          types: req.Events ?? [],
          description: req.Description ?? '',
        });
        return { ...toEndpoint(endpoint), Secret: secret };
      },
    }),
    defineOperation({
      name: 'ListWebhooks',
      tag: 'Webhooks',
      summary: 'Every webhook endpoint (operator); secrets are never shown again.',
      routes: [{ method: 'GET', path: '/webhooks' }],
      permission: 'admin',
      request: Type.Object({}, { $id: 'ListWebhooks' }),
      response: Type.Array(WebhookEndpoint),
      handle: async () => (await listEndpoints(store)).map(toEndpoint),
    }),
    defineOperation({
      name: 'GetWebhook',
      tag: 'Webhooks',
      summary: 'One webhook endpoint (operator).',
      routes: [{ method: 'GET', path: '/webhooks/{Id}' }],
      permission: 'admin',
      request: Type.Object({ Id }, { $id: 'GetWebhook' }),
      response: WebhookEndpoint,
      example: { Id: EXAMPLE_ID },
      notFound: NOT_FOUND,
      handle: async (req) => toEndpoint(await getEndpoint(store, req.Id)),
    }),
    defineOperation({
      name: 'UpdateWebhook',
      tag: 'Webhooks',
      summary: 'Change a webhook endpoint (operator): Url, Events, Description, Enabled.',
      description: 'Enabling a disabled endpoint starts it at the newest event; events of the pause reach it by replay.',
      routes: [{ method: 'PUT', path: '/webhooks/{Id}' }],
      permission: 'admin',
      request: Type.Object(
        {
          Id,
          Url: Type.Optional(Url),
          Events: Type.Optional(EventTypes),
          Description: Type.Optional(Description),
          Enabled: Type.Optional(Type.Boolean()),
        },
        { $id: 'UpdateWebhook' },
      ),
      response: WebhookEndpoint,
      example: { Id: EXAMPLE_ID, Enabled: true },
      notFound: NOT_FOUND,
      handle: async (req, call) =>
        toEndpoint(
          await updateEndpoint(writes, settings, call.key.id, req.Id, {
            ...(req.Url !== undefined ? { url: req.Url } : {}),
            ...(req.Events !== undefined ? { types: req.Events } : {}),
            ...(req.Description !== undefined ? { description: req.Description } : {}),
            ...(req.Enabled !== undefined ? { enabled: req.Enabled } : {}),
          }),
        ),
    }),
    defineOperation({
      name: 'DeleteWebhook',
      tag: 'Webhooks',
      summary: 'Remove a webhook endpoint and its deliveries (operator); 204.',
      routes: [{ method: 'DELETE', path: '/webhooks/{Id}' }],
      permission: 'admin',
      request: ById,
      response: Type.Null(),
      successStatus: 204,
      example: { Id: EXAMPLE_DELETED_ID },
      notFound: NOT_FOUND,
      handle: (req, call) => deleteEndpoint(writes, call.key.id, req.Id),
    }),
    defineOperation({
      name: 'RotateWebhookSecret',
      tag: 'Webhooks',
      summary: 'A new signing secret (operator), shown once; the old one signs beside it for 24 h.',
      routes: [{ method: 'POST', path: '/webhooks/{Id}/rotate-secret' }],
      permission: 'admin',
      request: Type.Object({ Id }, { $id: 'RotateWebhookSecret' }),
      response: WebhookEndpointWithSecret,
      example: { Id: EXAMPLE_ID },
      notFound: NOT_FOUND,
      handle: async (req, call) => {
        const { endpoint, secret } = await rotateSecret(writes, settings, call.key.id, req.Id);
        return { ...toEndpoint(endpoint), Secret: secret };
      },
    }),
    defineOperation({
      name: 'GetWebhookDeliveries',
      tag: 'Webhooks',
      summary: 'Recent delivery attempts of an endpoint (operator), newest first; waiting deliveries as Pending.',
      routes: [{ method: 'GET', path: '/webhooks/{Id}/deliveries' }],
      permission: 'admin',
      request: Type.Object(
        {
          Id,
          Take: Type.Optional(
            Type.Integer({
              minimum: 0,
              maximum: MAX_DELIVERIES_TAKE,
              description: `Most entries (default ${DELIVERIES_TAKE}, at most ${MAX_DELIVERIES_TAKE}).`,
            }),
          ),
        },
        { $id: 'GetWebhookDeliveries' },
      ),
      response: Type.Array(WebhookDelivery),
      example: { Id: EXAMPLE_ID, Take: 20 },
      notFound: NOT_FOUND,
      handle: async (req) => (await deliveries(store, req.Id, req.Take ?? DELIVERIES_TAKE)).map(toDelivery),
    }),
    defineOperation({
      name: 'TestWebhook',
      tag: 'Webhooks',
      summary: `Send a ${WEBHOOK_TEST_EVENT} event to an endpoint now (operator); 202 with the attempt, delivered or not.`,
      description:
        `Signed as every delivery; its Data is {WebhookId, Url}, its Sequence 0: the pull feed (GET /events/) does not hold it and no other endpoint receives it. ` +
        'It is attempted once, also on a disabled endpoint, and never retried; the attempt shows in the deliveries list. A failed attempt carries its reason in Error.',
      routes: [{ method: 'POST', path: '/webhooks/{Id}/test' }],
      permission: 'admin',
      request: Type.Object({ Id }, { $id: 'TestWebhook' }),
      response: WebhookDelivery,
      successStatus: 202,
      example: { Id: EXAMPLE_ID },
      notFound: NOT_FOUND,
      handle: async (req) => toDelivery(await sendTestEvent(store, writes, settings, req.Id)),
    }),
    defineOperation({
      name: 'ReplayWebhook',
      tag: 'Webhooks',
      summary: 'Deliver kept events again to an endpoint (operator): those after a Sequence, or by id; 202.',
      routes: [{ method: 'POST', path: '/webhooks/{Id}/replay' }],
      permission: 'admin',
      request: Type.Object(
        {
          Id,
          After: Type.Optional(Type.Integer({ minimum: 0, description: 'Events with a Sequence above this (of the endpoint’s types).' })),
          EventIds: Type.Optional(Type.Array(Type.String({ maxLength: 100 }), { maxItems: 1000, description: 'These events (any type).' })),
        },
        { $id: 'ReplayWebhook' },
      ),
      response: Type.Object(
        { Id: Type.String(), Queued: Type.Integer({ description: 'Deliveries queued.' }) },
        { $id: 'ReplayWebhookResponse' },
      ),
      successStatus: 202,
      example: { Id: EXAMPLE_ID, After: 0 },
      notFound: NOT_FOUND,
      handle: async (req, call) => ({ Id: req.Id, Queued: await replay(writes, call.key.id, req.Id, req.After, req.EventIds) }),
    }),
  ];
}
