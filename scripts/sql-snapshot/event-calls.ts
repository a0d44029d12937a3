import * as eventModule from '../../src/events/event.repository.js';
import { call, objectCalls, STAMP, type SnapshotSource } from './snapshot-calls.js';

const { eventRepository } = eventModule;

const EVENT = { sequence: 1, event_id: 'evt_1', type: 'order.created', occurred_at: STAMP, customer_id: null, order_id: 1, data: '{}' };

export const eventCalls: SnapshotSource = {
  source: 'src/events/event.repository.ts',
  exports: eventModule,
  calls: objectCalls('eventRepository', eventRepository, {
    insertMany: [call('rows: 2', ({ db }) => eventRepository.insertMany(db, [EVENT, { ...EVENT, sequence: 2, event_id: 'evt_2' }]))],
    list: [
      call('after, take', ({ db }) => eventRepository.list(db, 0, [], 1000)),
      call('after, types: 2, take', ({ db }) => eventRepository.list(db, 10, ['order.created', 'order.confirmed'], 1000)),
    ],
    ofCustomer: [call('customerId', ({ db }) => eventRepository.ofCustomer(db, 'c-1'))],
    ownerlessOfOrders: [call('orderIds: 2', ({ db }) => eventRepository.ownerlessOfOrders(db, [1, 2]))],
    replaceData: [call('sequence, data', ({ db }) => eventRepository.replaceData(db, 1, '{}'))],
    bySequences: [call('sequences: 2', ({ db }) => eventRepository.bySequences(db, [1, 2]))],
    oldest: [call('count', ({ db }) => eventRepository.oldest(db, 1000))],
    deleteThrough: [call('sequence', ({ db }) => eventRepository.deleteThrough(db, 10))],
    markPurged: [call('sequence', ({ db }) => eventRepository.markPurged(db, 10))],
  }),
};
