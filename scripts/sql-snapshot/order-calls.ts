import * as idempotencyModule from '../../src/orders/idempotency.repository.js';
import * as orderModule from '../../src/orders/order.repository.js';
import * as orderWordsModule from '../../src/orders/order.words.js';
import { contentRecord } from '../../src/orders/order.content.js';
import { call, objectCalls, STAMP, type SnapshotSource } from './snapshot-calls.js';

const { orderRepository } = orderModule;
const { idempotencyRepository } = idempotencyModule;
const { ORDER_TEXT, orderWordsRepository } = orderWordsModule;

const ORDER = { order_number: 'O-1', note: null, created_at: STAMP };
const CONTENT = contentRecord({
  Currency: 'EUR',
  PricesIncludeTax: false,
  Lines: [{ Sku: 'PEN', Name: 'Pen', Quantity: 3, UnitPrice: 10n, TaxRate: 1900 }],
});
const FILTERED = {
  orderIds: [1, 2],
  orderNumbers: ['O-1'],
  customerIds: ['c-1'],
  statuses: ['Confirmed' as const, 'Cancelled' as const],
  skus: ['PEN', 'INK'],
  currencies: ['EUR'],
  paymentStatuses: ['Paid' as const],
  fulfillmentStatuses: ['Fulfilled' as const],
  modifiedAfter: STAMP - 1000,
  modifiedAtMost: STAMP,
};
const CONFIRMED = { customer_id: 'c-1', confirmed_at: STAMP, confirmation: '{}', confirmation_hash: 'hash' };
const REF = { apiKeyId: 'key-1', key: 'idem-1' };

export const orderCalls: SnapshotSource = {
  source: 'src/orders/order.repository.ts',
  exports: orderModule,
  calls: objectCalls('orderRepository', orderRepository, {
    touch: [call('orderIds: 3, stamp', ({ db }) => orderRepository.touch(db, ['1', '2', '3'], STAMP))],
    insert: [call('row with a line', ({ db }) => orderRepository.insert(db, { ...ORDER, content: CONTENT }))],
    insertNew: [call('rows: 2', ({ db }) => orderRepository.insertNew(db, [ORDER, { ...ORDER, order_number: 'O-2' }]))],
    insertNewConfirmed: [call('rows: 1', ({ db }) => orderRepository.insertNewConfirmed(db, [{ ...ORDER, ...CONFIRMED }]))],
    setOrderNumber: [call('orderId, orderNumber', ({ db }) => orderRepository.setOrderNumber(db, 1, 'O-1'))],
    orderNumberTaken: [call('orderNumber', ({ db }) => orderRepository.orderNumberTaken(db, 'O-1'))],
    find: [call('orderId', ({ db }) => orderRepository.find(db, 1))],
    findShown: [call('orderId', ({ db }) => orderRepository.findShown(db, 1))],
    personalDataOfCustomer: [call('customerId', ({ db }) => orderRepository.personalDataOfCustomer(db, 'c-1'))],
    replaceConfirmation: [call('orderId, confirmation, hash', ({ db }) => orderRepository.replaceConfirmation(db, 1, '{}', 'hash'))],
    findMany: [call('orderIds: 2', ({ db }) => orderRepository.findMany(db, [1, 2]))],
    markConfirmed: [
      call('orderId, state', ({ db }) => orderRepository.markConfirmed(db, 1, CONFIRMED)),
      call('orderId, state, payments', ({ db }) =>
        orderRepository.markConfirmed(db, 1, CONFIRMED, () => ({ paid: '1.00', refunded: '0.00', payment_status: 'PartiallyPaid' })),
      ),
    ],
    replaceContent: [call('orderId, note, content: 1 line', ({ db }) => orderRepository.replaceContent(db, 1, null, CONTENT))],
    markCancelled: [call('orderId, at', ({ db }) => orderRepository.markCancelled(db, 1, STAMP))],
    search: [
      call('window, limit', ({ db }) => orderRepository.search(db, { modifiedAtMost: STAMP }, 1000)),
      call('every filter, after, limit, offset', ({ db }) => orderRepository.search(db, FILTERED, 1000, 20)),
      call('window, match: text words 1, limit', async ({ db }) =>
        orderRepository.search(db, { modifiedAtMost: STAMP, match: await db.textMatch(ORDER_TEXT, ['anna']) }, 1000),
      ),
      call('modifiedAfter, keyset after, through', ({ db }) =>
        orderRepository.search(
          db,
          {
            modifiedAfter: STAMP - 1000,
            modifiedAtMost: STAMP,
            after: { modifiedAt: STAMP - 10, orderId: 7 },
            through: { modifiedAt: STAMP, orderId: 9 },
          },
          1000,
        ),
      ),
    ],
    count: [call('every filter', ({ db }) => orderRepository.count(db, FILTERED))],
    confirmedIds: [call('every filter', ({ db }) => orderRepository.confirmedIds(db, FILTERED))],
    takenOrderNumbers: [call('orderNumbers: 2', ({ db }) => orderRepository.takenOrderNumbers(db, ['O-1', 'O-2']))],
    positionsAt: [
      call('filter, offset, count', ({ db }) => orderRepository.positionsAt(db, FILTERED, 99, 2)),
      call('window, match: text words 2, offset, count', async ({ db }) =>
        orderRepository.positionsAt(db, { modifiedAtMost: STAMP, match: await db.textMatch(ORDER_TEXT, ['anna', 'mull']) }, 19, 2),
      ),
    ],
    positionsWithin: [
      call('statuses, match: text words 1, offset, count, budget', async ({ db }) =>
        orderRepository.positionsWithin(
          db,
          { modifiedAtMost: STAMP, statuses: ['Open'], match: await db.textMatch(ORDER_TEXT, ['anna'], 'all') },
          49,
          2,
          10_000,
        ),
      ),
    ],
  }),
};

