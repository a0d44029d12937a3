import type { Executor, StoreSql } from '../store/store.js';
import type { StoredPayment, StoredRefund } from './order-life.repository.js';

// What every read of an order shows of its life after the confirmation: its shipments, payments,
// refunds and returns (docs/orders.md, "After the confirmation"). The feed reads them for a whole
// chunk of orders at once, one statement per kind of record, never one per order; an open order has
// none (records need a confirmed order, and an order is never open again), so it is not asked for.

/** A quantity of an order's line in a shipment or a return. */
export interface RecordLine {
  readonly line_number: number;
  readonly quantity: number;
}

/** A shipment of an order as it is shown, with its lines. */
export interface ShownShipment {
  readonly shipment_id: number;
  readonly order_id: number;
  readonly carrier: string | null;
  readonly tracking_number: string | null;
  readonly tracking_url: string | null;
  readonly shipped_at: number;
  readonly lines: RecordLine[];
}

/** A return of an order as it is shown, with its lines. */
export interface ShownReturn {
  readonly return_id: number;
  readonly order_id: number;
  readonly reason: string | null;
  readonly received_at: number;
  readonly lines: RecordLine[];
}

/** An order's records, each list oldest first (by id: the order they were recorded in). */
export interface OrderRecords {
  readonly shipments: readonly ShownShipment[];
  readonly payments: readonly StoredPayment[];
  readonly refunds: readonly StoredRefund[];
  readonly returns: readonly ShownReturn[];
}

/** The records of an order that has none: shared, never changed. */
export const NO_RECORDS: OrderRecords = Object.freeze({
  shipments: Object.freeze([]) as readonly ShownShipment[],
  payments: Object.freeze([]) as readonly StoredPayment[],
  refunds: Object.freeze([]) as readonly StoredRefund[],
  returns: Object.freeze([]) as readonly ShownReturn[],
});

/** Most ids one statement binds: a chunk of the feed (1,000) in one. */
const IDS_PER_READ = 1024;

/**
 * The ids, repeated at the end up to a power of two: a chunk's list of ids varies in length from
 * chunk to chunk, and each length would be a statement text of its own for the backend to prepare
 * and keep; this way there are at most eleven.
 */
function padded(ids: readonly number[]): number[] {
  let size = 1;
  while (size < ids.length) size *= 2;
  const out = ids.slice();
  while (out.length < size) out.push(ids[ids.length - 1]!);
  return out;
}

const PAYMENT_COLUMNS = ['payment_id', 'order_id', 'amount', 'type', 'name', 'reference_number', 'paid_at', 'created_at'] as const;
const REFUND_COLUMNS = ['refund_id', 'order_id', 'amount', 'reason', 'reference_number', 'refunded_at', 'created_at'] as const;

interface ShipmentLineRow {
  shipment_id: number;
  order_id: number;
  carrier: string | null;
  tracking_number: string | null;
  tracking_url: string | null;
  shipped_at: number;
  line_number: number | null;
  quantity: number | null;
}
const SHIPMENT_LINE_COLUMNS = [
  'shipment_id',
  'order_id',
  'carrier',
  'tracking_number',
  'tracking_url',
  'shipped_at',
  'line_number',
  'quantity',
] as const satisfies ReadonlyArray<keyof ShipmentLineRow>;

interface ReturnLineRow {
  return_id: number;
  order_id: number;
  reason: string | null;
  received_at: number;
  line_number: number | null;
  quantity: number | null;
}
const RETURN_LINE_COLUMNS = ['return_id', 'order_id', 'reason', 'received_at', 'line_number', 'quantity'] as const satisfies ReadonlyArray<
  keyof ReturnLineRow
>;

/** The records of many orders as they are read, before they are sorted to their orders. */
interface Found {
  payments: StoredPayment[];
  refunds: StoredRefund[];
  shipments: ShipmentLineRow[];
  returns: ReturnLineRow[];
}

async function read(sql: StoreSql, db: Executor, ids: number[]): Promise<Found> {
  const payments = db
    .selectFrom('order_payments')
    .select(PAYMENT_COLUMNS)
    .where('order_id', 'in', ids)
    .orderBy('order_id')
    .orderBy('payment_id')
    .compile();
  const refunds = db
    .selectFrom('order_refunds')
    .select(REFUND_COLUMNS)
    .where('order_id', 'in', ids)
    .orderBy('order_id')
    .orderBy('refund_id')
    .compile();
  // A shipment and its lines in one statement: one row per line (a shipment without lines, one row).
  const shipments = db
    .selectFrom('order_shipments as s')
    .leftJoin('order_shipment_lines as l', 'l.shipment_id', 's.shipment_id')
    .select([
      's.shipment_id',
      's.order_id',
      's.carrier',
      's.tracking_number',
      's.tracking_url',
      's.shipped_at',
      'l.line_number',
      'l.quantity',
    ])
    .where('s.order_id', 'in', ids)
    .orderBy('s.order_id')
    .orderBy('s.shipment_id')
    .orderBy('l.line_number')
    .compile();
  const returns = db
    .selectFrom('order_returns as r')
    .leftJoin('order_return_lines as l', 'l.return_id', 'r.return_id')
    .select(['r.return_id', 'r.order_id', 'r.reason', 'r.received_at', 'l.line_number', 'l.quantity'])
    .where('r.order_id', 'in', ids)
    .orderBy('r.order_id')
    .orderBy('r.return_id')
    .orderBy('l.line_number')
    .compile();
  return {
    payments: await sql.rows<StoredPayment>(db, payments, PAYMENT_COLUMNS),
    refunds: await sql.rows<StoredRefund>(db, refunds, REFUND_COLUMNS),
    shipments: await sql.rows<ShipmentLineRow>(db, shipments, SHIPMENT_LINE_COLUMNS),
    returns: await sql.rows<ReturnLineRow>(db, returns, RETURN_LINE_COLUMNS),
  };
}

