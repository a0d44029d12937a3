import * as customFieldModule from '../../src/customfields/customfield.repository.js';
import type { CustomFieldDefRow } from '../../src/store/database.js';
import { call, objectCalls, STAMP, type SnapshotSource } from './snapshot-calls.js';

const { customFieldRepository: cf } = customFieldModule;

const DEFINITION: CustomFieldDefRow = {
  number: 1,
  label: 'Tier',
  field_type: 'Select',
  is_read_only: 0,
  allowed_values: '["A","B"]',
  sort: 10,
  updated_at: STAMP,
};

export const customFieldCalls: SnapshotSource = {
  source: 'src/customfields/customfield.repository.ts',
  exports: customFieldModule,
  builders: { valuesSql: 'customFieldRepository.readValues' },
  calls: objectCalls('customFieldRepository', cf, {
    readValues: [call('customerId', ({ db }) => cf.readValues(db, 'c-1'))],
    readFields: [
      call('customerId, every field', ({ db }) => cf.readFields(db, 'c-1')),
      call('customerId, numbers: 2', ({ db }) => cf.readFields(db, 'c-1', [1, 2])),
      call('customerId, numbers: 0', ({ db }) => cf.readFields(db, 'c-1', [])),
    ],
    listDefinitions: [call('', ({ db }) => cf.listDefinitions(db))],
    definitionsWithVersion: [call('', ({ db }) => cf.definitionsWithVersion(db))],
    bumpDefinitionsVersion: [call('', ({ db }) => cf.bumpDefinitionsVersion(db))],
    definitionsForWrite: [call('numbers: 2', ({ db }) => cf.definitionsForWrite(db, [1, 2]))],
    allDefinitionsForWrite: [call('', ({ db }) => cf.allDefinitionsForWrite(db))],
    findDefinitionForUpdate: [call('number', ({ db }) => cf.findDefinitionForUpdate(db, 1))],
    saveDefinition: [call('row', ({ db }) => cf.saveDefinition(db, DEFINITION))],
    deleteDefinition: [call('number', ({ db }) => cf.deleteDefinition(db, 1))],
    hasValues: [call('number', ({ db }) => cf.hasValues(db, 1))],
    distinctValues: [call('number', ({ db }) => cf.distinctValues(db, 1))],
    bumpCustomersWithValues: [call('number', ({ db }) => cf.bumpCustomersWithValues(db, 1))],
    stampCustomersWithValues: [call('number, stamp', ({ db }) => cf.stampCustomersWithValues(db, 1, STAMP))],
    deleteValuesOfField: [call('number', ({ db }) => cf.deleteValuesOfField(db, 1))],
    bumpVersion: [call('customerId', ({ db }) => cf.bumpVersion(db, 'c-1'))],
    bumpVersions: [call('customerIds: 2', ({ db }) => cf.bumpVersions(db, ['c-1', 'c-2']))],
    upsertValues: [
      call('customerId, values: 2, now', ({ db }) =>
        cf.upsertValues(
          db,
          'c-1',
          [
            { number: 1, value: '"A"' },
            { number: 2, value: '3' },
          ],
          STAMP,
        ),
      ),
    ],
    deleteValues: [call('customerId, numbers: 2', ({ db }) => cf.deleteValues(db, 'c-1', [1, 2]))],
    deleteAllValues: [call('customerId', ({ db }) => cf.deleteAllValues(db, 'c-1'))],
  }),
};
