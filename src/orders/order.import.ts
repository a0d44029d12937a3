import { statSync } from 'node:fs';
// Batches and kept messages as the customer import has them: one behaviour for both imports.
import { BATCH, KEPT_MESSAGES, type ImportOptions, type ImportReport } from '../bulk/import-report.js';
import { csvHeader, readImportFile, UnreadableFile } from '../bulk/import-read.js';
import { duplicateOrderNumber } from '../errors.js';
import type { OrderContent } from '../money/index.js';
import type { Store } from '../store/store.js';
import { FieldRules } from '../wire/field-rules.js';
import { NAME_LENGTH, TEXT_LENGTH } from '../wire/request-schema.js';
import { defineWrite } from '../writes/unit.js';
import type { WriteDoor } from '../writes/write-door.js';
import { ORDER_CSV_COLUMNS } from './order.export.js';
import {
  COMPUTED_COLUMNS,
  jsonLines,
  LINE_COLUMNS,
  readImportedContent,
  SHIPPING_COLUMNS,
  type ContentCells,
} from './order.import-content.js';
import { contentRecord, type ContentRecord } from './order.content.js';
import { orderRepository } from './order.repository.js';
import { OrderFeedItem } from './order.schemas.js';

/** Order numbers looked up in the store at once. */
const LOOKUP = 1000;
/** Lines written in one transaction at most (5 a order on average at BATCH orders). */
const LINES_PER_BATCH = 5 * BATCH;

export interface OrderImportOptions extends ImportOptions {
  /** The currency of a row that names none (DEFAULT_CURRENCY). */
  readonly defaultCurrency: string;
}

/** One order to create: what `POST /orders` takes, with the row(s) it came from. */
export interface ImportedOrder {
  /** The line of its (first) row. */
  readonly line: number;
  /** The lines of its other rows (CSV rows sharing its OrderNumber). */
  readonly more: readonly number[];
  readonly orderNumber: string;
  readonly note: string | null;
  /** What it holds, in minor units: its amounts are computed batch by batch, before each write. */
  readonly content: OrderContent;
}

type Field = 'OrderNumber' | 'Note' | 'Confirmation.Note';
/**
 * The columns an order import reads, and those it passes over: every other field of the feed, so
 * that what `orders export` writes imports as it is (the orders are created anew, open; their
 * amounts computed anew). An order's `Note` imports as its note; a row without a `Note` (an
 * export of a release that showed the note only in the confirmation) takes `Confirmation.Note`.
 */
const READ: ReadonlyMap<string, Field> = new Map([
  ['ordernumber', 'OrderNumber'],
  ['note', 'Note'],
  ['confirmation.note', 'Confirmation.Note'],
]);
/** The order's content columns of a CSV row, and the content's fields of a JSON record (`Lines` and `Shipping` as values). */
const CONTENT_COLUMNS = new Set(['currency', 'pricesincludetax', ...SHIPPING_COLUMNS]);
const CONTENT_FIELDS = new Set(['currency', 'pricesincludetax', 'lines', 'shipping']);
// JSON Lines carry every field of the feed, lists and objects too (Confirmation, Totals, …).
const PASSED_OVER = new Set(
  [...ORDER_CSV_COLUMNS, ...COMPUTED_COLUMNS, ...Object.keys(OrderFeedItem.properties)]
    .map((c) => c.toLowerCase())
    .filter((c) => !READ.has(c) && !CONTENT_COLUMNS.has(c) && !CONTENT_FIELDS.has(c)),
);
const EXPECTED = 'OrderNumber, Note, Currency, PricesIncludeTax, Shipping.*, Lines.*';

function headerProblems(header: readonly string[]): string[] {
  const problems: string[] = [];
  const seen = new Set<string>();
  for (const name of header) {
    const key = name.trim().toLowerCase();
    if (seen.has(key)) problems.push(`column '${name}' appears twice`);
    seen.add(key);
    const known = READ.has(key) || CONTENT_COLUMNS.has(key) || LINE_COLUMNS.includes(key) || PASSED_OVER.has(key);
    if (!known) problems.push(`unknown column '${name}' (expected ${EXPECTED})`);
  }
  if (!seen.has('ordernumber')) problems.push('no OrderNumber column');
  return problems;
}

