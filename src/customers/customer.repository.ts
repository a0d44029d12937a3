import { sql } from 'kysely';
import type { CustomerRow } from '../store/database.js';
import { chunks } from '../store/statement-texts.js';
import type { DbHandle, TextMatch } from '../store/store.js';
import type { Stamper } from '../writes/unit.js';
import { DATA_COLUMNS, SYNC_COLUMNS, type CustomerAddress, type CustomerData, type SyncRow } from './customer.columns.js';
import {
  addressColumns,
  identifierSearchSql,
  touchSql,
  updateAddressSql,
  upsertByExternalIdSql,
  findManySql,
} from './customer.statements.js';
import type { Position } from '../wire/sync-cursor.js';
import { CUSTOMER_TEXT, customerWordsRepository } from './customer.words.js';

/** What the feed reads: the sync window (after, atMost] and a keyset range. */
export interface CustomerFilter {
  /** Strict lower bound of the stamp (LastModifiedAfter). */
  readonly modifiedAfter?: number;
  /** Upper bound of the stamp: the watermark read before the rows. */
  readonly modifiedAtMost: number;
  /** Only rows strictly after this (modified_at, customer_id) position. */
  readonly after?: Position;
  /** Only rows at or before this position. */
  readonly through?: Position;
  /** Only rows this text-index condition holds for (db.textMatch). */
  readonly match?: TextMatch;
}

export type { SyncRow } from './customer.columns.js';
type IdentifierRow = SyncRow & { sync_watermark: number | string };
const IDENTIFIER_COLUMNS: ReadonlyArray<keyof IdentifierRow> = [...SYNC_COLUMNS, 'sync_watermark'];

/** What an identifier search returns: the rows and the watermark they were read under. */
export interface IdentifierMatches {
  readonly committed: number;
  readonly rows: SyncRow[];
}

/** Ids per statement where a list of ids is bound (stamps, locks, holders). */
const IDS_PER_STATEMENT = 500;

/**
 * The feed's SELECT without its columns, in sync order. The stamp range and the keyset are
 * row-value comparisons on (modified_at, customer_id): both backends read them as a range of the
 * sync-order index (an OR of two comparisons would rescan a whole stamp group on every chunk).
 */
export function feedQuery(db: DbHandle, f: CustomerFilter) {
  const { after, through } = f;
  // One upper bound and one lower bound, the tighter of each two, so that the index range starts
  // and ends right at them: a second upper bound the planner keeps as a filter, and a page whose
  // matches are sparse would be read past its end to the watermark.
  let q = through
    ? db.selectFrom('customers').where(sql<boolean>`(modified_at, customer_id) <= (${through.modifiedAt}, ${through.customerId})`)
    : db.selectFrom('customers').where('modified_at', '<=', f.modifiedAtMost);
  if (after && (f.modifiedAfter === undefined || after.modifiedAt > f.modifiedAfter)) {
    q = q.where(sql<boolean>`(modified_at, customer_id) > (${after.modifiedAt}, ${after.customerId})`);
  } else if (f.modifiedAfter !== undefined) {
    q = q.where('modified_at', '>', f.modifiedAfter);
  }
  if (f.match) q = q.where(f.match.where);
  return q.orderBy('modified_at').orderBy('customer_id');
}

/** Moves the modification stamp of customers: the write door calls it once per transaction. */
const stampCustomers: Stamper = async (db, customerIds, stamp) => {
  for (const ids of chunks(customerIds, IDS_PER_STATEMENT)) await db.run(touchSql(ids.length), [stamp, ...ids]);
};

