import * as orderLifeModule from '../../src/orders/order-life.repository.js';
import { call, objectCalls, STAMP, type SnapshotSource } from './snapshot-calls.js';

const { orderLifeRepository } = orderLifeModule;

const PAYMENT = { order_id: 1, amount: '12.30', type: 'PayPal', name: 'Rest', reference_number: 'PP-1', paid_at: STAMP, created_at: STAMP };
const REFUND = { order_id: 1, amount: '2.00', reason: 'Damaged', reference_number: 'RF-1', refunded_at: STAMP, created_at: STAMP };

/** orders/order-life.repository.ts: the records of an order's life after its confirmation. */
export const orderLifeCalls: SnapshotSource = {
  source: 'src/orders/order-life.repository.ts',
  exports: orderLifeModule,
  calls: objectCalls('orderLifeRepository', orderLifeRepository, {
    lockOrder: [call('orderId', ({ db }) => orderLifeRepository.lockOrder(db, 1))],
    insertPayment: [call('payment', ({ db }) => orderLifeRepository.insertPayment(db, PAYMENT))],
    insertRefund: [call('refund', ({ db }) => orderLifeRepository.insertRefund(db, REFUND))],
    setPayments: [
      call('orderId, state', ({ db }) =>
        orderLifeRepository.setPayments(db, 1, { paid: '12.30', refunded: '2.00', payment_status: 'PartiallyRefunded' }),
      ),
    ],
    setPaymentColumns: [
      call('orderId, state', ({ db }) =>
        orderLifeRepository.setPaymentColumns(db, 1, { paid: '12.30', refunded: '0.00', payment_status: 'PartiallyPaid' }),
      ),
    ],
    findPayment: [call('paymentId', ({ db }) => orderLifeRepository.findPayment(db, 1))],
    findRefund: [call('refundId', ({ db }) => orderLifeRepository.findRefund(db, 1))],
    erasePersonal: [call('orderIds: 2', ({ db }) => orderLifeRepository.erasePersonal(db, [1, 2]))],
    ordersWithPersonalRecords: [call('customerId', ({ db }) => orderLifeRepository.ordersWithPersonalRecords(db, 'c-1'))],
  }),
};
