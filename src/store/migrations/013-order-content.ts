import type { Kysely } from 'kysely';

// Frozen once released. What an order holds and costs (docs/orders.md, "Content"): its lines in a
// table of their own, and with the order its currency, whether prices include tax, its shipping and
// its totals, so that reads show them without adding up. Amounts are exact decimal text at the
// currency's minor unit ("12.30"), not integers: a line's amount reaches 10^6 × 10^12 × 10^4 minor
// units (quantity × price × CLF's four digits), beyond a 64-bit integer. Tax rates are integer
// hundredths of a percent (19 % is 1900). Orders stored before get EUR, no lines and zero totals.

export async function up(db: Kysely<unknown>): Promise<void> {
  const orders = () => db.schema.alterTable('orders');
  await orders()
    .addColumn('currency', 'text', (c) => c.notNull().defaultTo('EUR'))
    .execute();
  await orders()
    .addColumn('prices_include_tax', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await orders().addColumn('shipping_name', 'text').execute();
  await orders().addColumn('shipping_amount', 'text').execute();
  await orders().addColumn('shipping_tax_rate', 'integer').execute();
  for (const total of ['total_net', 'total_tax', 'total_gross', 'total_discount']) {
    await orders()
      .addColumn(total, 'text', (c) => c.notNull().defaultTo('0.00'))
      .execute();
  }
  // The content as the API shows it, JSON text in the default form (src/orders/order.content.ts);
  // null where not made (orders stored before): they show no lines and zero totals.
  await orders().addColumn('content_shown', 'text').execute();

  await db.schema
    .createTable('order_lines')
    // No foreign key to orders: `restore` of a backup taken before this table existed drops and
    // recreates orders' primary key, which a constraint from a table outside the backup would block.
    // Lines are written only in the unit of work that writes their order.
    .addColumn('order_id', 'bigint', (c) => c.notNull())
    .addColumn('line_number', 'integer', (c) => c.notNull())
    .addColumn('sku', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('quantity', 'integer', (c) => c.notNull())
    .addColumn('unit_price', 'text', (c) => c.notNull())
    .addColumn('tax_rate', 'integer', (c) => c.notNull())
    .addColumn('discount', 'text', (c) => c.notNull())
    .addColumn('net', 'text', (c) => c.notNull())
    .addColumn('tax', 'text', (c) => c.notNull())
    .addColumn('gross', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('order_lines_pk', ['order_id', 'line_number'])
    .execute();
  // SearchOrders' Skus: the orders holding a SKU.
  await db.schema.createIndex('order_lines_sku').on('order_lines').columns(['sku', 'order_id']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('order_lines').execute();
  for (const column of [
    'content_shown',
    'total_discount',
    'total_gross',
    'total_tax',
    'total_net',
    'shipping_tax_rate',
    'shipping_amount',
    'shipping_name',
    'prices_include_tax',
    'currency',
  ]) {
    await db.schema.alterTable('orders').dropColumn(column).execute();
  }
}
