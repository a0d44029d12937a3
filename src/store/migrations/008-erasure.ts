import type { Kysely } from 'kysely';

// Frozen once released. When a customer was last erased (privacy): an erasure that finds nothing
// left to erase answers with this time again.

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('customers').addColumn('erased_at', 'bigint').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('customers').dropColumn('erased_at').execute();
}
