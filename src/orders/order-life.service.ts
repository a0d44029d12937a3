import { amountAboveRefundable, amountBeyondCurrency, orderNotConfirmed, orderNotFound } from '../errors.js';
import { decimalTextOf, minorDigitsOf, minorUnitsOf, minorUnitsOfText } from '../money/index.js';
import type { Store } from '../store/store.js';
import { defineWrite, type Unit } from '../writes/unit.js';
import type { WriteDoor } from '../writes/write-door.js';
import { IdempotencyKeys, completeKey, type HeldKey, type KeyRef } from './idempotency.writes.js';
import { recordOnce, requestHash, type RecordAnswer, type Recorded } from './order-life.record-once.js';
import {
  orderLifeRepository,
  type LifeOfOrder,
  type PaymentState,
  type StoredPayment,
  type StoredRefund,
} from './order-life.repository.js';
import type { CreatePaymentRequest, CreateRefundRequest } from './order-life.schemas.js';
import { paymentStatusOf } from './order-life.status.js';

export const PAYMENT_OPERATION = 'CreateOrderPayment';
export const REFUND_OPERATION = 'CreateOrderRefund';

/** The order's row, locked: a record needs a confirmed order. */
export async function confirmedOrder(unit: Unit, orderId: number): Promise<LifeOfOrder> {
  const order = await orderLifeRepository.lockOrder(unit.db, orderId);
  if (!order) throw orderNotFound(orderId);
  if (order.status !== 'Confirmed') throw orderNotConfirmed(orderId, order.status);
  return order;
}

/** The order's currency and an amount of the request in its minor units (400 on the field with more decimals than it has). */
function amountIn(order: LifeOfOrder, field: string, amount: number): { units: bigint; digits: number } {
  const digits = minorDigitsOf(order.currency) ?? 2;
  const units = minorUnitsOf(amount, digits);
  if (units === undefined) throw amountBeyondCurrency(field, order.currency, digits);
  return { units, digits };
}

const unitsOf = (text: string, digits: number): bigint => minorUnitsOfText(text, digits) ?? 0n;

/** The order's amounts once a payment or refund is added (a confirmed order has had its payment state since it was confirmed). */
function tally(order: LifeOfOrder, digits: number, paidNow: bigint, refundedNow: bigint) {
  const paid = unitsOf(order.paid, digits) + paidNow;
  const refunded = unitsOf(order.refunded, digits) + refundedNow;
  const anyPayment = paidNow > 0n || order.payment_status !== 'Unpaid';
  const payment_status = paymentStatusOf({ paid, refunded, gross: unitsOf(order.total_gross, digits), anyPayment });
  return { paid, refunded, state: { paid: decimalTextOf(paid, digits), refunded: decimalTextOf(refunded, digits), payment_status } };
}

/** What an order's payments are counted in: its currency and gross total (an order without content: EUR and nothing). */
export interface PaymentBasis {
  readonly order_id: number;
  readonly currency?: string;
  readonly total_gross?: string;
}

/**
 * The order's payment columns once it is confirmed with this Payment, its first payment (undefined:
 * none, the columns stay unpaid). A Payment with more decimals than the currency has is a 400 on its Amount.
 */
export function confirmationPayments(order: PaymentBasis, payment: { readonly Amount: number } | undefined): PaymentState | undefined {
  if (payment === undefined) return undefined;
  const currency = order.currency ?? 'EUR';
  const digits = minorDigitsOf(currency) ?? 2;
  const paid = minorUnitsOf(payment.Amount, digits);
  if (paid === undefined) throw amountBeyondCurrency('Payment.Amount', currency, digits);
  const gross = unitsOf(order.total_gross ?? '0', digits);
  const payment_status = paymentStatusOf({ paid, refunded: 0n, gross, anyPayment: true });
  return { paid: decimalTextOf(paid, digits), refunded: decimalTextOf(0n, digits), payment_status };
}

