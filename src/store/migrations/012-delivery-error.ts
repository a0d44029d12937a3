import type { Kysely } from 'kysely';

// Frozen once released. Why an attempt of a webhook delivery failed, in a few words (null when it
// succeeded): the deliveries list shows it beside the receiver's status code, which a refused or
// unreachable receiver never gives.

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('webhook_attempts').addColumn('error', 'text').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('webhook_attempts').dropColumn('error').execute();
}
