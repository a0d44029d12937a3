import { nothingToShip, orderShipped, ValidationError, type FieldError } from '../errors.js';
import type { Store } from '../store/store.js';
import { defineWrite, type Unit } from '../writes/unit.js';
import type { WriteDoor } from '../writes/write-door.js';
import { IdempotencyKeys, completeKey, type HeldKey, type KeyRef } from './idempotency.writes.js';
import { recordOnce, requestHash, type RecordAnswer, type Recorded } from './order-life.record-once.js';
import { orderLifeRepository } from './order-life.repository.js';
import { confirmedOrder } from './order-life.service.js';
import { orderShipmentsRepository, type RecordLineRow, type StoredReturn, type StoredShipment } from './order-shipments.repository.js';
import type { CreateReturnRequest, CreateShipmentRequest, RecordLineRequest } from './order-shipments.schemas.js';
import { fulfillmentStatusOf, type LineTally } from './order-shipments.status.js';

export const SHIPMENT_OPERATION = 'CreateOrderShipment';
export const RETURN_OPERATION = 'CreateOrderReturn';

/** What a shipment or a return may still take of a line. */
type LeftOf = (line: LineTally) => number;
const leftToShip: LeftOf = (l) => l.quantity - l.shipped;
const leftToReturn: LeftOf = (l) => l.shipped - l.returned;

/**
 * The requested quantities, each checked against what is left of its line (`left`; undefined: only
 * that the line exists): a LineNumber the order lacks is a 400 on it, more than is left a 400 on the
 * Quantity (every bad line at once).
 */
function checkedLines(tallies: readonly LineTally[], requested: readonly RecordLineRequest[], left?: LeftOf, what = ''): RecordLineRow[] {
  const byNumber = new Map(tallies.map((t) => [t.line_number, t]));
  const errors: FieldError[] = [];
  requested.forEach((line, i) => {
    const tally = byNumber.get(line.LineNumber);
    if (tally === undefined) {
      const fieldName = `Lines[${i}].LineNumber`;
      errors.push({ errorCode: 'Predicate', fieldName, message: `'${fieldName}' does not name a line of the order.` });
    } else if (left !== undefined && line.Quantity > left(tally)) {
      const fieldName = `Lines[${i}].Quantity`;
      const message = `'${fieldName}' must be less than or equal to '${left(tally)}' (${what} of line ${line.LineNumber}).`;
      errors.push({ errorCode: 'LessThanOrEqual', fieldName, message });
    }
  });
  if (errors.length > 0) throw new ValidationError(errors);
  return requested.map((l) => ({ line_number: l.LineNumber, quantity: l.Quantity }));
}

/** The order's fulfilment status once these quantities are added to its lines' shipped or returned ones. */
function statusAfter(tallies: readonly LineTally[], added: readonly RecordLineRow[], column: 'shipped' | 'returned') {
  const more = new Map(added.map((l) => [l.line_number, l.quantity]));
  return fulfillmentStatusOf(tallies.map((t) => ({ ...t, [column]: t[column] + (more.get(t.line_number) ?? 0) })));
}

/** What a shipment takes: the lines asked for, or every quantity not yet shipped; nothing left at all → 409 NothingToShip. */
function shipmentLines(
  orderId: number,
  tallies: readonly LineTally[],
  requested: readonly RecordLineRequest[] | undefined,
): RecordLineRow[] {
  if (requested) checkedLines(tallies, requested);
  if (tallies.every((t) => leftToShip(t) <= 0)) throw nothingToShip(orderId);
  if (requested) return checkedLines(tallies, requested, leftToShip, 'what is left to ship');
  return tallies.filter((t) => leftToShip(t) > 0).map((t) => ({ line_number: t.line_number, quantity: leftToShip(t) }));
}

/** Records a shipment: never more of a line than was ordered and not yet shipped, however many are recorded at once. */
export const createShipmentWrite = defineWrite(
  'order.shipment',
  async (unit, input: { req: CreateShipmentRequest; now: number; key?: HeldKey }): Promise<StoredShipment> => {
    const { req, now } = input;
    await confirmedOrder(unit, req.OrderId);
    const tallies = await orderShipmentsRepository.lineTallies(unit.db, req.OrderId);
    const lines = shipmentLines(req.OrderId, tallies, req.Lines);
    const shipment = await orderShipmentsRepository.insertShipment(unit.db, {
      order_id: req.OrderId,
      carrier: req.Carrier ?? null,
      tracking_number: req.TrackingNumber ?? null,
      tracking_url: req.TrackingUrl ?? null,
      shipped_at: req.ShippedAt ?? now,
      created_at: now,
      lines,
    });
    await orderShipmentsRepository.setFulfillment(unit.db, req.OrderId, statusAfter(tallies, lines, 'shipped'));
    await recorded(unit, req.OrderId, 'order.shipment_created', input.key, shipment.shipment_id);
    return shipment;
  },
);

