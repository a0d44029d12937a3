import type { Kysely } from 'kysely';

// Frozen once released. The feed's Statuses as a range of one status in sync order, as migration
// 015 gave PaymentStatuses and FulfillmentStatuses: without it a page of a status that is rare, or
// whose orders all come late in sync order (the open ones, behind every confirmed one), read the
// whole sync-order index to find its rows (the operator console's order list, docs/performance.md).

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.createIndex('orders_status').on('orders').columns(['status', 'modified_at', 'order_id']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('orders_status').execute();
}
