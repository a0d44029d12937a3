import { placeholders, textsByShape } from '../store/statement-texts.js';
import type { DbHandle, HandleSql } from '../store/store.js';
import type { StoredPayment, StoredRefund } from './order-life.repository.js';

// What every read of an order shows of its life after the confirmation: its shipments, payments,
// refunds and returns (docs/orders.md, "After the confirmation"). The feed reads them for a whole
// chunk of orders at once, every kind in one statement, never one per order; an open order has none
// (records need a confirmed order, and an order is never open again), so it is not asked for.

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

/**
 * A record as the one read of every kind returns it: the four kinds in one statement (a round trip
 * and a statement each fewer than four reads: GetOrder runs it on every call), their columns laid
 * over one another. A shipment or a return comes as one row per line (one row when it has none).
 */
interface RecordRow {
  /** P payment, R refund, S shipment, T return. */
  kind: 'P' | 'R' | 'S' | 'T';
  id: number;
  order_id: number;
  amount: string | null;
  /** type, reason, carrier, reason. */
  t1: string | null;
  /** name, –, tracking number, –. */
  t2: string | null;
  /** reference number, reference number, tracking URL, –. */
  t3: string | null;
  /** paid, refunded, shipped, received. */
  at1: number;
  /** created (payments and refunds). */
  at2: number | null;
  line_number: number | null;
  quantity: number | null;
}
const RECORD_COLUMNS = [
  'kind',
  'id',
  'order_id',
  'amount',
  't1',
  't2',
  't3',
  'at1',
  'at2',
  'line_number',
  'quantity',
] as const satisfies ReadonlyArray<keyof RecordRow>;

/**
 * Which orders a read asks for: a list of n ids (`order_id in (…)`), or, as shape RANGE, every
 * order between two ids. A chunk of the feed mostly holds ids close together (orders are stamped
 * about in the order they are made), and then the range costs one seek of each table's index instead
 * of one per order; the records of orders between them that are not in the chunk are passed over.
 */
export const RANGE = 0;
const whereOrder = (alias: string, shape: number): string =>
  shape === RANGE ? `${alias}order_id between ? and ?` : `${alias}order_id in (${placeholders(shape)})`;

/** A range is read while it spans at most this many ids per order asked for. */
const DENSE = 4;

/** Every kind of record of the orders `where` picks (given each part's alias), as RecordRow's columns, in no order. */
const recordsUnion = (where: (alias: string) => string): string =>
  "select 'P' as kind, payment_id as id, order_id, amount, type as t1, name as t2, reference_number as t3, paid_at as at1," +
  // Typed nulls: PostgreSQL types a union's columns from its parts left to right, and two bare nulls make text.
  ` created_at as at2, cast(null as integer) as line_number, cast(null as integer) as quantity from order_payments where ${where('')}` +
  " union all select 'R', refund_id, order_id, amount, reason, null, reference_number, refunded_at, created_at, null, null" +
  ` from order_refunds where ${where('')}` +
  " union all select 'S', s.shipment_id, s.order_id, null, s.carrier, s.tracking_number, s.tracking_url, s.shipped_at, null," +
  ' l.line_number, l.quantity from order_shipments s left join order_shipment_lines l on l.shipment_id = s.shipment_id' +
  ` where ${where('s.')}` +
  " union all select 'T', r.return_id, r.order_id, null, r.reason, null, null, r.received_at, null, l.line_number, l.quantity" +
  ` from order_returns r left join order_return_lines l on l.return_id = r.return_id where ${where('r.')}`;

/** The read of every kind of record of the orders of a shape (RANGE, or the length of a list of ids), written once per shape. */
export const recordsSql = textsByShape(
  (n: number) => recordsUnion((alias) => whereOrder(alias, n)) + ' order by kind, order_id, id, line_number',
);

/** RecordRow's columns but the order's id, in the order a row of one order's aggregate holds them. */
const AGGREGATED = ['kind', 'id', 'amount', 't1', 't2', 't3', 'at1', 'at2', 'line_number', 'quantity'] as const;

/** One order's records as its aggregate holds them: JSON text (SQLite) or parsed (PostgreSQL); null or `[]` when none. */
export type AggregatedRecords = string | unknown[][] | null;

/**
 * A scalar subquery of the records of the order whose id is `orderId` (a column of the enclosing
 * select), aggregated into one JSON array of rows (AGGREGATED): the order and its records read in
 * one statement (GetOrder), each part still by its table's index on the order's id.
 */
export const recordsOfOrderSql = (agg: HandleSql['jsonArraysAgg'], orderId: string): string =>
  `(select ${agg(AGGREGATED, 'kind, id, line_number')} from (${recordsUnion((alias) => `${alias}order_id = ${orderId}`)}) rr)`;

/** Every record of the orders of a shape: the four parts of the statement bind the same ids. */
const read = (db: DbHandle, shape: number, params: readonly number[]): Promise<RecordRow[]> =>
  db.runRows<RecordRow>(recordsSql(shape), [...params, ...params, ...params, ...params], RECORD_COLUMNS);