interface Gathering {
  shipments: ShownShipment[];
  payments: StoredPayment[];
  refunds: StoredRefund[];
  returns: ShownReturn[];
}

/** The order's lists in the map, made when its first record comes. */
function of(byOrder: Map<number, Gathering>, orderId: number): Gathering {
  let g = byOrder.get(orderId);
  if (!g) byOrder.set(orderId, (g = { shipments: [], payments: [], refunds: [], returns: [] }));
  return g;
}

/** Rows of records with their lines (sorted by record, then line) as records holding their lines. */
function withLines<R extends { line_number: number | null; quantity: number | null }, S extends { lines: RecordLine[] }>(
  rows: readonly R[],
  idOf: (row: R) => number,
  make: (row: R) => S,
): S[] {
  const out: S[] = [];
  let lastId: number | undefined;
  for (const row of rows) {
    const id = idOf(row);
    if (id !== lastId) {
      out.push(make(row));
      lastId = id;
    }
    if (row.line_number !== null) out[out.length - 1]!.lines.push({ line_number: Number(row.line_number), quantity: Number(row.quantity) });
  }
  return out;
}

// PostgreSQL returns bigints as text.
function sortOut(found: Found, byOrder: Map<number, Gathering>): void {
  for (const p of found.payments) {
    const row = {
      ...p,
      payment_id: Number(p.payment_id),
      order_id: Number(p.order_id),
      paid_at: Number(p.paid_at),
      created_at: Number(p.created_at),
    };
    of(byOrder, row.order_id).payments.push(row);
  }
  for (const r of found.refunds) {
    const row = {
      ...r,
      refund_id: Number(r.refund_id),
      order_id: Number(r.order_id),
      refunded_at: Number(r.refunded_at),
      created_at: Number(r.created_at),
    };
    of(byOrder, row.order_id).refunds.push(row);
  }
  const shipments = withLines(
    found.shipments,
    (r) => Number(r.shipment_id),
    (r): ShownShipment => ({
      shipment_id: Number(r.shipment_id),
      order_id: Number(r.order_id),
      carrier: r.carrier,
      tracking_number: r.tracking_number,
      tracking_url: r.tracking_url,
      shipped_at: Number(r.shipped_at),
      lines: [],
    }),
  );
  for (const s of shipments) of(byOrder, s.order_id).shipments.push(s);
  const returns = withLines(
    found.returns,
    (r) => Number(r.return_id),
    (r): ShownReturn => ({
      return_id: Number(r.return_id),
      order_id: Number(r.order_id),
      reason: r.reason,
      received_at: Number(r.received_at),
      lines: [],
    }),
  );
  for (const r of returns) of(byOrder, r.order_id).returns.push(r);
}

/** The reads of the records of an order's life. */
export const orderRecordsRepository = {
  /** The records of these orders, by order id; an order without any is not in the map. */
  async recordsOf(sql: StoreSql, db: Executor, orderIds: readonly number[]): Promise<Map<number, OrderRecords>> {
    const byOrder = new Map<number, Gathering>();
    for (let i = 0; i < orderIds.length; i += IDS_PER_READ) {
      sortOut(await read(sql, db, padded(orderIds.slice(i, i + IDS_PER_READ))), byOrder);
    }
    return byOrder;
  },
};

/** Orders with the records of their life attached (`records`; NO_RECORDS for an order without any). */
export async function withRecords<T extends { readonly order_id: number; readonly status: string }>(
  sql: StoreSql,
  db: Executor,
  orders: T[],
): Promise<Array<T & { records: OrderRecords }>> {
  const ids: number[] = [];
  for (const o of orders) if (o.status !== 'Open') ids.push(o.order_id);
  const found = ids.length === 0 ? undefined : await orderRecordsRepository.recordsOf(sql, db, ids);
  const out = orders as Array<T & { records: OrderRecords }>;
  for (const o of out) o.records = found?.get(o.order_id) ?? NO_RECORDS;
  return out;
}
