import { Type } from '@sinclair/typebox';
import { routeRead } from '../store/read-replica.js';
import type { Store } from '../store/store.js';
import { defineOperation, type AnyOperation } from '../wire/operation.js';
import { minWatermarkOf } from '../wire/read-your-writes.js';
import { WireDate } from '../wire/schema-types.js';
import { EVENT_TYPES } from '../writes/event-types.js';
import { listEvents, toEvent } from './event.service.js';

export const EVENTS_TAKE = 1000;
export const MAX_EVENTS_TAKE = 10_000;

const EventTypeSchema = Type.Union(
  EVENT_TYPES.map((t) => Type.Literal(t)),
  { description: 'An event type.' },
);

export const GetEventsRequest = Type.Object(
  {
    After: Type.Optional(
      Type.Integer({
        minimum: 0,
        description: 'Only events with a Sequence above this: the last Sequence the consumer saw (0: from the oldest kept).',
      }),
    ),
    Types: Type.Optional(
      Type.Array(EventTypeSchema, {
        maxItems: EVENT_TYPES.length * 4,
        description: 'Only these types (e.g. Types=order.confirmed,order.cancelled). Empty or omitted: every type.',
      }),
    ),
    Take: Type.Optional(
      Type.Integer({
        minimum: 0,
        maximum: MAX_EVENTS_TAKE,
        description: `Most events (default ${EVENTS_TAKE}, at most ${MAX_EVENTS_TAKE}).`,
      }),
    ),
  },
  { $id: 'GetEvents' },
);

export const EventSchema = Type.Object(
  {
    Id: Type.String({ description: 'evt_…: the same on every webhook delivery of the event (webhook-id).' }),
    Type: EventTypeSchema,
    Sequence: Type.Integer({ description: 'Increases strictly in commit order.' }),
    OccurredAt: WireDate({ description: 'When the change committed.' }),
    Data: Type.Unknown({ description: 'The resource after the change, as a key without bank sees it.' }),
  },
  { $id: 'Event' },
);

/** The pull feed of events. */
export function eventOperations(store: Store): AnyOperation[] {
  return [
    defineOperation({
      name: 'GetEvents',
      tag: 'Events',
      summary: 'The event feed: every change, in commit order, after a Sequence.',
      description:
        'Events with Sequence above After, ascending, at most Take. Pass the last Sequence seen as After: no event is missed, ' +
        'also under concurrent commits. Events are kept EVENT_RETENTION_DAYS; an After older than the oldest kept event answers ' +
        '410 EventsExpired (resync from the feeds, then follow from a newer Sequence).',
      routes: [{ method: 'GET', path: '/events/' }],
      permission: 'all',
      request: GetEventsRequest,
      response: Type.Array(EventSchema),
      example: { After: 0, Take: 100 },
      handle: async (req, call) => {
        const rows = await routeRead(store, minWatermarkOf(call, 'GetEvents'), (s) =>
          listEvents(s, req.After ?? 0, req.Types ?? [], req.Take ?? EVENTS_TAKE),
        );
        return rows.map(toEvent);
      },
    }),
  ];
}