/** One record's fields: the order's own, its content's cells, and what is wrong with them. */
interface OrderRecord {
  readonly line: number;
  readonly rules: FieldRules;
  readonly given: Partial<Record<Field, string | null>>;
  readonly cells: ContentCells;
  /** The order's columns as the row gives them (CSV): every row of an order repeats them. */
  readonly orderCells: ReadonlyMap<string, unknown>;
}

/** Reads one record's fields by name; the values are checked once its order is complete (checkOrder). */
function readRecord(line: number, names: readonly string[], values: readonly unknown[], csv: boolean): OrderRecord {
  const rules = new FieldRules();
  const given: Partial<Record<Field, string | null>> = {};
  const orderCells = new Map<string, unknown>();
  const content: { currency?: unknown; pricesIncludeTax?: unknown; shipping?: unknown; lines?: unknown } = {};
  const shipping: Record<string, unknown> = {};
  const lineCells: Record<string, unknown> = {};
  for (let i = 0; i < names.length; i++) {
    const name = names[i]!;
    const key = name.trim().toLowerCase();
    const value = values[i];
    // JSON Lines carry the confirmation as an object; only its note is read.
    if (key === 'confirmation' && value !== null && typeof value === 'object' && 'Note' in value) {
      const note = (value as { Note: unknown }).Note;
      if (typeof note === 'string') given['Confirmation.Note'] = note;
      continue;
    }
    if (key === 'currency') content.currency = value;
    else if (key === 'pricesincludetax') content.pricesIncludeTax = value;
    else if (!csv && key === 'lines') content.lines = value;
    else if (!csv && key === 'shipping') content.shipping = value;
    else if (csv && SHIPPING_COLUMNS.includes(key)) shipping[key.slice('shipping.'.length)] = value;
    else if (csv && LINE_COLUMNS.includes(key)) lineCells[key.slice('lines.'.length)] = value;
    if (csv && (CONTENT_COLUMNS.has(key) || READ.has(key))) orderCells.set(name.trim(), value);
    if (!READ.has(key)) {
      const read = csv ? CONTENT_COLUMNS.has(key) || LINE_COLUMNS.includes(key) : CONTENT_FIELDS.has(key);
      if (!read && !PASSED_OVER.has(key)) rules.fail(name, 'UnknownField', `unknown field '${name}'`);
      continue;
    }
    const field = READ.get(key)!;
    if (value === null || value === undefined) given[field] = null;
    else if (typeof value !== 'string') rules.fail(field, 'TypeMismatch', `'${field}' must be a string`);
    else if (value.includes('\u0000')) rules.fail(field, 'InvalidCharacter', `'${field}' must not contain NUL characters`);
    else given[field] = value;
  }
  const someCell = (cells: Record<string, unknown>) => Object.values(cells).some((v) => v !== '');
  if (csv) {
    if (someCell(shipping)) content.shipping = shipping;
    if (someCell(lineCells)) content.lines = lineCells;
  }
  return { line, rules, given, cells: { csv, ...content }, orderCells };
}

/** An order's rows that are invalid, each with its problems. */
type RowProblems = Map<number, string[]>;

/**
 * Checks an order — one JSON record, or the CSV rows sharing its OrderNumber, one line each — with
 * the rules of `POST /orders` (OrderNumber here required): the order, or the problems of its rows.
 * A line's problems are its row's (`Lines[2].Quantity`); the order's own, its first row's.
 */
