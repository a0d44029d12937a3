import { type CustomFieldDefinition, customFieldDefinitions, storeCustomFieldValues } from '../customfields/index.js';
import { externalIdTaken } from '../errors.js';
import type { CustomerRow } from '../store/database.js';
import { isUniqueViolation } from '../store/unique-violation.js';
import { defineWrite } from '../writes/unit.js';
import type { CustomerData } from './customer.columns.js';
import { customerRepository } from './customer.repository.js';
import { checkRow, type ImportRow } from './customer.import-row.js';
import type { ImportFormat } from '../bulk/import-read.js';

/** Creates or replaces a customer; answers the row as written and whether it was new. */
export const upsertCustomerWrite = defineWrite(
  'customer.upsert',
  async (unit, input: { customerId: string; data: CustomerData }): Promise<{ row: CustomerRow; created: boolean }> => {
    const { customerId, data } = input;
    if (data.external_id !== null) {
      const holder = await customerRepository.findByExternalId(unit.db, data.external_id);
      if (holder && holder.customer_id !== customerId) throw externalIdTaken();
    }
    let outcome: 'created' | 'updated';
    try {
      outcome = await customerRepository.writeData(unit.db, customerId, data, Date.now());
    } catch (err) {
      // Another writer took the ExternalId since the check.
      if (isUniqueViolation(err)) throw externalIdTaken();
      throw err;
    }
    unit.touch('customer', customerId);
    unit.emit({ type: outcome === 'created' ? 'customer.created' : 'customer.updated', customerId });
    return { row: (await customerRepository.findById(unit.db, customerId))!, created: outcome === 'created' };
  },
);

/** A record of an import file, as read: checked again inside the write (definitions may have changed). */
export interface ReadRecord {
  readonly line: number;
  readonly names: readonly string[];
  readonly values: readonly unknown[];
}

/** Refuses a batch whose rows no longer pass; the import reports its message by line. */
class BatchRefused extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'BatchRefused';
  }
}

/**
 * One batch of an import: every row written (upsert by CustomerId), then its custom-field values;
 * the door stamps them all with one stamp. Custom-field definitions are held against change until
 * commit, and the rows checked again under that hold.
 */
export const importBatchWrite = defineWrite(
  'customer.import-batch',
  async (unit, input: { records: readonly ReadRecord[]; format: ImportFormat; usesCustomFields: boolean }): Promise<number> => {
    const definitions = input.usesCustomFields ? await customFieldDefinitions(unit.db, true) : new Map<number, CustomFieldDefinition>();
    const rows: ImportRow[] = [];
    for (const { line, names, values } of input.records) {
      const row = checkRow(names, values, input.format, definitions);
      if (Array.isArray(row)) throw new BatchRefused(`line ${line}: ${row.join('; ')} (the custom fields changed during the import)`);
      rows.push(row);
    }
    const existing = await customerRepository.existingIds(
      unit.db,
      rows.map((r) => r.customerId),
    );
    try {
      await customerRepository.writeMany(unit.db, rows, Date.now());
    } catch (err) {
      if (isUniqueViolation(err)) throw new BatchRefused('an ExternalId was taken by another customer during the import');
      throw err;
    }
    const customFields = rows.flatMap((r) => r.customFields);
    if (customFields.length > 0) await storeCustomFieldValues(unit.db, customFields);
    for (const r of rows) {
      unit.touch('customer', r.customerId);
      unit.emit({ type: existing.has(r.customerId) ? 'customer.updated' : 'customer.created', customerId: r.customerId });
      if (r.customFields.length > 0)
        unit.emit({ type: 'customer.customfields_changed', customerId: r.customerId, numbers: r.customFields.map((f) => f.number) });
    }
    return rows.length;
  },
);

/** Inserts the given demo customers that do not exist yet; answers how many were new. */
export const insertNewCustomersWrite = defineWrite('customer.insert-new', async (unit, rows: readonly CustomerRow[]): Promise<number> => {
  const ids = await customerRepository.insertNew(unit.db, rows);
  for (const id of ids) unit.touch('customer', id);
  return ids.length;
});

export const customerWrites = [upsertCustomerWrite, importBatchWrite, insertNewCustomersWrite];
