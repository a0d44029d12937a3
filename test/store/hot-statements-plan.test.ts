import assert from 'node:assert/strict';
import { test } from 'node:test';
import { sql, type CompiledQuery, type KyselyPlugin } from 'kysely';
import { identifierSearchSql, touchSql as customerTouchSql, updateAddressSql } from '../../src/customers/customer.statements.js';
import { valuesSql } from '../../src/customfields/customfield.repository.js';
import { BUMP_VERSION, definitionsForWriteSql, fieldsSql, upsertValuesSql } from '../../src/customfields/customfield.statements.js';
import { FIND_ORDER, MARK_CONFIRMED, showOrderSql, touchSql as orderTouchSql } from '../../src/orders/order.statements.js';
import { RANGE, recordsSql } from '../../src/orders/order-life.records.js';
import { LINE_TALLIES } from '../../src/orders/order-shipments.repository.js';
import { orderRepository, type OrderFilter } from '../../src/orders/order.repository.js';
import { ORDER_TEXT } from '../../src/orders/order.words.js';
import { describeEachBackend, type TestApp } from '../helpers/test-app.js';

/**
 * The statements every confirmation, custom-field read and write stamp runs reach their rows through
 * an index, never a scan of the table. PostgreSQL is told to avoid sequential scans (on tables this
 * small it would prefer them), so a plan that still has one has no index to use.
 */
async function plan(t: TestApp, text: string, params: readonly unknown[]): Promise<string> {
  return t.store.writeTransaction(async (trx) => {
    if (t.backend === 'postgres') await sql`set local enable_seqscan = off`.execute(trx);
    const prefix = t.backend === 'sqlite' ? 'explain query plan ' : 'explain ';
    const rows = (await trx.run<Record<string, unknown>>(prefix + text, params)).rows;
    return rows.map((r) => String(r.detail ?? r['QUERY PLAN'])).join('\n');
  });
}

function assertIndexed(t: TestApp, what: string, text: string): void {
  if (t.backend === 'sqlite')
    assert.doesNotMatch(
      text,
      /\bSCAN (events|orders|customers|custom_field_values|idempotency_keys|order_payments|order_refunds|order_shipments|order_returns|order_shipment_lines|order_return_lines|[sr]|l)\b/,
      `${what}:\n${text}`,
    );
  else assert.doesNotMatch(text, /Seq Scan/, `${what}:\n${text}`);
}

describeEachBackend('hot statements use indexes', (t) => {
  test('order lookup, confirmation, stamps, address write, identifier search and custom-field read', async () => {
    const cases: Array<[string, string, unknown[]]> = [
      ['order by id', FIND_ORDER, [1]],
      ['order shown by id, with its records', showOrderSql(t().store.reader), [1]],
      ['confirmation update', MARK_CONFIRMED, ['c', 1, '{}', 'h', '{}', 1]],
      ['order stamp', orderTouchSql(2), [1, 1, 2]],
      ['customer stamp', customerTouchSql(2), [1, 'a', 'b']],
      ['confirmation address write', updateAddressSql('first_name,city'), ['A', 'B', 'c']],
      ['identifier search', identifierSearchSql('2:1'), ['a', 'b', 'a', 'b', 0]],
      ['custom-field read', valuesSql(t().store.reader), ['c']],
      ['custom-field definitions held', definitionsForWriteSql(t().store.reader, 2), [1, 2]],
      ['custom-field version bump', BUMP_VERSION, ['c']],
      ['custom-field values write', upsertValuesSql(2), ['c', 1, '"A"', 1, 'c', 2, '"B"', 1]],
      ['custom-field fields read back', fieldsSql('all'), ['c']],
      ['custom-field fields of two numbers', fieldsSql(2), [1, 2, 'c']],
    ];
    for (const [what, text, params] of cases) assertIndexed(t(), what, await plan(t(), text, params));
  });

  test("the records of an order's life, for a range of order ids and for a list", async () => {
    assertIndexed(t(), 'records of a range', await plan(t(), recordsSql(RANGE), [1, 4, 1, 4, 1, 4, 1, 4]));
    assertIndexed(t(), 'records of a list', await plan(t(), recordsSql(2), [1, 9000, 1, 9000, 1, 9000, 1, 9000]));
    assertIndexed(t(), "a shipment's or a return's tally of the lines", await plan(t(), LINE_TALLIES, [1, 1, 1]));
  });

  test("an erasure finds its orders' events from before their confirmation by the events' order", async () => {
    const compiled = t()
      .store.db.selectFrom('events')
      .selectAll()
      .where('order_id', 'in', [1, 2])
      .where('customer_id', 'is', null)
      .orderBy('sequence')
      .compile();
    assertIndexed(t(), 'ownerless events of two orders', await plan(t(), compiled.sql, compiled.parameters));
  });
});

/** The statements a call of the order feed's repository runs, as compiled (they are built by Kysely). */
async function feedStatements(t: TestApp, filter: OrderFilter): Promise<CompiledQuery[]> {
  const seen: CompiledQuery[] = [];
  const executor = t.store.reader.getExecutor();
  const capture: KyselyPlugin = {
    transformQuery: (args) => {
      seen.push(executor.compileQuery(args.node, args.queryId));
      return args.node;
    },
    transformResult: async (args) => args.result,
  };
  await orderRepository.positionsAt(t.store.handle(t.store.reader.withPlugin(capture)), filter, 0, 2);
  return seen;
}

describeEachBackend('the order feed by status', (t) => {
  test('a page of one status reads the status index; with a text match by keys, the keys', async () => {
    const window = { modifiedAtMost: Number.MAX_SAFE_INTEGER };
    const [byStatus] = await feedStatements(t(), { ...window, statuses: ['Cancelled'] });
    const statusPlan = await plan(t(), byStatus!.sql, byStatus!.parameters);
    assert.match(statusPlan, /orders_status/, statusPlan);
    const match = await t().store.reader.textMatch(ORDER_TEXT, ['zzzz'], 21);
    const keys = { ...match, byKeys: true, where: sql<boolean>`order_id in (1, 2, 3)` };
    const [keyed] = await feedStatements(t(), { ...window, statuses: ['Cancelled'], paymentStatuses: ['Paid'], match: keys });
    const keyedPlan = await plan(t(), keyed!.sql, keyed!.parameters);
    assert.doesNotMatch(keyedPlan, /orders_status|orders_payment_status/, keyedPlan);
    if (t().backend === 'sqlite') assert.match(keyedPlan, /SEARCH orders USING INTEGER PRIMARY KEY/, keyedPlan);
  });
});
