import * as auditModule from '../../src/audit/audit.repository.js';
import { call, objectCalls, STAMP, type SnapshotSource } from './snapshot-calls.js';

const { auditRepository } = auditModule;

export const auditCalls: SnapshotSource = {
  source: 'src/audit/audit.repository.ts',
  exports: auditModule,
  calls: objectCalls('auditRepository', auditRepository, {
    insert: [
      call('entry, at', ({ db }) =>
        auditRepository.insert(db, { keyId: 'key-1', action: 'bank.read', resourceType: 'order', resourceIds: ['1', '2'] }, STAMP),
      ),
    ],
    list: [
      call('after, take', ({ db }) => auditRepository.list(db, 0, 1000)),
      call('after, take, since', ({ db }) => auditRepository.list(db, 10, 1000, STAMP)),
    ],
  }),
};
