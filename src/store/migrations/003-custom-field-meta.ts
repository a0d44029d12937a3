import { sql, type Kysely } from 'kysely';

// Frozen once released. One row whose version every custom-field definition change bumps, so a
// process can keep the definitions in memory and know, in the same query as a customer's values,
// whether its copy is current.

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('custom_field_meta')
    .addColumn('id', 'integer', (c) => c.primaryKey())
    .addColumn('defs_version', 'bigint', (c) => c.notNull())
    .execute();
  await sql`insert into custom_field_meta (id, defs_version) values (1, 0)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('custom_field_meta').execute();
}