/** The records of these orders (at most IDS_PER_READ), read as a range of ids or as their list; `keep`: the orders asked for. */
async function readSome(db: DbHandle, ids: readonly number[]): Promise<{ found: RecordRow[]; keep?: ReadonlySet<number> }> {
  let lo = Infinity;
  let hi = -Infinity;
  for (const id of ids) {
    if (id < lo) lo = id;
    if (id > hi) hi = id;
  }
  if (hi - lo < DENSE * ids.length) return { found: await read(db, RANGE, [lo, hi]), keep: new Set(ids) };
  const list = padded(ids);
  return { found: await read(db, list.length, list) };
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

/** A record of a row (the first row of a shipment or a return: its lines are added after). */
function recordOf(row: RecordRow, orderId: number): [keyof Gathering, StoredPayment | StoredRefund | ShownShipment | ShownReturn] {
  const id = Number(row.id);
  const at = Number(row.at1);
  switch (row.kind) {
    case 'P':
      return [
        'payments',
        {
          payment_id: id,
          order_id: orderId,
          amount: row.amount!,
          type: row.t1,
          name: row.t2,
          reference_number: row.t3,
          paid_at: at,
          created_at: Number(row.at2),
        },
      ];
    case 'R':
      return [
        'refunds',
        {
          refund_id: id,
          order_id: orderId,
          amount: row.amount!,
          reason: row.t1,
          reference_number: row.t3,
          refunded_at: at,
          created_at: Number(row.at2),
        },
      ];
    case 'S':
      return [
        'shipments',
        { shipment_id: id, order_id: orderId, carrier: row.t1, tracking_number: row.t2, tracking_url: row.t3, shipped_at: at, lines: [] },
      ];
    case 'T':
      return ['returns', { return_id: id, order_id: orderId, reason: row.t1, received_at: at, lines: [] }];
  }
}

// PostgreSQL returns bigints as text.
function sortOut(rows: readonly RecordRow[], byOrder: Map<number, Gathering>, keep?: ReadonlySet<number>): void {
  let last: { kind: string; id: number; lines?: RecordLine[] } | undefined;
  for (const row of rows) {
    const orderId = Number(row.order_id);
    if (keep !== undefined && !keep.has(orderId)) continue;
    const id = Number(row.id);
    if (last === undefined || last.kind !== row.kind || last.id !== id) {
      const [list, record] = recordOf(row, orderId);
      (of(byOrder, orderId)[list] as Array<typeof record>).push(record);
      last = { kind: row.kind, id, lines: 'lines' in record ? record.lines : undefined };
    }
    if (row.line_number !== null) last.lines?.push({ line_number: Number(row.line_number), quantity: Number(row.quantity) });
  }
}

/** The records of the order `orderId` from its aggregate (recordsOfOrderSql). */
export function recordsOfAggregate(orderId: number, aggregate: AggregatedRecords): OrderRecords {
  if (aggregate === null) return NO_RECORDS;
  const values = typeof aggregate === 'string' ? (JSON.parse(aggregate) as unknown[][]) : aggregate;
  if (values.length === 0) return NO_RECORDS;
  const rows = values.map((v): RecordRow => ({
    kind: v[0] as RecordRow['kind'],
    id: v[1] as number,
    order_id: orderId,
    amount: v[2] as string | null,
    t1: v[3] as string | null,
    t2: v[4] as string | null,
    t3: v[5] as string | null,
    at1: v[6] as number,
    at2: v[7] as number | null,
    line_number: v[8] as number | null,
    quantity: v[9] as number | null,
  }));
  const byOrder = new Map<number, Gathering>();
  sortOut(rows, byOrder);
  return byOrder.get(orderId) ?? NO_RECORDS;
}

/** The reads of the records of an order's life. */
export const orderRecordsRepository = {
  /** The records of these orders, by order id; an order without any is not in the map. */
  async recordsOf(db: DbHandle, orderIds: readonly number[]): Promise<Map<number, OrderRecords>> {
    const byOrder = new Map<number, Gathering>();
    for (let i = 0; i < orderIds.length; i += IDS_PER_READ) {
      const { found, keep } = await readSome(db, orderIds.slice(i, i + IDS_PER_READ));
      sortOut(found, byOrder, keep);
    }
    return byOrder;
  },
};

/** Orders with the records of their life attached (`records`; NO_RECORDS for an order without any). */
export async function withRecords<T extends { readonly order_id: number; readonly status: string }>(
  db: DbHandle,
  orders: T[],
): Promise<Array<T & { records: OrderRecords }>> {
  const ids: number[] = [];
  for (const o of orders) if (o.status !== 'Open') ids.push(o.order_id);
  const found = ids.length === 0 ? undefined : await orderRecordsRepository.recordsOf(db, ids);
  const out = orders as Array<T & { records: OrderRecords }>;
  for (const o of out) o.records = found?.get(o.order_id) ?? NO_RECORDS;
  return out;
}
