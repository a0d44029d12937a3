import type { Kysely } from 'kysely';

// Frozen once released. The confirmation as the order feed shows it to most keys, kept beside the
// stored form (src/orders/order.shown-form.ts says what it holds and who writes it). Null means
// "not made": the feed then makes it from `confirmation` as it sends the order.

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('orders').addColumn('confirmation_shown', 'text').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('orders').dropColumn('confirmation_shown').execute();
}
