import * as orderRecordsModule from '../../src/orders/order-life.records.js';
import { call, objectCalls, type SnapshotSource } from './snapshot-calls.js';

const { orderRecordsRepository, withRecords } = orderRecordsModule;

/** orders/order-life.records.ts: the records of many orders' lives, read for a chunk of the feed at once. */
export const orderRecordsCalls: SnapshotSource = {
  source: 'src/orders/order-life.records.ts',
  exports: orderRecordsModule,
  calls: {
    ...objectCalls('orderRecordsRepository', orderRecordsRepository, {
      recordsOf: [call('orderIds: 3 (bound as 4)', ({ sql, db }) => orderRecordsRepository.recordsOf(sql, db, [1, 2, 3]))],
    }),
    withRecords: [
      call('orders: 1 confirmed, 1 open', ({ sql, db }) =>
        withRecords(sql, db, [
          { order_id: 1, status: 'Confirmed' },
          { order_id: 2, status: 'Open' },
        ]),
      ),
    ],
  },
};
