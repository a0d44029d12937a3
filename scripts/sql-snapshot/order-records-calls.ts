import * as orderRecordsModule from '../../src/orders/order-life.records.js';
import { call, objectCalls, type SnapshotSource } from './snapshot-calls.js';

const { orderRecordsRepository, withRecords } = orderRecordsModule;

/** orders/order-life.records.ts: the records of many orders' lives, read for a chunk of the feed at once. */
export const orderRecordsCalls: SnapshotSource = {
  source: 'src/orders/order-life.records.ts',
  exports: orderRecordsModule,
  builders: {
    recordsSql: 'orderRecordsRepository.recordsOf',
    recordsOfOrderSql: "orderRepository.findShown (the order's one read)",
    recordsOfAggregate: "no SQL of its own: the records of findShown's aggregate",
  },
  calls: {
    ...objectCalls('orderRecordsRepository', orderRecordsRepository, {
      recordsOf: [
        call('orderIds: 3 close together (a range)', ({ db }) => orderRecordsRepository.recordsOf(db, [1, 2, 3])),
        call('orderIds: 3 far apart (a list, bound as 4)', ({ db }) => orderRecordsRepository.recordsOf(db, [1, 5000, 9000])),
      ],
    }),
    withRecords: [
      call('orders: 1 confirmed, 1 open', ({ db }) =>
        withRecords(db, [
          { order_id: 1, status: 'Confirmed' },
          { order_id: 2, status: 'Open' },
        ]),
      ),
    ],
  },
};
