import type { Store } from '../store/store.js';
import { defineOperation, type AnyOperation } from '../wire/operation.js';
import type { WriteDoor } from '../writes/write-door.js';
import { IDEMPOTENCY_HEADER } from './idempotency.writes.js';
import { CreatePaymentRequest, CreateRefundRequest, OrderPaymentRecord, OrderRefundRecord } from './order-life.schemas.js';
import { OrderLifeService } from './order-life.service.js';
import { paymentView, refundView } from './order-life.views.js';

const RETRIES =
  'An Idempotency-Key header (kept 24 h) replays the first answer instead of recording again; the same key with a different body ' +
  'is a 422, and 409 while the first is still running.';

/** What the systems downstream report back about a confirmed order (permission fulfilment, or admin). */
export function orderLifeOperations(store: Store, writes: WriteDoor): AnyOperation[] {
  const life = new OrderLifeService(store, writes);
  return [
    defineOperation({
      name: 'CreateOrderPayment',
      tag: 'Fulfilment',
      summary: 'Record a payment of a confirmed order: Paid and PaymentStatus follow.',
      description: `409 OrderNotConfirmed for an open or cancelled order. ${RETRIES}`,
      routes: [{ method: 'POST', path: '/orders/{OrderId}/payments' }],
      example: { OrderId: 1, Amount: 49.9, Type: 'PayPal', ReferenceNumber: 'PP-4711' },
      notFound: 'No order with this OrderId.',
      permission: 'fulfilment',
      request: CreatePaymentRequest,
      response: OrderPaymentRecord,
      successStatus: 201,
      writeWatermark: true,
      async handle(req, call) {
        const { record, replayed } = await life.pay(req, keyOf(call));
        if (replayed) call.setHeader('Idempotent-Replayed', 'true');
        return paymentView(record);
      },
    }),
    defineOperation({
      name: 'CreateOrderRefund',
      tag: 'Fulfilment',
      summary: 'Record a refund of a confirmed order: at most what was paid and not yet refunded.',
      description: `More than is refundable → 400 on Amount; 409 OrderNotConfirmed for an open or cancelled order. ${RETRIES}`,
      routes: [{ method: 'POST', path: '/orders/{OrderId}/refunds' }],
      example: { OrderId: 1, Amount: 10, Reason: 'Damaged in transit' },
      notFound: 'No order with this OrderId.',
      permission: 'fulfilment',
      request: CreateRefundRequest,
      response: OrderRefundRecord,
      successStatus: 201,
      writeWatermark: true,
      async handle(req, call) {
        const { record, replayed } = await life.refund(req, keyOf(call));
        if (replayed) call.setHeader('Idempotent-Replayed', 'true');
        return refundView(record);
      },
    }),
  ];
}

/** The request's Idempotency-Key, per API key; undefined when not sent. */
export const keyOf = (call: { header(name: string): string | undefined; key: { id: string } }) => {
  const key = call.header(IDEMPOTENCY_HEADER)?.trim() || undefined;
  return key === undefined ? undefined : { apiKeyId: call.key.id, key };
};
