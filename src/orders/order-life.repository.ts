import type { OrderPaymentRow, OrderRefundRow, PaymentStatus } from '../store/database.js';
import { chunks } from '../store/statement-texts.js';
import type { DbHandle } from '../store/store.js';
import { orderWordsRepository } from './order.words.js';

// The records of an order's life and the order's columns they move. A payment or a refund runs
// these, each written once (db.run); the order's row is locked first, so that two records of
// one order, from any process, are added up one after the other.

/** What a record of an order's life reads of the order: its state, currency and gross total, and what was paid and refunded. */
export interface LifeOfOrder {
  readonly order_id: number;
  readonly status: 'Open' | 'Confirmed' | 'Cancelled';
  readonly currency: string;
  readonly total_gross: string;
  readonly payment_status: PaymentStatus;
  readonly paid: string;
  readonly refunded: string;
}

/** Most ids one statement binds. */
const IDS_PER_STATEMENT = 500;

const LOCK_ORDER = 'select order_id, status, currency, total_gross, payment_status, paid, refunded from orders where order_id = ?';

const PAYMENT_COLUMNS = 'payment_id, order_id, amount, type, name, reference_number, paid_at, created_at';
const REFUND_COLUMNS = 'refund_id, order_id, amount, reason, reference_number, refunded_at, created_at';

const INSERT_PAYMENT =
  'insert into order_payments (order_id, amount, type, name, reference_number, paid_at, created_at) values (?, ?, ?, ?, ?, ?, ?)' +
  ` returning ${PAYMENT_COLUMNS}`;
const INSERT_REFUND =
  'insert into order_refunds (order_id, amount, reason, reference_number, refunded_at, created_at) values (?, ?, ?, ?, ?, ?)' +
  ` returning ${REFUND_COLUMNS}`;
const SET_PAYMENTS = 'update orders set paid = ?, refunded = ?, payment_status = ? where order_id = ?';
const FIND_PAYMENT = `select ${PAYMENT_COLUMNS} from order_payments where payment_id = ?`;
const FIND_REFUND = `select ${REFUND_COLUMNS} from order_refunds where refund_id = ?`;

/** A stored payment (ids as plain numbers). */
export type StoredPayment = Omit<OrderPaymentRow, 'payment_id'> & { payment_id: number };
/** A stored refund (ids as plain numbers). */
export type StoredRefund = Omit<OrderRefundRow, 'refund_id'> & { refund_id: number };

export type NewPayment = Omit<StoredPayment, 'payment_id'>;
export type NewRefund = Omit<StoredRefund, 'refund_id'>;

/** The order's amounts and status after a payment or refund. */
export interface PaymentState {
  readonly paid: string;
  readonly refunded: string;
  readonly payment_status: PaymentStatus;
}

// PostgreSQL returns bigints as text.
const payment = (row: StoredPayment): StoredPayment => ({
  ...row,
  payment_id: Number(row.payment_id),
  order_id: Number(row.order_id),
  paid_at: Number(row.paid_at),
  created_at: Number(row.created_at),
});
const refund = (row: StoredRefund): StoredRefund => ({
  ...row,
  refund_id: Number(row.refund_id),
  order_id: Number(row.order_id),
  refunded_at: Number(row.refunded_at),
  created_at: Number(row.created_at),
});

/** All SQL about an order's records after its confirmation. */
export const orderLifeRepository = {
  /** The order, its row locked for the rest of the transaction; undefined when unknown. */
  async lockOrder(db: DbHandle, orderId: number): Promise<LifeOfOrder | undefined> {
    const row = (await db.run<LifeOfOrder>(LOCK_ORDER + db.lockClause('update'), [orderId])).rows[0];
    return row ? { ...row, order_id: Number(row.order_id) } : undefined;
  },

  async insertPayment(db: DbHandle, p: NewPayment): Promise<StoredPayment> {
    const params = [p.order_id, p.amount, p.type, p.name, p.reference_number, p.paid_at, p.created_at];
    return payment((await db.run<StoredPayment>(INSERT_PAYMENT, params)).rows[0]!);
  },

  async insertRefund(db: DbHandle, r: NewRefund): Promise<StoredRefund> {
    const params = [r.order_id, r.amount, r.reason, r.reference_number, r.refunded_at, r.created_at];
    return refund((await db.run<StoredRefund>(INSERT_REFUND, params)).rows[0]!);
  },

  /** The payment columns and the order's states beside its words (the payment status is one). */
  async setPayments(db: DbHandle, orderId: number, s: PaymentState): Promise<void> {
    await orderLifeRepository.setPaymentColumns(db, orderId, s);
    await orderWordsRepository.setStates(db, orderId);
  },

  /** The payment columns only: for a write that writes the order's words itself afterwards (the confirmation). */
  async setPaymentColumns(db: DbHandle, orderId: number, s: PaymentState): Promise<void> {
    await db.run(SET_PAYMENTS, [s.paid, s.refunded, s.payment_status, orderId]);
  },

  async findPayment(db: DbHandle, paymentId: number): Promise<StoredPayment | undefined> {
    const row = (await db.run<StoredPayment>(FIND_PAYMENT, [paymentId])).rows[0];
    return row ? payment(row) : undefined;
  },

  async findRefund(db: DbHandle, refundId: number): Promise<StoredRefund | undefined> {
    const row = (await db.run<StoredRefund>(FIND_REFUND, [refundId])).rows[0];
    return row ? refund(row) : undefined;
  },

  /** Nulls the personal columns of these orders' payments and refunds. */
  async erasePersonal(db: DbHandle, orderIds: readonly number[]): Promise<void> {
    for (const ids of chunks(orderIds, IDS_PER_STATEMENT)) {
      await db.updateTable('order_payments').set({ name: null, reference_number: null }).where('order_id', 'in', ids).execute();
      await db.updateTable('order_refunds').set({ reference_number: null }).where('order_id', 'in', ids).execute();
    }
  },

  /** The ids of the orders whose payments or refunds an erasure changed: they get a new stamp. */
  async ordersWithPersonalRecords(db: DbHandle, customerId: string): Promise<number[]> {
    const rows = await db
      .selectFrom('orders')
      .select('order_id')
      .where('customer_id', '=', customerId)
      .where((eb) =>
        eb.or([
          eb.exists(
            eb
              .selectFrom('order_payments')
              .select('payment_id')
              .whereRef('order_payments.order_id', '=', 'orders.order_id')
              .where((p) => p.or([p('name', 'is not', null), p('reference_number', 'is not', null)])),
          ),
          eb.exists(
            eb
              .selectFrom('order_refunds')
              .select('refund_id')
              .whereRef('order_refunds.order_id', '=', 'orders.order_id')
              .where('reference_number', 'is not', null),
          ),
        ]),
      )
      .execute();
    return rows.map((r) => Number(r.order_id));
  },
};
