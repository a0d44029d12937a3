import type { FulfillmentStatus, OrderReturnRow, OrderShipmentRow } from '../store/database.js';
import type { DbHandle } from '../store/store.js';
import type { LineTally } from './order-shipments.status.js';
import { orderWordsRepository } from './order.words.js';

// The shipments and returns of an order and the order's column they move. The order's row is
// locked first (orderLifeRepository.lockOrder), so that two records of one order, from any process,
// count the quantities one after the other.

/** Each line of the order with what was shipped and returned of it so far, by LineNumber. */
// The order's records are summed first, reached by their order id, then matched to its lines: a
// sum per line reached through the line number would have no index to start from but the order's.
export const LINE_TALLIES =
  'select ol.line_number, ol.quantity, coalesce(sh.shipped, 0) as shipped, coalesce(rt.returned, 0) as returned' +
  ' from order_lines ol' +
  ' left join (select sl.line_number, sum(sl.quantity) as shipped from order_shipments s' +
  ' join order_shipment_lines sl on sl.shipment_id = s.shipment_id where s.order_id = ? group by sl.line_number) sh' +
  ' on sh.line_number = ol.line_number' +
  ' left join (select rl.line_number, sum(rl.quantity) as returned from order_returns r' +
  ' join order_return_lines rl on rl.return_id = r.return_id where r.order_id = ? group by rl.line_number) rt' +
  ' on rt.line_number = ol.line_number' +
  ' where ol.order_id = ? order by ol.line_number';

const SHIPMENT_COLUMNS = 'shipment_id, order_id, carrier, tracking_number, tracking_url, shipped_at, created_at';
const RETURN_COLUMNS = 'return_id, order_id, reason, received_at, created_at';

const INSERT_SHIPMENT =
  'insert into order_shipments (order_id, carrier, tracking_number, tracking_url, shipped_at, created_at) values (?, ?, ?, ?, ?, ?)' +
  ` returning ${SHIPMENT_COLUMNS}`;
const INSERT_RETURN = `insert into order_returns (order_id, reason, received_at, created_at) values (?, ?, ?, ?) returning ${RETURN_COLUMNS}`;
const SET_FULFILLMENT = 'update orders set fulfillment_status = ? where order_id = ?';
const FIND_SHIPMENT = `select ${SHIPMENT_COLUMNS} from order_shipments where shipment_id = ?`;
const FIND_RETURN = `select ${RETURN_COLUMNS} from order_returns where return_id = ?`;
const SHIPMENT_LINES = 'select line_number, quantity from order_shipment_lines where shipment_id = ? order by line_number';
const RETURN_LINES = 'select line_number, quantity from order_return_lines where return_id = ? order by line_number';
const ANY_SHIPMENT = 'select shipment_id from order_shipments where order_id = ? limit 1';

/** A quantity of one line in a shipment or a return. */
export interface RecordLineRow {
  readonly line_number: number;
  readonly quantity: number;
}

/** A stored shipment with its lines (ids as plain numbers). */
export type StoredShipment = Omit<OrderShipmentRow, 'shipment_id'> & { shipment_id: number; lines: RecordLineRow[] };
/** A stored return with its lines (ids as plain numbers). */
export type StoredReturn = Omit<OrderReturnRow, 'return_id'> & { return_id: number; lines: RecordLineRow[] };

export type NewShipment = Omit<StoredShipment, 'shipment_id'>;
export type NewReturn = Omit<StoredReturn, 'return_id'>;

// PostgreSQL returns bigints and sums as text.
const shipment = (row: Omit<StoredShipment, 'lines'>, lines: RecordLineRow[]): StoredShipment => ({
  ...row,
  shipment_id: Number(row.shipment_id),
  order_id: Number(row.order_id),
  shipped_at: Number(row.shipped_at),
  created_at: Number(row.created_at),
  lines,
});
const returned = (row: Omit<StoredReturn, 'lines'>, lines: RecordLineRow[]): StoredReturn => ({
  ...row,
  return_id: Number(row.return_id),
  order_id: Number(row.order_id),
  received_at: Number(row.received_at),
  created_at: Number(row.created_at),
  lines,
});
/** A record's lines as it is read back (a replay answers the same as the first answer). */
const byLineNumber = (lines: readonly RecordLineRow[]): RecordLineRow[] => [...lines].sort((a, b) => a.line_number - b.line_number);
const lineRow = (r: RecordLineRow): RecordLineRow => ({ line_number: Number(r.line_number), quantity: Number(r.quantity) });

/** All SQL about an order's shipments and returns. */
export const orderShipmentsRepository = {
  /** The order's lines with what was shipped and returned of each; call it with the order's row locked. */
  async lineTallies(db: DbHandle, orderId: number): Promise<LineTally[]> {
    const rows = (await db.run<LineTally>(LINE_TALLIES, [orderId, orderId, orderId])).rows;
    return rows.map((r) => ({
      line_number: Number(r.line_number),
      quantity: Number(r.quantity),
      shipped: Number(r.shipped),
      returned: Number(r.returned),
    }));
  },

  async insertShipment(db: DbHandle, s: NewShipment): Promise<StoredShipment> {
    const params = [s.order_id, s.carrier, s.tracking_number, s.tracking_url, s.shipped_at, s.created_at];
    const row = (await db.run<Omit<StoredShipment, 'lines'>>(INSERT_SHIPMENT, params)).rows[0]!;
    const stored = shipment(row, byLineNumber(s.lines));
    await db
      .insertInto('order_shipment_lines')
      .values(s.lines.map((l) => ({ shipment_id: stored.shipment_id, line_number: l.line_number, quantity: l.quantity })))
      .execute();
    return stored;
  },

  async insertReturn(db: DbHandle, r: NewReturn): Promise<StoredReturn> {
    const row = (await db.run<Omit<StoredReturn, 'lines'>>(INSERT_RETURN, [r.order_id, r.reason, r.received_at, r.created_at])).rows[0]!;
    const stored = returned(row, byLineNumber(r.lines));
    await db
      .insertInto('order_return_lines')
      .values(r.lines.map((l) => ({ return_id: stored.return_id, line_number: l.line_number, quantity: l.quantity })))
      .execute();
    return stored;
  },

  async setFulfillment(db: DbHandle, orderId: number, status: FulfillmentStatus): Promise<void> {
    await db.run(SET_FULFILLMENT, [status, orderId]);
    await orderWordsRepository.setStates(db, orderId);
  },

  async findShipment(db: DbHandle, shipmentId: number): Promise<StoredShipment | undefined> {
    const row = (await db.run<Omit<StoredShipment, 'lines'>>(FIND_SHIPMENT, [shipmentId])).rows[0];
    if (!row) return undefined;
    return shipment(row, (await db.run<RecordLineRow>(SHIPMENT_LINES, [shipmentId])).rows.map(lineRow));
  },

  async findReturn(db: DbHandle, returnId: number): Promise<StoredReturn | undefined> {
    const row = (await db.run<Omit<StoredReturn, 'lines'>>(FIND_RETURN, [returnId])).rows[0];
    if (!row) return undefined;
    return returned(row, (await db.run<RecordLineRow>(RETURN_LINES, [returnId])).rows.map(lineRow));
  },

  /** Whether anything of the order was shipped: such an order is not cancelled. */
  async hasShipments(db: DbHandle, orderId: number): Promise<boolean> {
    return (await db.run(ANY_SHIPMENT, [orderId])).rows.length > 0;
  },
};