function checkOrder(records: readonly OrderRecord[], defaultCurrency: string): ImportedOrder | RowProblems {
  const first = records[0]!;
  const { rules, given } = first;
  const orderNumber = given.OrderNumber ?? '';
  if (!rules.hasFailed('OrderNumber')) rules.notEmpty('OrderNumber', orderNumber.trim()).maxLength('OrderNumber', orderNumber, NAME_LENGTH);
  const field = given.Note !== undefined ? 'Note' : 'Confirmation.Note';
  const note = given[field] === undefined || given[field] === '' ? null : given[field];
  if (!rules.hasFailed(field)) rules.maxLength(field, note, TEXT_LENGTH);
  for (const r of records.slice(1)) {
    for (const [column, value] of r.orderCells) {
      if (value !== first.orderCells.get(column))
        r.rules.fail(column, 'Equal', `'${column}' differs from line ${first.line}, where order '${orderNumber}' begins`);
    }
  }
  const withLines = first.cells.csv ? records.filter((r) => r.cells.lines !== undefined) : [];
  const lines = first.cells.csv ? withLines.map((r) => r.cells.lines) : jsonLines(rules, first.cells.lines);
  const contentRules = new FieldRules();
  const content = readImportedContent(contentRules, first.cells, lines, defaultCurrency);
  for (const e of contentRules.errors) {
    const index = /^Lines\[(\d+)\]/.exec(e.fieldName)?.[1];
    (index !== undefined && first.cells.csv ? withLines[Number(index)]! : first).rules.fail(e.fieldName, e.errorCode, e.message);
  }
  const bad = records.filter((r) => r.rules.errors.length > 0);
  if (bad.length === 0) return { line: first.line, more: records.slice(1).map((r) => r.line), orderNumber, note, content: content! };
  const problems: RowProblems = new Map();
  for (const r of records) {
    problems.set(
      r.line,
      r.rules.errors.length > 0
        ? r.rules.errors.map((e) => `${e.fieldName}: ${e.message}`)
        : [`order '${orderNumber}' is not imported: line ${bad[0]!.line} is invalid`],
    );
  }
  return problems;
}

/** An order of a batch as the write stores it: its content's amounts computed. */
export interface ImportedOrderRow {
  readonly orderNumber: string;
  readonly note: string | null;
  readonly content: ContentRecord;
}

/** Creates one batch of checked orders; a number taken since the check refuses the batch. */
export const importOrdersWrite = defineWrite('order.import-batch', async (unit, orders: readonly ImportedOrderRow[]): Promise<number> => {
  const createdAt = Date.now();
  for (let i = 0; i < orders.length; i += LOOKUP) {
    const rows = orders
      .slice(i, i + LOOKUP)
      .map((o) => ({ order_number: o.orderNumber, note: o.note, created_at: createdAt, content: o.content }));
    const ids = await orderRepository.insertNew(unit.db, rows);
    if (ids.length < rows.length) throw duplicateOrderNumber();
    for (const id of ids) {
      unit.touch('order', String(id));
      unit.emit({ type: 'order.created', orderId: id });
    }
  }
  return orders.length;
});

/** The orders of one write: BATCH of them, fewer when they hold many lines (a transaction stays short). */
function* batches(orders: readonly ImportedOrder[]): Generator<ImportedOrder[]> {
  let batch: ImportedOrder[] = [];
  let lines = 0;
  for (const o of orders) {
    if (batch.length >= BATCH || (batch.length > 0 && lines + o.content.Lines.length > LINES_PER_BATCH)) {
      yield batch;
      batch = [];
      lines = 0;
    }
    batch.push(o);
    lines += o.content.Lines.length;
  }
  if (batch.length > 0) yield batch;
}

/**
 * Creates open orders from a CSV or JSON Lines file. Every row is checked first — its fields, and
 * its OrderNumber against the rest of the file and the store; a file with an invalid row imports
 * nothing unless `skipInvalid`. CSV rows sharing an OrderNumber, one after the other, are one order
 * with a line each. The valid orders are held (their numbers, notes and content in minor units) and
 * written through the write door in batches, each committed with its stamp.
 */
