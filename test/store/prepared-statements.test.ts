import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'kysely';
import { ROW_COLUMNS } from '../../src/customers/customer.columns.js';
import { ORDER_COLUMNS } from '../../src/orders/order.statements.js';
import { orderRepository } from '../../src/orders/order.repository.js';
import type { Store } from '../../src/store/store.js';
import { committedWatermark } from '../../src/store/sync-clock.js';
import { describeEachStore } from '../helpers/store-suite.js';
import pg from 'pg';
import { writeRegistry } from '../../src/write-registry.js';
import { GroupCommit } from '../../src/writes/group-commit.js';
import { createTestDatabase, leftOut, openMigrated } from '../helpers/test-store.js';

/** The columns of a table as the database lists them. */
async function tableColumns(store: Store, backend: string, table: string): Promise<string[]> {
  if (backend === 'sqlite') {
    const rows = await sql<{ name: string }>`select name from pragma_table_info(${table})`.execute(store.db);
    return rows.rows.map((r) => r.name).sort();
  }
  const rows = await sql<{
    column_name: string;
  }>`select column_name from information_schema.columns where table_schema = current_schema() and table_name = ${table}`.execute(store.db);
  return rows.rows.map((r) => r.column_name).sort();
}

describeEachStore('statements that read whole rows', (s, backend) => {
  test('name every column of orders and customers (no `*`, which a prepared statement cannot follow through a migration)', async () => {
    assert.deepEqual([...ORDER_COLUMNS].sort(), await tableColumns(s().store, backend, 'orders'));
    assert.deepEqual([...ROW_COLUMNS].sort(), await tableColumns(s().store, backend, 'customers'));
  });
});

/** The statements this session has prepared (one connection: the pool holds one). */
const prepared = async (store: Store): Promise<string[]> =>
  (await sql<{ statement: string }>`select statement from pg_prepared_statements`.execute(store.db)).rows.map((r) => r.statement);

describe('PostgreSQL prepared statements', { skip: leftOut('postgres') }, () => {
  const opened: Array<{ close(): Promise<void> }> = [];
  const open = async (preparedStatements: boolean): Promise<Store> => {
    const made = await openMigrated(await createTestDatabase('postgres'), { poolSize: 1, preparedStatements });
    opened.push(made);
    return made.store;
  };
  after(async () => Promise.all(opened.map((o) => o.close())));

  let store: Store;
  before(async () => (store = await open(true)));

  test('the hand-written statements are prepared once per connection; builder queries are not', async () => {
    await committedWatermark(store.db);
    await committedWatermark(store.db);
    const statements = await prepared(store);
    assert.equal(statements.filter((t) => t.includes('from sync_clock')).length, 1, statements.join('\n'));
    // The query above (Kysely's template) and the migrations' were not prepared.
    assert.ok(
      statements.every((t) => !t.includes('pg_prepared_statements') && !t.includes('kysely_migration')),
      statements.join('\n'),
    );
  });

  test('without the option nothing is prepared', async () => {
    const plain = await open(false);
    await committedWatermark(plain.db);
    assert.deepEqual(await prepared(plain), []);
  });

  test('a prepared read of a whole order still answers after a migration adds a column', async () => {
    const id = (
      await sql<{
        order_id: number;
      }>`insert into orders (order_number, status, created_at, modified_at) values ('P-1', 'Open', 1, 1) returning order_id`.execute(
        store.db,
      )
    ).rows[0]!.order_id;
    assert.equal((await orderRepository.find(store.db, Number(id)))?.order_number, 'P-1');
    await sql`alter table orders add column added_later text`.execute(store.db);
    assert.equal((await orderRepository.find(store.db, Number(id)))?.order_number, 'P-1');
  });
});

describe('prepared statements through PgBouncer in transaction mode', { skip: leftOut('pgbouncer') }, () => {
  /** A store through PgBouncer with one client connection, preparing, and what it said when it stopped naming. */
  const open = async () => {
    const said: Error[] = [];
    const made = await openMigrated(await createTestDatabase('pgbouncer'), {
      poolSize: 1,
      preparedStatements: true,
      onPreparedStatementsOff: (err) => void said.push(err),
    });
    return { ...made, said };
  };

  /** Holds the server connection the store's client used last in another client's transaction: the store's next statement gets another one. */
  const takeServerConnection = async (url: string): Promise<pg.Client> => {
    const other = new pg.Client({ connectionString: url });
    await other.connect();
    await other.query('begin');
    await other.query('select 1');
    return other;
  };

  test('a statement missing on the next server connection runs again unnamed; the store stops naming and says so once', async () => {
    const made = await open();
    let other: pg.Client | undefined;
    try {
      const before = await committedWatermark(made.store.db); // prepared on the pool's one server connection
      assert.deepEqual(made.said, []);
      other = await takeServerConnection(made.database.url);
      assert.equal(await committedWatermark(made.store.db), before);
      assert.equal(made.said.length, 1);
      assert.equal((made.said[0] as (Error & { code?: string }) | undefined)?.code, '26000');
      await other.query('commit');
      // Whichever server connection each statement meets now, nothing named is sent: no error, nothing more said.
      await other.query('begin');
      await other.query('select 1');
      for (let i = 0; i < 5; i++) assert.equal(await committedWatermark(made.store.db), before);
      assert.equal(made.said.length, 1);
    } finally {
      await other?.end();
      await made.close();
    }
  });

  test('a write transaction that meets it runs again unnamed and commits', async () => {
    const made = await open();
    let other: pg.Client | undefined;
    const commits = new GroupCommit(made.store, { stampers: writeRegistry.stampers, outbox: writeRegistry.outbox });
    try {
      await committedWatermark(made.store.db);
      other = await takeServerConnection(made.database.url);
      let runs = 0;
      const id = await commits.run(async (unit) => {
        runs++;
        await committedWatermark(unit.db); // the named statement, now on another server connection
        const row = await sql<{
          order_id: number;
        }>`insert into orders (order_number, status, created_at, modified_at) values ('L-1', 'Open', 1, 1) returning order_id`.execute(
          unit.db,
        );
        return Number(row.rows[0]!.order_id);
      });
      assert.equal(runs, 2);
      assert.equal(made.said.length, 1);
      await other.query('commit');
      const orders = await sql<{ order_id: number }>`select order_id from orders where order_number = 'L-1'`.execute(made.store.db);
      assert.deepEqual(
        orders.rows.map((r) => Number(r.order_id)),
        [id],
      );
    } finally {
      await commits.drained();
      await other?.end();
      await made.close();
    }
  });
});
