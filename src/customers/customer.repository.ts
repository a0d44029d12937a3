import { sql } from 'kysely';
import type { CustomerRow } from '../store/database.js';
import { lockRows } from '../store/dialect-sql.js';
import { placeholders, runSql } from '../store/precompiled-sql.js';
import type { Dialect, Executor } from '../store/store.js';
import type { CustomerData } from './customer.mapping.js';
import type { Position } from './sync-cursor.js';

/** The 13 data columns, in table order. */
const DATA_COLUMNS: ReadonlyArray<keyof CustomerData> = [
  'external_id', 'salutation', 'first_name', 'last_name', 'postal_code', 'city', 'country',
  'street', 'street_number', 'company', 'company2', 'addition_to_address', 'quarter',
];

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

/**
 * The search's SELECT without its columns, in sync order.
 *
 * Without identifiers, the stamp range and the keyset are row-value comparisons on
 * (modified_at, customer_id): both backends read them as a range of the sync-order index (an OR of
 * two comparisons would rescan a whole stamp group on every chunk).
 *
 * With identifiers, the stamp conditions are written as expressions (`modified_at + 0`) that no
 * index matches, so that the planners cannot pick a range scan of the sync-order index (which they
 * do without statistics, or when LastModifiedAfter looks selective): the only indexable conditions
 * left are the two unique-index lookups, at most 2,000 rows, sorted in memory.
 */
export function searchQuery(db: Executor, f: CustomerFilter) {
  const byIds = f.identifiers !== undefined && f.identifiers.length > 0;
  const stamp = byIds ? sql`modified_at + 0` : sql.ref('modified_at');
  const position = byIds ? sql`(modified_at + 0, customer_id || '')` : sql`(modified_at, customer_id)`;
  let q = db.selectFrom('customers').where(sql<boolean>`${stamp} <= ${f.modifiedAtMost}`);
  // One lower bound, the tighter of the two, so that the index range starts right at it.
  const { after, through } = f;
  if (after && (f.modifiedAfter === undefined || after.modifiedAt > f.modifiedAfter)) {
    q = q.where(sql<boolean>`${position} > (${after.modifiedAt}, ${after.customerId})`);
  } else if (f.modifiedAfter !== undefined) {
    q = q.where(sql<boolean>`${stamp} > ${f.modifiedAfter}`);
  }
  if (through) q = q.where(sql<boolean>`${position} <= (${through.modifiedAt}, ${through.customerId})`);
  if (byIds) {
    const ids = [...f.identifiers!];
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
    let q = searchQuery(db, f).selectAll();
    if (limit !== undefined) q = q.limit(limit);
    if (offset > 0) q = (limit === undefined ? q.limit(Number.MAX_SAFE_INTEGER) : q).offset(offset);
    return q.execute();
  },

  /** Positions of the rows at `offset` and after it (index-only on the sync-order index). */
  async positionsAt(db: Executor, f: CustomerFilter, offset: number, count: number): Promise<Position[]> {
    const rows = await searchQuery(db, f).select(['modified_at', 'customer_id']).limit(count).offset(offset).execute();
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

  /**
   * Takes the row locks of those of these customers that exist (PostgreSQL; SQLite's write
   * transaction holds the whole database), so that a writer can take its stamp next and then write
   * them in one go, keeping the lock order of store/sync-clock.ts.
   */
  async lockExisting(db: Executor, dialect: Dialect, customerIds: readonly string[]): Promise<void> {
    if (customerIds.length === 0) return;
    await lockRows(dialect, db.selectFrom('customers').select('customer_id').where('customer_id', 'in', [...customerIds]), 'update').execute();
  },

  /**
   * Inserts or replaces many customers in one statement, stamped `stamp` (the import). Ids must be
   * distinct within one call.
   */
  async writeMany(db: Executor, rows: ReadonlyArray<{ readonly customerId: string; readonly data: CustomerData }>, stamp: number): Promise<void> {
    if (rows.length === 0) return;
    await db
      .insertInto('customers')
      .values(rows.map((r) => ({ customer_id: r.customerId, ...r.data, modified_at: stamp, created_at: stamp, custom_fields_version: 0 })))
      .onConflict((oc) =>
        oc.column('customer_id').doUpdateSet((eb) => ({
          ...(Object.fromEntries(DATA_COLUMNS.map((c) => [c, eb.ref(`excluded.${c}`)])) as Record<keyof CustomerData, never>),
          modified_at: stamp,
        })),
      )
      .execute();
  },

  /** Moves the modification stamp of customers (every write to a customer calls this). */
  async touch(db: Executor, customerIds: readonly string[], stamp: number): Promise<void> {
    if (customerIds.length === 0) return;
    // Written once per id count (store/precompiled-sql.ts): group commits call this per transaction.
    await runSql(db, `update customers set modified_at = ? where customer_id in (${placeholders(customerIds.length)})`, [stamp, ...customerIds]);
  },

  /** Which customers hold these external ids now: externalId → customerId. */
  async holdersOfExternalIds(db: Executor, externalIds: readonly string[]): Promise<Map<string, string>> {
    if (externalIds.length === 0) return new Map();
    const rows = await db.selectFrom('customers').select(['customer_id', 'external_id']).where('external_id', 'in', [...externalIds]).execute();
    return new Map(rows.map((r) => [r.external_id!, r.customer_id]));
  },
};
