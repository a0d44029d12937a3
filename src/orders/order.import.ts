import { statSync } from 'node:fs';
// Batches and kept messages as the customer import has them: one behaviour for both imports.
import { BATCH, KEPT_MESSAGES, type ImportOptions, type ImportReport } from '../bulk/import-report.js';
import { csvHeader, readImportFile, UnreadableFile } from '../bulk/import-read.js';
import { duplicateOrderNumber } from '../errors.js';
import type { Store } from '../store/store.js';
import { FieldRules } from '../wire/field-rules.js';
import { NAME_LENGTH, TEXT_LENGTH } from '../wire/request-schema.js';
import { defineWrite } from '../writes/unit.js';
import type { WriteDoor } from '../writes/write-door.js';
import { ORDER_CSV_COLUMNS } from './order.export.js';
import { orderRepository } from './order.repository.js';
import { OrderFeedItem } from './order.schemas.js';

/** Order numbers looked up in the store at once. */
const LOOKUP = 1000;

/** One order to create: what `POST /orders` takes, with the line it came from. */
export interface ImportedOrder {
  readonly line: number;
  readonly orderNumber: string;
  readonly note: string | null;
}

type Field = 'OrderNumber' | 'Note' | 'Confirmation.Note';
/**
 * The columns an order import reads, and those it passes over: every other field of the feed, so
 * that what `orders export` writes imports as it is (the orders are created anew, open). The feed
 * shows an order's note only in its confirmation: a row without `Note` takes `Confirmation.Note`.
 */
const READ: ReadonlyMap<string, Field> = new Map([
  ['ordernumber', 'OrderNumber'],
  ['note', 'Note'],
  ['confirmation.note', 'Confirmation.Note'],
]);
// JSON Lines carry the confirmation, the content and the order's records as objects: every field the feed shows.
const PASSED_OVER = new Set(
  [...ORDER_CSV_COLUMNS, ...Object.keys(OrderFeedItem.properties)].map((c) => c.toLowerCase()).filter((c) => !READ.has(c)),
);

function headerProblems(header: readonly string[]): string[] {
  const problems: string[] = [];
  const seen = new Set<string>();
  for (const name of header) {
    const key = name.trim().toLowerCase();
    if (seen.has(key)) problems.push(`column '${name}' appears twice`);
    seen.add(key);
    if (!READ.has(key) && !PASSED_OVER.has(key)) problems.push(`unknown column '${name}' (expected OrderNumber, Note)`);
  }
  if (!seen.has('ordernumber')) problems.push('no OrderNumber column');
  return problems;
}

/** Checks one record with the rules of `POST /orders` (OrderNumber here required); the order, or one message per bad field. */
function checkRecord(line: number, names: readonly string[], values: readonly unknown[]): ImportedOrder | string[] {
  const rules = new FieldRules();
  const given: Partial<Record<Field, string | null>> = {};
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
    const field = READ.get(key);
    if (!field) {
      if (!PASSED_OVER.has(key)) rules.fail(name, 'UnknownField', `unknown field '${name}'`);
      continue;
    }
    if (value === null || value === undefined) given[field] = null;
    else if (typeof value !== 'string') rules.fail(field, 'TypeMismatch', `'${field}' must be a string`);
    else if (value.includes('\u0000')) rules.fail(field, 'InvalidCharacter', `'${field}' must not contain NUL characters`);
    else given[field] = value;
  }
  const orderNumber = given.OrderNumber ?? '';
  if (!rules.hasFailed('OrderNumber')) rules.notEmpty('OrderNumber', orderNumber.trim()).maxLength('OrderNumber', orderNumber, NAME_LENGTH);
  const field = given.Note !== undefined ? 'Note' : 'Confirmation.Note';
  const note = given[field] === undefined || given[field] === '' ? null : given[field];
  if (!rules.hasFailed(field)) rules.maxLength(field, note, TEXT_LENGTH);
  if (rules.errors.length > 0) return rules.errors.map((e) => `${e.fieldName}: ${e.message}`);
  return { line, orderNumber, note };
}

/** Creates one batch of checked orders; a number taken since the check refuses the batch. */
export const importOrdersWrite = defineWrite('order.import-batch', async (unit, orders: readonly ImportedOrder[]): Promise<number> => {
  const createdAt = Date.now();
  for (let i = 0; i < orders.length; i += LOOKUP) {
    const rows = orders.slice(i, i + LOOKUP).map((o) => ({ order_number: o.orderNumber, note: o.note, created_at: createdAt }));
    const ids = await orderRepository.insertNew(unit.db, rows);
    if (ids.length < rows.length) throw duplicateOrderNumber();
    for (const id of ids) {
      unit.touch('order', String(id));
      unit.emit({ type: 'order.created', orderId: id });
    }
  }
  return orders.length;
});

/**
 * Creates open orders from a CSV or JSON Lines file. Every row is checked first — its fields, and
 * its OrderNumber against the rest of the file and the store; a file with an invalid row imports
 * nothing unless `skipInvalid`. The valid orders are held (two short strings each) and written
 * through the write door in units of BATCH, each committed with its stamp.
 */
export async function importOrders(store: Store, writes: WriteDoor, file: string, opts: ImportOptions): Promise<ImportReport> {
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
  if (opts.format === 'csv') {
    const header = await csvHeader(file);
    if (!header) fileProblems.push('no header line naming the columns');
    else fileProblems.push(...headerProblems(header));
    if (fileProblems.length > 0) return report(0);
  }

  const firstLineOf = new Map<string, number>();
  const valid: ImportedOrder[] = [];
  let pending: ImportedOrder[] = [];
  const checkTaken = async () => {
    const taken = await orderRepository.takenOrderNumbers(
      store.reader,
      pending.map((o) => o.orderNumber),
    );
    for (const o of pending) if (taken.has(o.orderNumber)) reject(o.line, [`OrderNumber: '${o.orderNumber}' exists already`]);
    pending = [];
  };
  const size = statSync(file).size;
  const reader = readImportFile(file, opts.format);
  try {
    for await (const rec of reader.records) {
      if (++records % 10_000 === 0) opts.onProgress?.('check', reader.bytesRead(), size);
      if ('error' in rec) {
        reject(rec.line, [rec.error]);
        continue;
      }
      const order = checkRecord(rec.line, rec.names, rec.values);
      if (Array.isArray(order)) {
        reject(rec.line, order);
        continue;
      }
      const first = firstLineOf.get(order.orderNumber);
      if (first !== undefined) {
        reject(rec.line, [`OrderNumber: '${order.orderNumber}' is also on line ${first}`]);
        continue;
      }
      firstLineOf.set(order.orderNumber, rec.line);
      valid.push(order);
      pending.push(order);
      if (pending.length >= LOOKUP) await checkTaken();
    }
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
  for (let i = 0; i < orders.length; i += BATCH) {
    const batch = orders.slice(i, i + BATCH);
    try {
      imported += await writes.run(importOrdersWrite, batch);
    } catch (err) {
      return report(imported, `rows from line ${batch[0]!.line} on were not imported: ${(err as Error).message}`);
    }
    opts.onProgress?.('write', imported, orders.length);
  }
  return report(imported);
}
