import { PostgresAdapter, sql, type Kysely } from 'kysely';

// Frozen once released. Orders get a sync stamp like customers (`modified_at`, in the sync clock's
// units), and the index the order feed reads in sync order.

export async function up(db: Kysely<unknown>): Promise<void> {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;
  // SQLite adds a NOT NULL column only with a default; PostgreSQL drops it below, so that an
  // insert that forgets the stamp fails instead of landing below every watermark.
  await db.schema
    .alterTable('orders')
    .addColumn('modified_at', 'bigint', (c) => c.notNull().defaultTo(0))
    .execute();
  // An existing order was last changed when it was cancelled, else confirmed, else created.
  await sql`update orders set modified_at = coalesce(cancelled_at, confirmed_at, created_at)`.execute(db);
  if (pg) await sql`alter table orders alter column modified_at drop default`.execute(db);
  // The watermark promise: a reader that saw watermark W has every row stamped ≤ W. Backfilled
  // stamps may lie above the clock (wall-clock times vs. a clock only customers moved): raise it.
  await sql`update sync_clock set last_stamp = (select max(modified_at) from orders)
    where id = 1 and last_stamp < (select coalesce(max(modified_at), 0) from orders)`.execute(db);
  await db.schema.createIndex('orders_sync_order').on('orders').columns(['modified_at', 'order_id']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('orders_sync_order').execute();
  await db.schema.alterTable('orders').dropColumn('modified_at').execute();
}
