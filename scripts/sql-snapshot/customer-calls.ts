import type { CustomerAddress, CustomerData } from '../../src/customers/customer.columns.js';
import * as customerModule from '../../src/customers/customer.repository.js';
import * as customerWordsModule from '../../src/customers/customer.words.js';
import type { CustomerRow } from '../../src/store/database.js';
import { call, objectCalls, STAMP, type SnapshotSource } from './snapshot-calls.js';

const { customerRepository } = customerModule;
const { CUSTOMER_TEXT, customerWordsRepository } = customerWordsModule;

/** Every address column set: the widest shape of the hand-written customer statements. */
const ADDRESS: Required<CustomerAddress> = {
  salutation: 'Frau',
  first_name: 'Erika',
  last_name: 'Mustermann',
  postal_code: '50667',
  city: 'Köln',
  country: 'DE',
  street: 'Domkloster',
  street_number: '4',
  company: null,
  company2: null,
  addition_to_address: null,
};
const DATA: CustomerData = { external_id: 'ext-1', ...ADDRESS, quarter: null };
const ROW: CustomerRow = { customer_id: 'c-1', ...DATA, modified_at: STAMP, created_at: STAMP, custom_fields_version: 0 };
const WINDOW = { modifiedAfter: STAMP - 1000, modifiedAtMost: STAMP };

/** customers/customer.repository.ts, with the texts of customer.statements.ts it runs. */
export const customerCalls: SnapshotSource = {
  source: 'src/customers/customer.repository.ts',
  exports: customerModule,
  builders: { feedQuery: 'customerRepository.search and customerRepository.positionsAt' },
  calls: objectCalls('customerRepository', customerRepository, {
    touch: [call('customerIds: 3, stamp', ({ db }) => customerRepository.touch(db, ['c-1', 'c-2', 'c-3'], STAMP))],
    findById: [call('customerId', ({ db }) => customerRepository.findById(db, 'c-1'))],
    findMany: [call('customerIds: 2', ({ db }) => customerRepository.findMany(db, ['c-1', 'c-2']))],
    findForUpdate: [call('customerId', ({ db }) => customerRepository.findForUpdate(db, 'c-1'))],
    blank: [call('customerId, erasedAt', ({ db }) => customerRepository.blank(db, 'c-1', STAMP))],
    existingIds: [call('customerIds: 2', ({ db }) => customerRepository.existingIds(db, ['c-1', 'c-2']))],
    findByExternalId: [call('externalId', ({ db }) => customerRepository.findByExternalId(db, 'ext-1'))],
    findByIdentifiers: [
      call('identifiers: 2, no lower bound', ({ db }) => customerRepository.findByIdentifiers(db, ['c-1', 'ext-1'], undefined)),
      call('identifiers: 2, modifiedAfter', ({ db }) => customerRepository.findByIdentifiers(db, ['c-1', 'ext-1'], STAMP - 1000)),
    ],
    search: [
      call('{ modifiedAtMost }, no limit', ({ db }) => customerRepository.search(db, { modifiedAtMost: STAMP })),
      call('{ modifiedAfter, modifiedAtMost }, limit', ({ db }) => customerRepository.search(db, WINDOW, 100)),
      call('{ modifiedAfter, modifiedAtMost, after (tighter), through }, limit, offset', ({ db }) =>
        customerRepository.search(
          db,
          { ...WINDOW, after: { modifiedAt: STAMP - 500, customerId: 'c-1' }, through: { modifiedAt: STAMP, customerId: 'c-9' } },
          100,
          200,
        ),
      ),
      call('{ modifiedAtMost }, offset without limit', ({ db }) =>
        customerRepository.search(db, { modifiedAtMost: STAMP }, undefined, 200),
      ),
      call('{ modifiedAtMost, match: text words 2 }, limit', async ({ db }) =>
        customerRepository.search(db, { modifiedAtMost: STAMP, match: await db.textMatch(CUSTOMER_TEXT, ['mull', 'koln']) }, 1000),
      ),
    ],
    positionsAt: [
      call('{ modifiedAfter, modifiedAtMost }, offset, count', ({ db }) => customerRepository.positionsAt(db, WINDOW, 1000, 2)),
      call('{ modifiedAtMost, match: text words 1 }, offset, count', async ({ db }) =>
        customerRepository.positionsAt(db, { modifiedAtMost: STAMP, match: await db.textMatch(CUSTOMER_TEXT, ['mull']) }, 19, 2),
      ),
    ],
    writeData: [
      call('customerId, data (all 13 columns), provisionalStamp; no such row yet', ({ db }) =>
        customerRepository.writeData(db, 'c-1', DATA, STAMP),
      ),
    ],
    writeMany: [
      call('rows: 2, provisionalStamp', ({ db }) =>
        customerRepository.writeMany(
          db,
          [
            { customerId: 'c-1', data: DATA },
            { customerId: 'c-2', data: { ...DATA, external_id: 'ext-2' } },
          ],
          STAMP,
        ),
      ),
    ],
    insertNew: [call('rows: 2', ({ db }) => customerRepository.insertNew(db, [ROW, { ...ROW, customer_id: 'c-2', external_id: 'ext-2' }]))],
    updateAddress: [
      call('customerId, address (every column)', ({ db }) => customerRepository.updateAddress(db, 'c-1', ADDRESS)),
      call('customerId, address { city, country }', ({ db }) =>
        customerRepository.updateAddress(db, 'c-1', { city: 'Köln', country: 'DE' }),
      ),
      call('customerId, address {}', ({ db }) => customerRepository.updateAddress(db, 'c-1', {})),
    ],
    upsertByExternalId: [
      call('newId, externalId, address (every column), now', ({ db }) =>
        customerRepository.upsertByExternalId(db, 'c-new', 'ext-1', ADDRESS, STAMP),
      ),
      call('newId, externalId null, address {}, now', ({ db }) => customerRepository.upsertByExternalId(db, 'c-new', null, {}, STAMP)),
    ],
    holdersOfExternalIds: [call('externalIds: 2', ({ db }) => customerRepository.holdersOfExternalIds(db, ['ext-1', 'ext-2']))],
  }),
};

/** customers/customer.words.ts: the customers' text index. */
export const customerWordsCalls: SnapshotSource = {
  source: 'src/customers/customer.words.ts',
  exports: customerWordsModule,
  builders: { customerWords: 'no SQL of its own: the words customerWordsRepository writes' },
  calls: objectCalls('customerWordsRepository', customerWordsRepository, {
    writeOne: [call('row', ({ db }) => customerWordsRepository.writeOne(db, ROW))],
    write: [call('rows: 2', ({ db }) => customerWordsRepository.write(db, [ROW, { ...ROW, customer_id: 'c-2' }]))],
  }),
};