/** orders/order.words.ts: the orders' text index. */
export const orderWordsCalls: SnapshotSource = {
  source: 'src/orders/order.words.ts',
  exports: orderWordsModule,
  builders: {
    orderWords: 'no SQL of its own: the words orderWordsRepository writes',
    orderStates: 'no SQL of its own: the states orderWordsRepository writes',
    statusWord: 'no SQL of its own: a word orderStates writes',
    paymentWord: 'no SQL of its own: a word orderStates writes',
    fulfillmentWord: 'no SQL of its own: a word orderStates writes',
  },
  calls: objectCalls('orderWordsRepository', orderWordsRepository, {
    writeOne: [
      call('order', ({ db }) =>
        orderWordsRepository.writeOne(db, {
          order_id: 1,
          order_number: 'O-1',
          customer_id: 'c-1',
          confirmation: '{}',
          status: 'Open' as const,
          payment_status: 'Unpaid' as const,
          fulfillment_status: 'Unfulfilled' as const,
        }),
      ),
    ],
    setStates: [call('orderId', ({ db }) => orderWordsRepository.setStates(db, 1))],
    write: [
      call('orders: 2', ({ db }) =>
        orderWordsRepository.write(db, [
          {
            order_id: 1,
            order_number: 'O-1',
            customer_id: null,
            confirmation: null,
            status: 'Open' as const,
            payment_status: 'Unpaid' as const,
            fulfillment_status: 'Unfulfilled' as const,
          },
          {
            order_id: 2,
            order_number: 'O-2',
            customer_id: null,
            confirmation: null,
            status: 'Open' as const,
            payment_status: 'Unpaid' as const,
            fulfillment_status: 'Unfulfilled' as const,
          },
        ]),
      ),
    ],
    refresh: [call('orderIds: 2', ({ db }) => orderWordsRepository.refresh(db, [1, 2]))],
  }),
};

export const idempotencyCalls: SnapshotSource = {
  source: 'src/orders/idempotency.repository.ts',
  exports: idempotencyModule,
  calls: objectCalls('idempotencyRepository', idempotencyRepository, {
    find: [call('ref', ({ db }) => idempotencyRepository.find(db, REF))],
    insertRunning: [
      call('ref, operation, requestHash, now', ({ db }) => idempotencyRepository.insertRunning(db, REF, 'ConfirmOrder', 'hash', STAMP)),
    ],
    replace: [
      call('ref, seenCreatedAt, operation, requestHash, now', ({ db }) =>
        idempotencyRepository.replace(db, REF, STAMP - 1000, 'ConfirmOrder', 'hash', STAMP),
      ),
    ],
    complete: [call('ref, claimedAt, status, body', ({ db }) => idempotencyRepository.complete(db, REF, STAMP, 200, '{}'))],
    delete: [call('ref, claimedAt', ({ db }) => idempotencyRepository.delete(db, REF, STAMP))],
    deleteOlderThan: [call('cutoff', ({ db }) => idempotencyRepository.deleteOlderThan(db, STAMP))],
  }),
};
