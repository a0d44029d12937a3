import { PostgresAdapter, sql, type Kysely } from 'kysely';

// Frozen: a released migration never changes. Add a new file for every schema change.

export async function up(db: Kysely<unknown>): Promise<void> {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;

  await db.schema
    .createTable('customers')
    .addColumn('customer_id', 'text', (c) => c.primaryKey())
    .addColumn('external_id', 'text')
    .addColumn('salutation', 'text')
    .addColumn('first_name', 'text')
    .addColumn('last_name', 'text')
    .addColumn('postal_code', 'text')
    .addColumn('city', 'text')
    .addColumn('country', 'text')
    .addColumn('street', 'text')
    .addColumn('street_number', 'text')
    .addColumn('company', 'text')
    .addColumn('company2', 'text')
    .addColumn('addition_to_address', 'text')
    .addColumn('quarter', 'text')
    .addColumn('modified_at', 'bigint', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('custom_fields_version', 'bigint', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.createIndex('customers_external_id').unique().on('customers').column('external_id').execute();
  await db.schema.createIndex('customers_sync_order').on('customers').columns(['modified_at', 'customer_id']).execute();

  await db.schema
    .createTable('sync_clock')
    .addColumn('id', 'integer', (c) => c.primaryKey())
    .addColumn('last_stamp', 'bigint', (c) => c.notNull())
    .execute();
  await sql`insert into sync_clock (id, last_stamp) values (1, 0)`.execute(db);

  await db.schema
    .createTable('orders')
    .addColumn('order_id', pg ? 'bigserial' : 'integer', (c) => (pg ? c.primaryKey() : c.primaryKey().autoIncrement()))
    .addColumn('order_number', 'text', (c) => c.notNull().unique())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('note', 'text')
    .addColumn('customer_id', 'text', (c) => c.references('customers.customer_id'))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('confirmed_at', 'bigint')
    .addColumn('cancelled_at', 'bigint')
    .addColumn('confirmation', 'text')
    .addColumn('confirmation_hash', 'text')
    .execute();
  await db.schema.createIndex('orders_customer_id').on('orders').column('customer_id').execute();

  await db.schema
    .createTable('idempotency_keys')
    .addColumn('api_key_id', 'text', (c) => c.notNull())
    .addColumn('idempotency_key', 'text', (c) => c.notNull())
    .addColumn('operation', 'text', (c) => c.notNull())
    .addColumn('request_hash', 'text', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('response_status', 'integer')
    .addColumn('response_body', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('idempotency_keys_pk', ['api_key_id', 'idempotency_key'])
    .execute();
  await db.schema.createIndex('idempotency_keys_created_at').on('idempotency_keys').column('created_at').execute();

  await db.schema
    .createTable('custom_field_defs')
    .addColumn('number', 'integer', (c) => c.primaryKey())
    .addColumn('label', 'text', (c) => c.notNull())
    .addColumn('field_type', 'text', (c) => c.notNull())
    .addColumn('is_read_only', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('allowed_values', 'text')
    .addColumn('sort', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('custom_field_values')
    .addColumn('customer_id', 'text', (c) => c.notNull().references('customers.customer_id').onDelete('cascade'))
    .addColumn('number', 'integer', (c) => c.notNull().references('custom_field_defs.number').onDelete('cascade'))
    .addColumn('value', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('custom_field_values_pk', ['customer_id', 'number'])
    .execute();
  await db.schema.createIndex('custom_field_values_number').on('custom_field_values').column('number').execute();

  await db.schema
    .createTable('api_keys')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('key_hash', 'text', (c) => c.notNull().unique())
    .addColumn('permissions', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('revoked_at', 'bigint')
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['api_keys', 'custom_field_values', 'custom_field_defs', 'idempotency_keys', 'orders', 'sync_clock', 'customers']) {
    await db.schema.dropTable(table).execute();
  }
}