/** Records a payment of a confirmed order: its amount is added to what was paid, and the payment status follows. */
export const createPaymentWrite = defineWrite(
  'order.payment',
  async (unit, input: { req: CreatePaymentRequest; now: number; key?: HeldKey }): Promise<StoredPayment> => {
    const { req, now } = input;
    const order = await confirmedOrder(unit, req.OrderId);
    const { units, digits } = amountIn(order, 'Amount', req.Amount);
    const payment = await orderLifeRepository.insertPayment(unit.db, {
      order_id: req.OrderId,
      amount: decimalTextOf(units, digits),
      type: req.Type ?? null,
      name: req.Name ?? null,
      reference_number: req.ReferenceNumber ?? null,
      paid_at: req.Date ?? now,
      created_at: now,
    });
    await orderLifeRepository.setPayments(unit.db, req.OrderId, tally(order, digits, units, 0n).state);
    unit.touch('order', String(req.OrderId));
    unit.emit({ type: 'order.payment_created', orderId: req.OrderId });
    if (input.key) await completeKey(unit, input.key, 201, { id: payment.payment_id } satisfies RecordAnswer);
    return payment;
  },
);

/** Records a refund: never more than was paid and not yet refunded, however many are recorded at once. */
export const createRefundWrite = defineWrite(
  'order.refund',
  async (unit, input: { req: CreateRefundRequest; now: number; key?: HeldKey }): Promise<StoredRefund> => {
    const { req, now } = input;
    const order = await confirmedOrder(unit, req.OrderId);
    const { units, digits } = amountIn(order, 'Amount', req.Amount);
    const after = tally(order, digits, 0n, units);
    if (after.refunded > after.paid) {
      const refundable = after.paid - (after.refunded - units);
      throw amountAboveRefundable('Amount', decimalTextOf(refundable, digits));
    }
    const refund = await orderLifeRepository.insertRefund(unit.db, {
      order_id: req.OrderId,
      amount: decimalTextOf(units, digits),
      reason: req.Reason ?? null,
      reference_number: req.ReferenceNumber ?? null,
      refunded_at: req.Date ?? now,
      created_at: now,
    });
    await orderLifeRepository.setPayments(unit.db, req.OrderId, after.state);
    unit.touch('order', String(req.OrderId));
    unit.emit({ type: 'order.refund_created', orderId: req.OrderId });
    if (input.key) await completeKey(unit, input.key, 201, { id: refund.refund_id } satisfies RecordAnswer);
    return refund;
  },
);

export const orderLifeWrites = [createPaymentWrite, createRefundWrite];

/** Records payments and refunds; with an Idempotency-Key, a retry answers the first record instead of adding one. */
export class OrderLifeService {
  readonly #keys: IdempotencyKeys;

  constructor(
    private readonly store: Store,
    private readonly writes: WriteDoor,
  ) {
    this.#keys = new IdempotencyKeys(writes);
  }

  pay(req: CreatePaymentRequest, key?: KeyRef): Promise<Recorded<StoredPayment>> {
    const hash = requestHash(req.OrderId, [req.Amount, req.Type ?? null, req.Name ?? null, req.ReferenceNumber ?? null, req.Date ?? null]);
    return recordOnce(this.#keys, key, hash, {
      operation: PAYMENT_OPERATION,
      write: (held) => this.writes.run(createPaymentWrite, { req, now: Date.now(), key: held }),
      find: (id) => orderLifeRepository.findPayment(this.store.reader, id),
    });
  }

  refund(req: CreateRefundRequest, key?: KeyRef): Promise<Recorded<StoredRefund>> {
    const hash = requestHash(req.OrderId, [req.Amount, req.Reason ?? null, req.ReferenceNumber ?? null, req.Date ?? null]);
    return recordOnce(this.#keys, key, hash, {
      operation: REFUND_OPERATION,
      write: (held) => this.writes.run(createRefundWrite, { req, now: Date.now(), key: held }),
      find: (id) => orderLifeRepository.findRefund(this.store.reader, id),
    });
  }
}