export async function importOrders(store: Store, writes: WriteDoor, file: string, opts: OrderImportOptions): Promise<ImportReport> {
  const fileProblems: string[] = [];
  let records = 0;
  const invalid: Array<{ line: number; problems: string[] }> = [];
  const invalidLines = new Set<number>();
  const reject = (line: number, problems: string[]) => {
    invalidLines.add(line);
    if (invalid.length < KEPT_MESSAGES) invalid.push({ line, problems });
  };
  const report = (imported: number, failure?: string): ImportReport => {
    invalid.sort((a, b) => a.line - b.line);
    return { fileProblems, records, invalidCount: invalidLines.size, invalid, imported, ...(failure ? { failure } : {}) };
  };
  const csv = opts.format === 'csv';
  let grouped = false;
  if (csv) {
    const header = await csvHeader(file);
    if (!header) fileProblems.push('no header line naming the columns');
    else fileProblems.push(...headerProblems(header));
    if (fileProblems.length > 0) return report(0);
    grouped = header!.some((name) => LINE_COLUMNS.includes(name.trim().toLowerCase()));
  }

  const firstLineOf = new Map<string, number>();
  const valid: ImportedOrder[] = [];
  let pending: ImportedOrder[] = [];
  const checkTaken = async () => {
    const taken = await orderRepository.takenOrderNumbers(
      store.reader,
      pending.map((o) => o.orderNumber),
    );
    for (const o of pending) if (taken.has(o.orderNumber)) rejectRows(o, `OrderNumber: '${o.orderNumber}' exists already`);
    pending = [];
  };
  const rejectOrder = (problems: RowProblems) => {
    for (const [line, p] of problems) reject(line, p);
  };
  const rowsOf = (o: ImportedOrder) => [o.line, ...o.more];
  const rejectRows = (o: ImportedOrder, problem: string) =>
    rejectOrder(
      new Map(
        rowsOf(o).map((line, i) => [line, [i === 0 ? problem : `order '${o.orderNumber}' is not imported: line ${o.line} is invalid`]]),
      ),
    );
  const accept = async (records: readonly OrderRecord[]) => {
    const order = checkOrder(records, opts.defaultCurrency);
    if (order instanceof Map) return rejectOrder(order);
    const first = firstLineOf.get(order.orderNumber);
    if (first !== undefined) {
      const hint = grouped ? " (an order's rows follow one another)" : '';
      return rejectRows(order, `OrderNumber: '${order.orderNumber}' is also on line ${first}${hint}`);
    }
    firstLineOf.set(order.orderNumber, order.line);
    valid.push(order);
    pending.push(order);
    if (pending.length >= LOOKUP) await checkTaken();
  };
  const size = statSync(file).size;
  const reader = readImportFile(file, opts.format);
  // The rows of the order being read (CSV with line columns: the rows sharing its OrderNumber).
  let group: OrderRecord[] = [];
  try {
    for await (const rec of reader.records) {
      if (++records % 10_000 === 0) opts.onProgress?.('check', reader.bytesRead(), size);
      if ('error' in rec) {
        reject(rec.line, [rec.error]);
        continue;
      }
      const record = readRecord(rec.line, rec.names, rec.values, csv);
      const number = record.given.OrderNumber;
      if (group.length > 0 && !(grouped && number && number === group[0]!.given.OrderNumber)) {
        await accept(group);
        group = [];
      }
      group.push(record);
    }
    if (group.length > 0) await accept(group);
  } catch (err) {
    if (!(err instanceof UnreadableFile)) throw err;
    fileProblems.push(err.message);
    return report(0);
  }
  if (pending.length > 0) await checkTaken();
  opts.onProgress?.('check', size, size);
  if (invalidLines.size > 0 && !opts.skipInvalid) return report(0);

  const orders = valid.filter((o) => !invalidLines.has(o.line));
  let imported = 0;
  for (const batch of batches(orders)) {
    const rows = batch.map((o): ImportedOrderRow => ({ orderNumber: o.orderNumber, note: o.note, content: contentRecord(o.content) }));
    try {
      imported += await writes.run(importOrdersWrite, rows);
    } catch (err) {
      return report(imported, `rows from line ${batch[0]!.line} on were not imported: ${(err as Error).message}`);
    }
    opts.onProgress?.('write', imported, orders.length);
  }
  return report(imported);
}
