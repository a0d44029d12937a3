import { PostgresAdapter, sql, type Kysely } from 'kysely';

// Frozen once released. The outbox of events, written by the transaction of each change, and the
// webhook endpoints that receive them: their delivery jobs and the log of every attempt.

export async function up(db: Kysely<unknown>): Promise<void> {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;
  // The sync clock also numbers events (under the same row lock, so sequences follow commit
  // order) and remembers up to which sequence the retention purge has deleted them.
  await db.schema
    .alterTable('sync_clock')
    .addColumn('last_event', 'bigint', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .alterTable('sync_clock')
    .addColumn('purged_event', 'bigint', (c) => c.notNull().defaultTo(0))
    .execute();

  await db.schema
    .createTable('events')
    .addColumn('sequence', 'bigint', (c) => c.primaryKey())
    .addColumn('event_id', 'text', (c) => c.notNull().unique())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('occurred_at', 'bigint', (c) => c.notNull())
    /** The customer whose personal data the payload may hold (privacy export and erasure). */
    .addColumn('customer_id', 'text')
    /** The payload as JSON text (dates as {"$date": ms}, rendered in the API's style when read). */
    .addColumn('data', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('events_customer').on('events').column('customer_id').execute();

  await db.schema
    .createTable('webhook_endpoints')
    .addColumn('endpoint_id', 'text', (c) => c.primaryKey())
    .addColumn('url', 'text', (c) => c.notNull())
    /** JSON array of event types; empty: every type. */
    .addColumn('event_types', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull())
    .addColumn('disabled_at', 'bigint')
    .addColumn('disabled_reason', 'text')
    /** Sealed (encrypted when the service has WEBHOOK_SECRET_KEY). */
    .addColumn('secret', 'text', (c) => c.notNull())
    .addColumn('previous_secret', 'text')
    .addColumn('previous_secret_until', 'bigint')
    /** The last event sequence handed to this endpoint's jobs. */
    .addColumn('cursor', 'bigint', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('webhook_deliveries')
    .addColumn('endpoint_id', 'text', (c) => c.notNull().references('webhook_endpoints.endpoint_id').onDelete('cascade'))
    .addColumn('event_sequence', 'bigint', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull())
    /** Attempts ever made (numbers the log); failures since the job was last (re)queued (the schedule). */
    .addColumn('attempts', 'integer', (c) => c.notNull())
    .addColumn('failures', 'integer', (c) => c.notNull())
    .addColumn('next_attempt_at', 'bigint', (c) => c.notNull())
    .addColumn('lease_until', 'bigint')
    .addColumn('lease_owner', 'text')
    .addPrimaryKeyConstraint('webhook_deliveries_pk', ['endpoint_id', 'event_sequence'])
    .execute();
  await sql`create index webhook_deliveries_due on webhook_deliveries (next_attempt_at) where state = 'Pending'`.execute(db);

  await db.schema
    .createTable('webhook_attempts')
    .addColumn('attempt_id', pg ? 'bigserial' : 'integer', (c) => (pg ? c.primaryKey() : c.primaryKey().autoIncrement()))
    .addColumn('endpoint_id', 'text', (c) => c.notNull().references('webhook_endpoints.endpoint_id').onDelete('cascade'))
    .addColumn('event_sequence', 'bigint', (c) => c.notNull())
    .addColumn('event_id', 'text', (c) => c.notNull())
    .addColumn('attempt', 'integer', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('response_code', 'integer')
    .addColumn('duration_ms', 'integer', (c) => c.notNull())
    .addColumn('at', 'bigint', (c) => c.notNull())
    .addColumn('next_attempt_at', 'bigint')
    .execute();
  await db.schema.createIndex('webhook_attempts_endpoint').on('webhook_attempts').columns(['endpoint_id', 'attempt_id']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['webhook_attempts', 'webhook_deliveries', 'webhook_endpoints', 'events']) await db.schema.dropTable(table).execute();
  await db.schema.alterTable('sync_clock').dropColumn('purged_event').execute();
  await db.schema.alterTable('sync_clock').dropColumn('last_event').execute();
}
