import type { Kysely } from 'kysely';

// Frozen once released. The order an event is about, so that an erasure finds an order's events
// from before its confirmation (which name no customer but hold the order's note) by an index
// instead of reading every event. Events written before this column existed carried no note in
// their data: they are left without an order.

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('events').addColumn('order_id', 'bigint').execute();
  await db.schema
    .createIndex('events_order')
    .on('events')
    .column('order_id')
    .where((eb) => eb('order_id', 'is not', null))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('events_order').execute();
  await db.schema.alterTable('events').dropColumn('order_id').execute();
}