/** All SQL about customers. */
export const customerRepository = {
  touch: stampCustomers,

  findById(db: DbHandle, customerId: string): Promise<CustomerRow | undefined> {
    return db.selectFrom('customers').selectAll().where('customer_id', '=', customerId).executeTakeFirst();
  },

  /** The customers of these ids that exist (events read them after the change; imports ask which are new). */
  async findMany(db: DbHandle, customerIds: readonly string[]): Promise<CustomerRow[]> {
    const out: CustomerRow[] = [];
    for (const ids of chunks(customerIds, IDS_PER_STATEMENT)) out.push(...(await db.run<CustomerRow>(findManySql(ids.length), ids)).rows);
    return out;
  },

  /** A customer with its row locked until the transaction ends (an erasure holds it against concurrent writers). */
  findForUpdate(db: DbHandle, customerId: string): Promise<CustomerRow | undefined> {
    return db.lockRows(db.selectFrom('customers').selectAll().where('customer_id', '=', customerId), 'update').executeTakeFirst();
  },

  /** Sets the 13 data columns to null and records when (an erasure); the id and bookkeeping stay. */
  async blank(db: DbHandle, customerId: string, erasedAt: number): Promise<void> {
    const nulls = Object.fromEntries(DATA_COLUMNS.map((c) => [c, null])) as Record<keyof CustomerData, null>;
    await db
      .updateTable('customers')
      .set({ ...nulls, erased_at: erasedAt })
      .where('customer_id', '=', customerId)
      .execute();
    await customerWordsRepository.write(db, [{ customer_id: customerId, ...nulls }]);
    // A customer's replaced words may stay in the index's storage until an erasure (migration 019).
    await db.purgeReplacedWords(CUSTOMER_TEXT);
  },

  /** Which of these customer ids exist. */
  async existingIds(db: DbHandle, customerIds: readonly string[]): Promise<Set<string>> {
    const found = new Set<string>();
    for (const ids of chunks(customerIds, IDS_PER_STATEMENT)) {
      for (const r of await db.selectFrom('customers').select('customer_id').where('customer_id', 'in', ids).execute())
        found.add(r.customer_id);
    }
    return found;
  },

  findByExternalId(db: DbHandle, externalId: string): Promise<CustomerRow | undefined> {
    return db.selectFrom('customers').selectAll().where('external_id', '=', externalId).executeTakeFirst();
  },

  /** The identifier search (see customer.statements.ts): matches stamped in (modifiedAfter, watermark]. */
  async findByIdentifiers(db: DbHandle, identifiers: readonly string[], modifiedAfter: number | undefined): Promise<IdentifierMatches> {
    const params: unknown[] = [...identifiers, ...identifiers];
    if (modifiedAfter !== undefined) params.push(modifiedAfter);
    const text = identifierSearchSql(`${identifiers.length}:${modifiedAfter === undefined ? 0 : 1}`);
    const all = await db.runRows<IdentifierRow>(text, params, IDENTIFIER_COLUMNS);
    if (all.length === 0) throw new Error('sync_clock row missing');
    // No match: the one joined row carries only the watermark.
    return { committed: Number(all[0]!.sync_watermark), rows: all[0]!.customer_id === null ? [] : all };
  },

  /**
   * Up to `limit` customers in sync order (modified_at, customer_id), skipping `offset`: the columns
   * of the answer and the stamp, read as arrays where the driver can (a sync reads every row).
   */
  search(db: DbHandle, f: CustomerFilter, limit?: number, offset = 0): Promise<SyncRow[]> {
    let q = feedQuery(db, f).select(SYNC_COLUMNS);
    if (limit !== undefined) q = q.limit(limit);
    if (offset > 0) q = (limit === undefined ? q.limit(Number.MAX_SAFE_INTEGER) : q).offset(offset);
    return db.rows<SyncRow>(q.compile(), SYNC_COLUMNS);
  },

  /** Positions of the rows at `offset` and after it (index-only on the sync-order index). */
  async positionsAt(db: DbHandle, f: CustomerFilter, offset: number, count: number): Promise<Position[]> {
    const rows = await feedQuery(db, f).select(['modified_at', 'customer_id']).limit(count).offset(offset).execute();
    return rows.map((r) => ({ modifiedAt: Number(r.modified_at), customerId: r.customer_id }));
  },

  /**
   * Writes the 13 data columns (a new row gets `provisionalStamp`, replaced by the door's stamp in
   * the same transaction). UPDATE first: an UPDATE that leaves ExternalId as it is takes PostgreSQL's
   * weaker row lock, which does not wait for transactions inserting orders or custom-field values
   * that reference the customer; INSERT … ON CONFLICT would always take the strong one.
   */
  async writeData(db: DbHandle, customerId: string, data: CustomerData, provisionalStamp: number): Promise<'created' | 'updated'> {
    const updated = await db.updateTable('customers').set(data).where('customer_id', '=', customerId).executeTakeFirst();
    const outcome = Number(updated.numUpdatedRows) > 0 ? 'updated' : 'created';
    if (outcome === 'created') {
      await db
        .insertInto('customers')
        .values({ customer_id: customerId, ...data, modified_at: provisionalStamp, created_at: provisionalStamp, custom_fields_version: 0 })
        .onConflict((oc) => oc.column('customer_id').doUpdateSet(data))
        .execute();
    }
    // After the customer's row, as every writer does: one lock order, no deadlock between them.
    await customerWordsRepository.write(db, [{ customer_id: customerId, ...data }]);
    return outcome;
  },

  /**
   * Inserts or replaces many customers (the import), in statements of IDS_PER_STATEMENT rows; new
   * rows get `provisionalStamp` until the door stamps them. Ids must be distinct within one call.
   */
  async writeMany(
    db: DbHandle,
    rows: ReadonlyArray<{ readonly customerId: string; readonly data: CustomerData }>,
    provisionalStamp: number,
  ): Promise<void> {
    for (const slice of chunks(rows, IDS_PER_STATEMENT)) {
      await db
        .insertInto('customers')
        .values(
          slice.map((r) => ({
            customer_id: r.customerId,
            ...r.data,
            modified_at: provisionalStamp,
            created_at: provisionalStamp,
            custom_fields_version: 0,
          })),
        )
        .onConflict((oc) =>
          oc
            .column('customer_id')
            .doUpdateSet(
              (eb) => Object.fromEntries(DATA_COLUMNS.map((c) => [c, eb.ref(`excluded.${c}`)])) as Record<keyof CustomerData, never>,
            ),
        )
        .execute();
    }
    await customerWordsRepository.write(
      db,
      rows.map((r) => ({ customer_id: r.customerId, ...r.data })),
    );
  },

  /** Inserts customers whose ids do not exist yet (others are left as they are); returns the new ids. */
  async insertNew(db: DbHandle, rows: readonly CustomerRow[]): Promise<string[]> {
    const ids: string[] = [];
    for (const slice of chunks(rows, IDS_PER_STATEMENT)) {
      const res = await db
        .insertInto('customers')
        .values(slice)
        .onConflict((oc) => oc.doNothing())
        .returning('customer_id')
        .execute();
      ids.push(...res.map((r) => r.customer_id));
    }
    const inserted = new Set(ids);
    await customerWordsRepository.write(
      db,
      rows.filter((r) => inserted.has(r.customer_id)),
    );
    return ids;
  },

  /** Writes the name and address of an existing customer and returns it as written; undefined when there is no such customer. */
  async updateAddress(db: DbHandle, customerId: string, address: CustomerAddress): Promise<CustomerRow | undefined> {
    const { columns, values } = addressColumns(address);
    const row = (await db.run<CustomerRow>(updateAddressSql(columns), [...values, customerId])).rows[0];
    if (row) await customerWordsRepository.writeOne(db, row);
    return row;
  },

  /**
   * Inserts a customer, or — when one already has this ExternalId — writes its address instead.
   * Returns the customer as written. One statement, so concurrent confirmations naming the
   * same new ExternalId cannot both insert (the unique index decides, without an error).
   */
  async upsertByExternalId(
    db: DbHandle,
    newId: string,
    externalId: string | null,
    address: CustomerAddress,
    now: number,
  ): Promise<CustomerRow> {
    const { columns, values } = addressColumns(address);
    const row = (await db.run<CustomerRow>(upsertByExternalIdSql(columns), [newId, externalId, ...values, now, now])).rows[0];
    if (!row) throw new Error('the customer upsert returned no row');
    await customerWordsRepository.writeOne(db, row);
    return row;
  },

  /** Which customers hold these external ids now: externalId → customerId. */
  async holdersOfExternalIds(db: DbHandle, externalIds: readonly string[]): Promise<Map<string, string>> {
    const holders = new Map<string, string>();
    for (const ids of chunks(externalIds, IDS_PER_STATEMENT)) {
      const rows = await db.selectFrom('customers').select(['customer_id', 'external_id']).where('external_id', 'in', ids).execute();
      for (const r of rows) holders.set(r.external_id!, r.customer_id);
    }
    return holders;
  },
};
