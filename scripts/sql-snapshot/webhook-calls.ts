import * as webhookModule from '../../src/webhooks/webhook.repository.js';
import { call, objectCalls, STAMP, type SnapshotSource } from './snapshot-calls.js';

const { webhookRepository: repo } = webhookModule;

const ENDPOINT = {
  endpoint_id: 'wh_1',
  url: 'https://erp.example.com/hook',
  event_types: '[]',
  description: '',
  disabled_at: null,
  disabled_reason: null,
  secret: 'whsec_x',
  previous_secret: null,
  previous_secret_until: null,
  cursor: 0,
  created_at: STAMP,
  updated_at: STAMP,
};
const JOB = { endpoint_id: 'wh_1', event_sequence: 7, attempts: 0, failures: 0 };

export const webhookCalls: SnapshotSource = {
  source: 'src/webhooks/webhook.repository.ts',
  exports: webhookModule,
  calls: objectCalls('webhookRepository', repo, {
    insertEndpoint: [call('row', ({ db }) => repo.insertEndpoint(db, ENDPOINT))],
    startCursorAtNewestEvent: [call('endpointId', ({ db }) => repo.startCursorAtNewestEvent(db, 'wh_1'))],
    findEndpoint: [call('endpointId', ({ db }) => repo.findEndpoint(db, 'wh_1'))],
    listEndpoints: [call('', ({ db }) => repo.listEndpoints(db))],
    endpointsByIds: [call('endpointIds: 2', ({ db }) => repo.endpointsByIds(db, ['wh_1', 'wh_2']))],
    updateEndpoint: [call('endpointId, set', ({ db }) => repo.updateEndpoint(db, 'wh_1', { description: 'ERP', updated_at: STAMP }))],
    deleteEndpoint: [call('endpointId', ({ db }) => repo.deleteEndpoint(db, 'wh_1'))],
    anyEnabled: [call('', ({ db }) => repo.anyEnabled(db))],
    anyBehind: [call('', ({ db }) => repo.anyBehind(db))],
    anyDue: [call('now', ({ db }) => repo.anyDue(db, STAMP))],
    endpointsBehind: [call('', ({ db }) => repo.endpointsBehind(db))],
    eventsAfter: [call('cursor, limit', ({ db }) => repo.eventsAfter(db, 10, 1000))],
    queue: [call('endpointId, sequences: 2, now', ({ db }) => repo.queue(db, 'wh_1', [11, 12], STAMP))],
    replayable: [
      call('types: 1, after', ({ db }) => repo.replayable(db, ['order.created'], 10, undefined)),
      call('no types, eventIds: 2', ({ db }) => repo.replayable(db, [], undefined, ['evt_1', 'evt_2'])),
    ],
    claim: [
      call('owner, now, lease, limit', ({ db }) => repo.claim(db, 'd-1', STAMP, STAMP + 15000, 32, [])),
      call('owner, now, lease, limit, skip: 1', ({ db }) => repo.claim(db, 'd-1', STAMP, STAMP + 15000, 32, ['wh_2'])),
    ],
    settle: [
      call('job, owner, state', ({ db }) =>
        repo.settle(db, JOB, 'd-1', { state: 'Delivered', attempts: 1, failures: 0, next_attempt_at: STAMP }),
      ),
    ],
    logAttempts: [
      call('rows: 2', ({ db }) => {
        const row = {
          endpoint_id: 'wh_1',
          event_sequence: 7,
          event_id: 'evt_1',
          attempt: 1,
          status: 'Delivered' as const,
          response_code: 200,
          duration_ms: 12,
          at: STAMP,
          next_attempt_at: null,
          error: null,
        };
        return repo.logAttempts(db, [
          row,
          { ...row, event_sequence: 8, event_id: 'evt_2', status: 'Failed' as const, response_code: null, error: 'connection refused' },
        ]);
      }),
    ],
    logUnfedAttempt: [
      call('row', ({ db }) =>
        repo.logUnfedAttempt(db, {
          endpoint_id: 'wh_1',
          event_id: 'evt_3',
          attempt: 1,
          status: 'Failed',
          response_code: null,
          duration_ms: 3,
          at: STAMP,
          next_attempt_at: null,
          error: 'connection refused',
        }),
      ),
    ],
    attempts: [call('endpointId, take', ({ db }) => repo.attempts(db, 'wh_1', 100))],
    pending: [call('endpointId, take', ({ db }) => repo.pending(db, 'wh_1', 100))],
    oldestUndelivered: [call('', ({ db }) => repo.oldestUndelivered(db))],
    purgeOfPurgedEvents: [call('', ({ db }) => repo.purgeOfPurgedEvents(db))],
  }),
};
