import type { CustomerRow } from '../store/database.js';
import type { Executor } from '../store/store.js';
import type { CustomerData } from './customer.mapping.js';
import type { Position } from './sync-cursor.js';

/** What a search reads: the sync window (after, atMost], a keyset range and identifiers. */
export interface CustomerFilter {
  readonly identifiers?: readonly string[];
  /** Strict lower bound of the stamp (LastModifiedAfter). */
  readonly modifiedAfter?: number;
  /** Upper bound of the stamp: the watermark read before the rows. */
  readonly modifiedAtMost: number;
  /** Only rows strictly after this (modified_at, customer_id) position. */
  readonly after?: Position;
  /** Only rows at or before this position. */
  readonly through?: Position;
}

// Row-value comparisons use the (modified_at, customer_id) index as a range on both backends; the
// equivalent OR of two comparisons rescans a whole stamp group on every chunk.
function filtered(db: Executor, f: CustomerFilter) {
  let q = db.selectFrom('customers').where('modified_at', '<=', f.modifiedAtMost);
  if (f.modifiedAfter !== undefined) q = q.where('modified_at', '>', f.modifiedAfter);
  const { after, through } = f;
  if (after) q = q.where((eb) => eb(eb.refTuple('modified_at', 'customer_id'), '>', eb.tuple(after.modifiedAt, after.customerId)));
  if (through) q = q.where((eb) => eb(eb.refTuple('modified_at', 'customer_id'), '<=', eb.tuple(through.modifiedAt, through.customerId)));
  if (f.identifiers && f.identifiers.length > 0) {
    const ids = [...f.identifiers];
    // Both backends plan this OR as two unique-index lookups (MULTI-INDEX OR / BitmapOr).
    q = q.where((eb) => eb.or([eb('customer_id', 'in', ids), eb('external_id', 'in', ids)]));
  }
  return q.orderBy('modified_at').orderBy('customer_id');
}

/** All SQL about customers. */
export const customerRepository = {
  findById(db: Executor, customerId: string): Promise<CustomerRow | undefined> {
    return db.selectFrom('customers').selectAll().where('customer_id', '=', customerId).executeTakeFirst();
  },

  findByExternalId(db: Executor, externalId: string): Promise<CustomerRow | undefined> {
    return db.selectFrom('customers').selectAll().where('external_id', '=', externalId).executeTakeFirst();
  },

  /** Up to `limit` customers in sync order (modified_at, customer_id), skipping `offset`. */
  search(db: Executor, f: CustomerFilter, limit?: number, offset = 0): Promise<CustomerRow[]> {
    let q = filtered(db, f).selectAll();
    if (limit !== undefined) q = q.limit(limit);
    if (offset > 0) q = (limit === undefined ? q.limit(Number.MAX_SAFE_INTEGER) : q).offset(offset);
    return q.execute();
  },

  /** Positions of the rows at `offset` and after it (index-only on the sync-order index). */
  async positionsAt(db: Executor, f: CustomerFilter, offset: number, count: number): Promise<Position[]> {
    const rows = await filtered(db, f).select(['modified_at', 'customer_id']).limit(count).offset(offset).execute();
    return rows.map((r) => ({ modifiedAt: Number(r.modified_at), customerId: r.customer_id }));
  },

  /**
   * Inserts or replaces the customer's data, stamped `stamp`. Callers that have not taken their
   * stamp yet write with `writeData` and stamp with `touch` afterwards (see store/sync-clock.ts).
   */
  async upsert(db: Executor, customerId: string, data: CustomerData, stamp: number): Promise<void> {
    await customerRepository.writeData(db, customerId, data, stamp);
    await customerRepository.touch(db, [customerId], stamp);
  },

  /**
   * Writes the 13 data columns (a new row gets `provisionalStamp`, to be replaced by `touch` in the
   * same transaction). UPDATE first: an UPDATE that leaves ExternalId as it is takes PostgreSQL's
   * weaker row lock, which does not wait for transactions inserting orders or custom-field values
   * that reference the customer; INSERT … ON CONFLICT would always take the strong one.
   */
  async writeData(db: Executor, customerId: string, data: CustomerData, provisionalStamp: number): Promise<'created' | 'updated'> {
    const updated = await db.updateTable('customers').set(data).where('customer_id', '=', customerId).executeTakeFirst();
    if (Number(updated.numUpdatedRows) > 0) return 'updated';
    await db
      .insertInto('customers')
      .values({ customer_id: customerId, ...data, modified_at: provisionalStamp, created_at: provisionalStamp, custom_fields_version: 0 })
      .onConflict((oc) => oc.column('customer_id').doUpdateSet(data))
      .execute();
    return 'created';
  },

  /** Moves the modification stamp of customers (every write to a customer calls this). */
  async touch(db: Executor, customerIds: readonly string[], stamp: number): Promise<void> {
    if (customerIds.length === 0) return;
    await db.updateTable('customers').set({ modified_at: stamp }).where('customer_id', 'in', [...customerIds]).execute();
  },

  /** Which customers hold these external ids now: externalId → customerId. */
  async holdersOfExternalIds(db: Executor, externalIds: readonly string[]): Promise<Map<string, string>> {
    if (externalIds.length === 0) return new Map();
    const rows = await db.selectFrom('customers').select(['customer_id', 'external_id']).where('external_id', 'in', [...externalIds]).execute();
    return new Map(rows.map((r) => [r.external_id!, r.customer_id]));
  },
};