/** Records a return: never more of a line than was shipped and not yet returned. */
export const createReturnWrite = defineWrite(
  'order.return',
  async (unit, input: { req: CreateReturnRequest; now: number; key?: HeldKey }): Promise<StoredReturn> => {
    const { req, now } = input;
    await confirmedOrder(unit, req.OrderId);
    const tallies = await orderShipmentsRepository.lineTallies(unit.db, req.OrderId);
    const lines = checkedLines(tallies, req.Lines, leftToReturn, 'what was shipped and not yet returned');
    const back = await orderShipmentsRepository.insertReturn(unit.db, {
      order_id: req.OrderId,
      reason: req.Reason ?? null,
      received_at: req.ReceivedAt ?? now,
      created_at: now,
      lines,
    });
    await orderShipmentsRepository.setFulfillment(unit.db, req.OrderId, statusAfter(tallies, lines, 'returned'));
    await recorded(unit, req.OrderId, 'order.return_created', input.key, back.return_id);
    return back;
  },
);

/** The order moves, its event is emitted and the key's answer kept, all in the record's transaction. */
async function recorded(
  unit: Unit,
  orderId: number,
  type: 'order.shipment_created' | 'order.return_created',
  key: HeldKey | undefined,
  id: number,
) {
  unit.touch('order', String(orderId));
  unit.emit({ type, orderId });
  if (key) await completeKey(unit, key, 201, { id } satisfies RecordAnswer);
}

/**
 * 409 OrderShipped: a confirmed order with shipments is not cancelled (its goods are on their way;
 * a return records them back). The order's row is locked first, so that a shipment being recorded
 * meanwhile is either seen here or finds the order cancelled.
 */
export async function refuseCancelOfShipped(unit: Unit, orderId: number): Promise<void> {
  const order = await orderLifeRepository.lockOrder(unit.db, orderId);
  if (order?.status !== 'Confirmed') return;
  if (await orderShipmentsRepository.hasShipments(unit.db, orderId)) throw orderShipped(orderId);
}

export const orderShipmentWrites = [createShipmentWrite, createReturnWrite];

/** Records shipments and returns; with an Idempotency-Key, a retry answers the first record instead of adding one. */
export class OrderShipmentsService {
  readonly #keys: IdempotencyKeys;

  constructor(
    private readonly store: Store,
    private readonly writes: WriteDoor,
  ) {
    this.#keys = new IdempotencyKeys(writes);
  }

  ship(req: CreateShipmentRequest, key?: KeyRef): Promise<Recorded<StoredShipment>> {
    const lines = req.Lines?.map((l) => [l.LineNumber, l.Quantity]) ?? null;
    const hash = requestHash(req.OrderId, [
      lines,
      req.Carrier ?? null,
      req.TrackingNumber ?? null,
      req.TrackingUrl ?? null,
      req.ShippedAt ?? null,
    ]);
    return recordOnce(this.#keys, key, hash, {
      operation: SHIPMENT_OPERATION,
      write: (held) => this.writes.run(createShipmentWrite, { req, now: Date.now(), key: held }),
      find: (id) => orderShipmentsRepository.findShipment(this.store.reader, id),
    });
  }

  return(req: CreateReturnRequest, key?: KeyRef): Promise<Recorded<StoredReturn>> {
    const lines = req.Lines.map((l) => [l.LineNumber, l.Quantity]);
    const hash = requestHash(req.OrderId, [lines, req.Reason ?? null, req.ReceivedAt ?? null]);
    return recordOnce(this.#keys, key, hash, {
      operation: RETURN_OPERATION,
      write: (held) => this.writes.run(createReturnWrite, { req, now: Date.now(), key: held }),
      find: (id) => orderShipmentsRepository.findReturn(this.store.reader, id),
    });
  }
}
