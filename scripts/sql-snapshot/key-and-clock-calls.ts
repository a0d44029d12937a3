import * as keyModule from '../../src/auth/key.repository.js';
import * as syncClock from '../../src/store/sync-clock.js';
import { call, objectCalls, STAMP, type CallsOf, type SnapshotSource } from './snapshot-calls.js';

const { keyRepository } = keyModule;

export const keyCalls: SnapshotSource = {
  source: 'src/auth/key.repository.ts',
  exports: keyModule,
  calls: objectCalls('keyRepository', keyRepository, {
    insert: [
      call('row', ({ db }) =>
        keyRepository.insert(db, {
          id: 'key-1',
          name: 'ops',
          key_hash: 'hash',
          permissions: 'all',
          created_at: STAMP,
          revoked_at: null,
          last_used_at: null,
        }),
      ),
    ],
    findByHash: [call('keyHash', ({ db }) => keyRepository.findByHash(db, 'hash'))],
    findById: [call('id', ({ db }) => keyRepository.findById(db, 'key-1'))],
    list: [call('', ({ db }) => keyRepository.list(db))],
    countOtherAdmins: [call('exceptId', ({ db }) => keyRepository.countOtherAdmins(db, 'key-1'))],
    markUsed: [call('id, at', ({ db }) => keyRepository.markUsed(db, 'key-1', STAMP))],
    count: [call('', ({ db }) => keyRepository.count(db))],
    revoke: [call('id, at', ({ db }) => keyRepository.revoke(db, 'key-1', STAMP))],
  }),
};

const clockCalls: CallsOf<typeof syncClock> = {
  nextStamp: [call('now', ({ db }) => syncClock.nextStamp(db, STAMP))],
  committedWatermark: [call('', ({ db }) => syncClock.committedWatermark(db))],
  nextStampAndEvents: [call('count, now', ({ db }) => syncClock.nextStampAndEvents(db, 3, STAMP))],
  eventBounds: [call('', ({ db }) => syncClock.eventBounds(db))],
};

export const syncClockCalls: SnapshotSource = { source: 'src/store/sync-clock.ts', exports: syncClock, calls: clockCalls };
