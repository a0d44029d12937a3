import { randomBytes } from 'node:crypto';
import { duplicateOrderNumber, orderNotFound, orderNotOpen } from '../errors.js';
import { readOrderContent, type OrderContent } from '../money/index.js';
import { FieldRules } from '../wire/field-rules.js';
import type { DbHandle, Store } from '../store/store.js';
import { isUniqueViolation } from '../store/unique-violation.js';
import { RetryWork, defineWrite } from '../writes/unit.js';
import { orderRepository, type ShownOrder } from './order.repository.js';
import { contentRecord, type ContentRecord } from './order.content.js';
import type { CreateOrderRequest, OrderContentFields, UpdateOrderRequest } from './order.schemas.js';
import { refuseCancelOfShipped } from './order-shipments.service.js';

/** A generated order number: `ORD-` and the order id, at least six digits. */
export const generatedOrderNumber = (orderId: number): string => `ORD-${String(orderId).padStart(6, '0')}`;

export interface CreatedOrder {
  readonly OrderId: number;
  readonly OrderNumber: string;
  readonly Status: 'Open';
}

/**
 * A request's content, read by the rules its schema already checked (order.rules.ts), with its
 * amounts computed: before the write, so that the transaction only stores them.
 */
export function contentOfRequest(req: OrderContentFields, defaultCurrency: string): ContentRecord {
  const rules = new FieldRules();
  const content: OrderContent | undefined = readOrderContent(rules, req, defaultCurrency);
  rules.throwIfAny();
  return contentRecord(content!);
}

/** An order's note as stored and shown: an empty one is none. */
const noteOf = (note: string | undefined): string | null => (note === undefined || note === '' ? null : note);

/** What a write creating an order takes: the request's number and note, its content computed. */
export interface NewOrderInput extends Pick<CreateOrderRequest, 'OrderNumber' | 'Note'> {
  readonly content?: ContentRecord;
}

async function insertOrder(trx: DbHandle, req: NewOrderInput): Promise<CreatedOrder> {
  const given = req.OrderNumber === undefined || req.OrderNumber === '' ? undefined : req.OrderNumber;
  const now = Date.now();
  if (given !== undefined) {
    if (await orderRepository.orderNumberTaken(trx, given)) throw duplicateOrderNumber();
    try {
      return {
        OrderId: await orderRepository.insert(trx, { order_number: given, note: noteOf(req.Note), created_at: now, ...content(req) }),
        OrderNumber: given,
        Status: 'Open',
      };
    } catch (err) {
      if (isUniqueViolation(err)) throw duplicateOrderNumber();
      throw err;
    }
  }
  // The number derives from the id, known only after the insert; a placeholder holds the place
  // (its words are not written: setOrderNumber writes the order's words once).
  const orderId = await orderRepository.insert(
    trx,
    { order_number: `tmp-${randomBytes(12).toString('hex')}`, note: noteOf(req.Note), created_at: now, ...content(req) },
    false,
  );
  let orderNumber = generatedOrderNumber(orderId);
  // An operator may have chosen this number by hand before: then add a suffix.
  for (let n = 2; await orderRepository.orderNumberTaken(trx, orderNumber); n++) orderNumber = `${generatedOrderNumber(orderId)}-${n}`;
  try {
    await orderRepository.setOrderNumber(trx, orderId, orderNumber);
  } catch (err) {
    if (isUniqueViolation(err)) throw new RetryWork('order number taken meanwhile');
    throw err;
  }
  return { OrderId: orderId, OrderNumber: orderNumber, Status: 'Open' };
}

const content = (req: NewOrderInput) => (req.content === undefined ? {} : { content: req.content });

/** Creates an open order. */
export const createOrderWrite = defineWrite('order.create', async (unit, req: NewOrderInput) => {
  const created = await insertOrder(unit.db, req);
  unit.touch('order', String(created.OrderId));
  unit.emit({ type: 'order.created', orderId: created.OrderId });
  return created;
});

/** Open or confirmed → cancelled; cancelling a cancelled order again changes nothing. */
export const cancelOrderWrite = defineWrite('order.cancel', async (unit, orderId: number): Promise<ShownOrder> => {
  await refuseCancelOfShipped(unit, orderId);
  if (await orderRepository.markCancelled(unit.db, orderId, Date.now())) {
    unit.touch('order', String(orderId));
    unit.emit({ type: 'order.cancelled', orderId });
  }
  const order = await orderRepository.findShown(unit.db, orderId);
  if (!order) throw orderNotFound(orderId);
  return order;
});

export interface OrderUpdate {
  readonly orderId: number;
  readonly note: string | null;
  readonly content: ContentRecord;
}

/** Replaces the note and content of an open order (UpdateOrder); answers the order as written. */
export const updateOrderWrite = defineWrite('order.update', async (unit, update: OrderUpdate): Promise<ShownOrder> => {
  const outcome = await orderRepository.replaceContent(unit.db, update.orderId, update.note, update.content);
  const order = await orderRepository.findShown(unit.db, update.orderId);
  if (outcome === 'not-found' || !order) throw orderNotFound(update.orderId);
  if (outcome === 'not-open') throw orderNotOpen(update.orderId, order.status);
  unit.touch('order', String(update.orderId));
  unit.emit({ type: 'order.updated', orderId: update.orderId });
  return order;
});

/** The write of an UpdateOrder request. */
export const orderUpdateOf = (req: UpdateOrderRequest, defaultCurrency: string): OrderUpdate => ({
  orderId: req.OrderId,
  note: noteOf(req.Note),
  content: contentOfRequest(req, defaultCurrency),
});

/** Reads an order as it is shown (from the read connection: committed data only). */
export async function getOrder(store: Store, orderId: number): Promise<ShownOrder> {
  const order = await orderRepository.findShown(store.reader, orderId);
  if (!order) throw orderNotFound(orderId);
  return order;
}
