import type { Kysely } from 'kysely';

// Frozen once released. When a key last authenticated (epoch ms), kept to the minute: the
// authenticator writes it at most once a minute per key, never once per request.

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('api_keys').addColumn('last_used_at', 'bigint').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('api_keys').dropColumn('last_used_at').execute();
}
