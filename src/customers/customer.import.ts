import { statSync } from 'node:fs';
import { type CustomFieldDefinition, customFieldDefinitions } from '../customfields/index.js';
import type { Store } from '../store/store.js';
import type { WriteDoor } from '../writes/write-door.js';
import { customerRepository } from './customer.repository.js';
import { importBatchWrite, type ReadRecord } from './customer.writes.js';
import { BATCH, KEPT_MESSAGES, type ImportOptions, type ImportReport } from '../bulk/import-report.js';
import { csvHeader, readImportFile, UnreadableFile } from '../bulk/import-read.js';
import { checkRow, columnOf, headerProblems } from './customer.import-row.js';

/** External ids looked up in the store at once. */
const HOLDER_LOOKUP = 1000;

interface Checked {
  readonly fileProblems: string[];
  readonly invalidLines: Set<number>;
  readonly invalid: Array<{ line: number; problems: string[] }>;
  records: number;
  valid: number;
  usesCustomFields: boolean;
}

/** Pass 1: reads every record and checks it, also against the rest of the file and the store. */
async function check(
  store: Store,
  file: string,
  opts: ImportOptions,
  definitions: ReadonlyMap<number, CustomFieldDefinition>,
): Promise<Checked> {
  const c: Checked = { fileProblems: [], invalidLines: new Set(), invalid: [], records: 0, valid: 0, usesCustomFields: false };
  if (opts.format === 'csv') {
    const header = await csvHeader(file);
    if (!header) c.fileProblems.push('no header line naming the columns');
    else c.fileProblems.push(...headerProblems(header, definitions));
    c.usesCustomFields = (header ?? []).some((n) => {
      const col = columnOf(n);
      return col !== undefined && 'customField' in col;
    });
    if (c.fileProblems.length > 0) return c;
  }
  const reject = (line: number, problems: string[]) => {
    if (c.invalidLines.has(line)) return;
    c.invalidLines.add(line);
    if (c.invalid.length < KEPT_MESSAGES) c.invalid.push({ line, problems });
  };
  const firstLineOf = new Map<string, number>();
  const externalOwner = new Map<string, string>();
  let pending: Array<{ line: number; customerId: string; externalId: string }> = [];
  const checkHolders = async () => {
    const holders = await customerRepository.holdersOfExternalIds(
      store.reader,
      pending.map((p) => p.externalId),
    );
    for (const p of pending) {
      const holder = holders.get(p.externalId);
      if (holder !== undefined && holder !== p.customerId)
        reject(p.line, [`ExternalId: '${p.externalId}' belongs to customer '${holder}'`]);
    }
    pending = [];
  };
  const size = statSync(file).size;
  const reader = readImportFile(file, opts.format);
  try {
    for await (const rec of reader.records) {
      if (++c.records % 10_000 === 0) opts.onProgress?.('check', reader.bytesRead(), size);
      if ('error' in rec) {
        reject(rec.line, [rec.error]);
        continue;
      }
      const row = checkRow(rec.names, rec.values, opts.format, definitions);
      if (Array.isArray(row)) {
        reject(rec.line, row);
        continue;
      }
      if (row.customFields.length > 0) c.usesCustomFields = true;
      const first = firstLineOf.get(row.customerId);
      if (first !== undefined) {
        reject(rec.line, [`CustomerId: '${row.customerId}' is also on line ${first}`]);
        continue;
      }
      firstLineOf.set(row.customerId, rec.line);
      const ext = row.data.external_id;
      if (ext === null) continue;
      const owner = externalOwner.get(ext);
      if (owner !== undefined) {
        reject(rec.line, [`ExternalId: '${ext}' is also the ExternalId of '${owner}' on line ${firstLineOf.get(owner)}`]);
        continue;
      }
      externalOwner.set(ext, row.customerId);
      pending.push({ line: rec.line, customerId: row.customerId, externalId: ext });
      if (pending.length >= HOLDER_LOOKUP) await checkHolders();
    }
  } catch (err) {
    if (!(err instanceof UnreadableFile)) throw err;
    c.fileProblems.push(err.message);
    return c;
  }
  if (pending.length > 0) await checkHolders();
  opts.onProgress?.('check', size, size);
  c.invalid.sort((a, b) => a.line - b.line);
  let invalidFirsts = 0;
  for (const line of firstLineOf.values()) if (c.invalidLines.has(line)) invalidFirsts++;
  c.valid = firstLineOf.size - invalidFirsts;
  return c;
}

/**
 * Imports customers from a CSV or JSON Lines file with upsert semantics by CustomerId. Every row is
 * checked before anything is written; a file with an invalid row imports nothing unless
 * `skipInvalid`. Rows are then written through the write door in units of BATCH, each committed
 * with its stamp, so the sync feed shows them and live traffic is not held up for the whole import.
 */
export async function importCustomers(store: Store, writes: WriteDoor, file: string, opts: ImportOptions): Promise<ImportReport> {
  const definitions = await customFieldDefinitions(store.reader);
  const checked = await check(store, file, opts, definitions);
  const report = {
    fileProblems: checked.fileProblems,
    records: checked.records,
    invalidCount: checked.invalidLines.size,
    invalid: checked.invalid,
    imported: 0,
  };
  if (checked.fileProblems.length > 0 || (checked.invalidLines.size > 0 && !opts.skipInvalid)) return report;

  let batch: ReadRecord[] = [];
  const flush = async () => {
    await writes.run(importBatchWrite, { records: batch, format: opts.format, usesCustomFields: checked.usesCustomFields });
    report.imported += batch.length;
    opts.onProgress?.('write', report.imported, checked.valid);
    batch = [];
  };
  try {
    for await (const rec of readImportFile(file, opts.format).records) {
      if ('error' in rec || checked.invalidLines.has(rec.line)) continue;
      batch.push(rec);
      if (batch.length >= BATCH) await flush();
    }
    if (batch.length > 0) await flush();
  } catch (err) {
    const why = String((err as Error).message ?? err);
    return { ...report, failure: `rows from line ${batch[0]?.line ?? '?'} on were not imported: ${why}` };
  }
  return report;
}
