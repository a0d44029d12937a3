import type { CustomerRow } from '../store/database.js';
import type { Executor } from '../store/store.js';
import type { CustomerData } from './customer.mapping.js';

export interface CustomerQuery {
  readonly identifiers?: readonly string[];
  readonly modifiedAfter?: number;
  /** Upper bound of the sync window: the watermark read before the rows. */
  readonly modifiedAtMost: number;
  /** Keyset position: rows strictly after (modified_at, customer_id). */
  readonly after?: { readonly modifiedAt: number; readonly customerId: string };
  readonly limit?: number;
  readonly offset?: number;
}

/** All SQL about customers. */
export const customerRepository = {
  findById(db: Executor, customerId: string): Promise<CustomerRow | undefined> {
    return db.selectFrom('customers').selectAll().where('customer_id', '=', customerId).executeTakeFirst();
  },

  findByExternalId(db: Executor, externalId: string): Promise<CustomerRow | undefined> {
    return db.selectFrom('customers').selectAll().where('external_id', '=', externalId).executeTakeFirst();
  },

  /** Customers in sync order (modified_at, customer_id), filtered as the query says. */
  search(db: Executor, q: CustomerQuery): Promise<CustomerRow[]> {
    let query = db.selectFrom('customers').selectAll().where('modified_at', '<=', q.modifiedAtMost);
    if (q.identifiers && q.identifiers.length > 0) {
      const ids = [...q.identifiers];
      query = query.where((eb) => eb.or([eb('customer_id', 'in', ids), eb('external_id', 'in', ids)]));
    }
    if (q.modifiedAfter !== undefined) query = query.where('modified_at', '>', q.modifiedAfter);
    if (q.after) {
      const { modifiedAt, customerId } = q.after;
      query = query.where((eb) => eb.or([eb('modified_at', '>', modifiedAt), eb.and([eb('modified_at', '=', modifiedAt), eb('customer_id', '>', customerId)])]));
    }
    query = query.orderBy('modified_at').orderBy('customer_id');
    if (q.limit !== undefined) query = query.limit(q.limit);
    if (q.offset !== undefined && q.offset > 0) query = q.limit === undefined ? query.limit(Number.MAX_SAFE_INTEGER).offset(q.offset) : query.offset(q.offset);
    return query.execute();
  },

  /** Inserts or replaces the customer's data and stamps it; returns whether it was new. */
  async upsert(db: Executor, customerId: string, data: CustomerData, stamp: number): Promise<void> {
    await db
      .insertInto('customers')
      .values({ customer_id: customerId, ...data, modified_at: stamp, created_at: stamp, custom_fields_version: 0 })
      .onConflict((oc) => oc.column('customer_id').doUpdateSet({ ...data, modified_at: stamp }))
      .execute();
  },

  /** Moves the modification stamp of customers changed by another write (custom fields, confirmations). */
  async touch(db: Executor, customerIds: readonly string[], stamp: number): Promise<void> {
    if (customerIds.length === 0) return;
    await db.updateTable('customers').set({ modified_at: stamp }).where('customer_id', 'in', [...customerIds]).execute();
  },
};
