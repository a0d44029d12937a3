import type { Writable } from 'node:stream';
import type { TSchema } from '@sinclair/typebox';
import { CLI_KEY_ID, recordAudit } from '../audit/index.js';
import { writeLines } from '../bulk/write-lines.js';
import type { OrderRow } from '../store/database.js';
import { formatWireDate } from '../wire/dates.js';
import { toJson, WireDateValue } from '../wire/serializer.js';
import type { WriteDoor } from '../writes/write-door.js';
import type { Store } from '../store/store.js';
import { toFeedItem, type BankData } from './order.mapping.js';
import { OrderFeedItem, OrderLine } from './order.schemas.js';
import { exportOrderFeed, type OrderExportFeed } from './order.search.js';

/** JSON Lines; CSV, a row per order; CSV, a row per order line (csv-lines) with the order's columns repeated. */
export type OrderExportFormat = 'jsonl' | 'csv' | 'csv-lines';

export interface OrderExportOptions {
  readonly statuses?: ReadonlyArray<OrderRow['status']>;
  readonly modifiedAfter?: number;
  readonly format: OrderExportFormat;
  /** 'revealed' only when the operator asked for bank data: then the export is audited. */
  readonly bank: BankData;
  /** Called once before the first row with the total, then with the rows written so far. */
  readonly onProgress?: (done: number, total: number) => void;
}

/**
 * The CSV columns: the feed item's fields in schema order, nested objects as dotted names. Lists
 * (the lines, the tax breakdown) are no columns of a row per order: `csv-lines` gives the lines.
 */
function columnsOf(schema: TSchema, prefix = ''): string[] {
  if (schema.type === 'array') return [];
  const object = schema.anyOf
    ? (schema.anyOf as TSchema[]).find((s) => s.type === 'object')
    : schema.type === 'object'
      ? schema
      : undefined;
  if (!object) return [prefix.slice(0, -1)];
  return Object.entries(object.properties as Record<string, TSchema>).flatMap(([name, s]) => columnsOf(s, `${prefix}${name}.`));
}
export const ORDER_CSV_COLUMNS: readonly string[] = columnsOf(OrderFeedItem);
/** A line's columns in `csv-lines`, after the order's: `Lines.LineNumber`, `Lines.Sku`, … (what `orders import` reads back). */
export const ORDER_LINE_CSV_COLUMNS: readonly string[] = columnsOf(OrderLine, 'Lines.');

/** A cell as RFC 4180 writes it: quoted when it holds a comma, a quote or a line break. */
const cell = (text: string): string => (/[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text);

function cellText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (value instanceof WireDateValue) return formatWireDate(value.ms, 'wcf');
  return String(value);
}

const pick = (item: unknown, column: string): unknown =>
  column.split('.').reduce<unknown>((v, key) => (v !== null && typeof v === 'object' ? (v as Record<string, unknown>)[key] : null), item);

const csvRow = (item: unknown, columns: readonly string[]): string => columns.map((c) => cell(cellText(pick(item, c)))).join(',');

/** An order as rows of `csv-lines`: one per line (an order without lines, one row with empty line cells). */
function* lineRows(item: ReturnType<typeof toFeedItem>): Generator<string> {
  const order = csvRow(item, ORDER_CSV_COLUMNS);
  const orderLines = item.Lines.length === 0 ? [{}] : item.Lines;
  for (const line of orderLines) yield `${order},${csvRow({ Lines: line }, ORDER_LINE_CSV_COLUMNS)}`;
}

async function* lines(feed: OrderExportFeed, opts: OrderExportOptions, sent: { orders: number }): AsyncGenerator<string> {
  if (opts.format === 'csv') yield ORDER_CSV_COLUMNS.map(cell).join(',');
  if (opts.format === 'csv-lines') yield [...ORDER_CSV_COLUMNS, ...ORDER_LINE_CSV_COLUMNS].map(cell).join(',');
  let done = 0;
  for await (const chunk of feed.orders()) {
    for (const order of chunk) {
      const item = toFeedItem(order, opts.bank);
      // JSON Lines: the feed's JSON text as the API writes it (PascalCase, /Date()/ dates).
      if (opts.format === 'jsonl') yield toJson(item, 'pascal', 'wcf', true);
      else if (opts.format === 'csv') yield csvRow(item, ORDER_CSV_COLUMNS);
      else yield* lineRows(item);
      sent.orders++;
    }
    done += chunk.length;
    opts.onProgress?.(done, feed.total);
  }
}

/**
 * Writes the matching orders in sync order (the order feed's shape) as JSON Lines or CSV. Bank data
 * in full is recorded in the audit log first — one entry naming every confirmed order of the
 * export's window — so that nothing leaves that the log does not hold.
 */
export async function exportOrders(
  store: Store,
  writes: WriteDoor,
  out: Writable,
  opts: OrderExportOptions,
): Promise<{ count: number; watermark: number; closed: boolean }> {
  const feed = await exportOrderFeed(store, {
    Statuses: opts.statuses ? [...opts.statuses] : undefined,
    LastModifiedAfter: opts.modifiedAfter,
  });
  if (opts.bank === 'revealed') {
    const ids = await feed.confirmedIds();
    if (ids.length > 0)
      await recordAudit(writes, { keyId: CLI_KEY_ID, action: 'bank.read', resourceType: 'order', resourceIds: ids.map(String) });
  }
  opts.onProgress?.(0, feed.total);
  const sent = { orders: 0 };
  const written = await writeLines(out, lines(feed, opts, sent));
  // A CSV header is a line but not an order; in csv-lines an order is as many lines as it has.
  const count = opts.format === 'jsonl' ? written.count : opts.format === 'csv' ? Math.max(0, written.count - 1) : sent.orders;
  return { count, watermark: feed.watermark, closed: written.closed };
}
