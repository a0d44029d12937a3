import { PostgresAdapter, sql, type Kysely } from 'kysely';

// Frozen once released. What happened to a confirmed order after its confirmation (docs/orders.md,
// "After the confirmation"): its shipments, payments, refunds and returns, each a record in a table
// of its own, and with the order the two statuses computed from them and the amounts paid and
// refunded, so that the feed filters by status through an index and reads show them without adding
// up. Amounts are exact decimal text at the currency's minor unit ("12.30"), as every amount of an
// order. A confirmation's Payment is the order's first payment: orders confirmed with one count as
// paid by its amount (none of them had lines yet, so any payment pays them).

export async function up(db: Kysely<unknown>): Promise<void> {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;
  const id = pg ? 'bigserial' : 'integer';
  const orders = () => db.schema.alterTable('orders');
  await orders()
    .addColumn('payment_status', 'text', (c) => c.notNull().defaultTo('Unpaid'))
    .execute();
  await orders()
    .addColumn('fulfillment_status', 'text', (c) => c.notNull().defaultTo('Unfulfilled'))
    .execute();
  await orders()
    .addColumn('paid', 'text', (c) => c.notNull().defaultTo('0.00'))
    .execute();
  await orders()
    .addColumn('refunded', 'text', (c) => c.notNull().defaultTo('0.00'))
    .execute();
  // The feed's PaymentStatuses and FulfillmentStatuses: a range of one status in sync order.
  await db.schema.createIndex('orders_payment_status').on('orders').columns(['payment_status', 'modified_at', 'order_id']).execute();
  await db.schema
    .createIndex('orders_fulfillment_status')
    .on('orders')
    .columns(['fulfillment_status', 'modified_at', 'order_id'])
    .execute();

  // A confirmation's payment: its amount (a JSON number of at most two decimals) as text with two.
  const amount = pg
    ? sql`((confirmation::json -> 'payment' ->> 'amount')::numeric(20, 2))::text`
    : sql`printf('%.2f', json_extract(confirmation, '$.payment.amount'))`;
  const hasPayment = pg
    ? sql`json_typeof(confirmation::json -> 'payment') = 'object' and (confirmation::json -> 'payment' ->> 'amount') is not null`
    : sql`json_type(confirmation, '$.payment') = 'object' and json_extract(confirmation, '$.payment.amount') is not null`;
  await sql`update orders set paid = ${amount}, payment_status = 'Paid' where confirmation is not null and ${hasPayment}`.execute(db);

  const record = (table: string, key: string) =>
    db.schema
      .createTable(table)
      .addColumn(key, id, (c) => (pg ? c.primaryKey() : c.primaryKey().autoIncrement()))
      // No foreign key to orders: a restore of an older backup replaces the orders table (pg_restore
      // --clean) while these tables, not in its archive, still stand; orders are never deleted.
      .addColumn('order_id', 'bigint', (c) => c.notNull());
  await record('order_payments', 'payment_id')
    .addColumn('amount', 'text', (c) => c.notNull())
    .addColumn('type', 'text')
    .addColumn('name', 'text')
    .addColumn('reference_number', 'text')
    .addColumn('paid_at', 'bigint', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await record('order_refunds', 'refund_id')
    .addColumn('amount', 'text', (c) => c.notNull())
    .addColumn('reason', 'text')
    .addColumn('reference_number', 'text')
    .addColumn('refunded_at', 'bigint', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await record('order_shipments', 'shipment_id')
    .addColumn('carrier', 'text')
    .addColumn('tracking_number', 'text')
    .addColumn('tracking_url', 'text')
    .addColumn('shipped_at', 'bigint', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await record('order_returns', 'return_id')
    .addColumn('reason', 'text')
    .addColumn('received_at', 'bigint', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  for (const [table, key] of [
    ['order_payments', 'payment_id'],
    ['order_refunds', 'refund_id'],
    ['order_shipments', 'shipment_id'],
    ['order_returns', 'return_id'],
  ] as const) {
    // An order's records, oldest first.
    await db.schema.createIndex(`${table}_of_order`).on(table).columns(['order_id', key]).execute();
  }
  // The quantities of the order's lines a shipment or a return holds.
  await db.schema
    .createTable('order_shipment_lines')
    .addColumn('shipment_id', 'bigint', (c) => c.notNull().references('order_shipments.shipment_id'))
    .addColumn('line_number', 'integer', (c) => c.notNull())
    .addColumn('quantity', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('order_shipment_lines_pk', ['shipment_id', 'line_number'])
    .execute();
  await db.schema
    .createTable('order_return_lines')
    .addColumn('return_id', 'bigint', (c) => c.notNull().references('order_returns.return_id'))
    .addColumn('line_number', 'integer', (c) => c.notNull())
    .addColumn('quantity', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('order_return_lines_pk', ['return_id', 'line_number'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['order_return_lines', 'order_shipment_lines', 'order_returns', 'order_shipments', 'order_refunds', 'order_payments'])
    await db.schema.dropTable(table).execute();
  await db.schema.dropIndex('orders_fulfillment_status').execute();
  await db.schema.dropIndex('orders_payment_status').execute();
  for (const column of ['refunded', 'paid', 'fulfillment_status', 'payment_status'])
    await db.schema.alterTable('orders').dropColumn(column).execute();
}
