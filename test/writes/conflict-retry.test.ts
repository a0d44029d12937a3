import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { test } from 'node:test';
import { BetterSqlite3 } from '../../src/store/sqlite/sqlite-driver.js';
import pg from 'pg';
import { importBatchWrite } from '../../src/customers/customer.writes.js';
import { customer, define, freshNumber, setValue } from '../customfields/cf-helpers.js';
import { describeEachBackend, json, type TestApp } from '../helpers/test-app.js';
import { waitingForSqliteLock } from '../helpers/write-in-flight.js';
import { confirm, confirmation, createOrder, unique } from '../orders/order-fixtures.js';

/**
 * Another connection's transaction that first holds what the write door takes last, and then asks
 * for what the door's unit took first.
 *
 * PostgreSQL: the two wait on each other — a deadlock. The door's transaction waits first and has
 * the shorter deadlock_timeout, so the database aborts it (40P01); the door runs the unit again
 * once the other transaction commits, and the write succeeds. SQLite has no deadlock: a write
 * transaction holds the whole file, so the door's write waits for the other one and then succeeds.
 */
interface Blocker {
  /** Takes the resource the door's transaction needs last. */
  holdLast(): Promise<void>;
  /** Whether another transaction waits for what this one holds (the door's: nothing else writes to this database). */
  othersWait(): Promise<boolean>;
  /** Asks for the resource the door's unit took first (on PostgreSQL: closes the deadlock). */
  takeFirst(): Promise<void>;
  commit(): Promise<void>;
  /** Deadlocks PostgreSQL has detected in this database so far. */
  deadlocks(): Promise<number>;
  close(): Promise<void>;
}

type Resources = { last: string; first: string; firstParams: unknown[] };

async function blocker(t: TestApp, r: Resources): Promise<Blocker> {
  const url = t.config.databaseUrl;
  if (t.backend === 'sqlite') {
    const db = new BetterSqlite3(url.slice('sqlite:'.length));
    db.pragma('busy_timeout = 10000');
    return {
      holdLast: async () => void db.exec('begin immediate'),
      // The door's write thread runs in this process: asleep in SQLite's busy handler while it waits.
      othersWait: async () => waitingForSqliteLock(),
      takeFirst: async () => void db.prepare(r.first).run(...r.firstParams),
      commit: async () => void db.exec('commit'),
      deadlocks: async () => 0,
      close: async () => void db.close(),
    };
  }
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  // Longer than the door's (the default, 1 s): the door's transaction is the one the database aborts.
  await client.query("set deadlock_timeout = '20s'");
  let n = 0;
  const numbered = r.first.replace(/\?/g, () => `$${++n}`);
  return {
    holdLast: async () => {
      await client.query('begin');
      await client.query(r.last);
    },
    othersWait: async () =>
      (
        await client.query<{ n: number }>(
          'select count(*)::int as n from pg_stat_activity where pg_backend_pid() = any(pg_blocking_pids(pid))',
        )
      ).rows[0]!.n > 0,
    takeFirst: async () => void (await client.query(numbered, r.firstParams)),
    commit: async () => void (await client.query('commit')),
    deadlocks: async () =>
      (await client.query<{ n: number }>('select deadlocks::int as n from pg_stat_database where datname = current_database()')).rows[0]!.n,
    close: () => client.end(),
  };
}

const CLOCK = 'update sync_clock set last_stamp = last_stamp where id = 1';
const touchCustomer = (id: string): Resources => ({
  last: CLOCK,
  first: 'update customers set quarter = quarter where customer_id = ?',
  firstParams: [id],
});

/** Runs a write against a blocker; checks it succeeded after the blocker committed, and (PostgreSQL) that it was retried. */
async function survives<T>(t: TestApp, r: Resources, write: () => Promise<T>): Promise<T> {
  const b = await blocker(t, r);
  try {
    const before = await b.deadlocks();
    await b.holdLast();
    let settled = false;
    const result = write().finally(() => (settled = true));
    result.catch(() => undefined); // awaited below, unless the test fails before
    // "It waited" holds for a write that has not started yet too: the write is seen waiting for
    // the other transaction before that one goes on.
    for (const until = Date.now() + 30_000; !(await b.othersWait()); await sleep(5)) {
      assert.equal(settled, false, 'the write finished while the other transaction held what it needs');
      if (Date.now() > until) throw new Error('the write was never seen waiting for the other transaction');
    }
    await b.takeFirst();
    assert.equal(settled, false, 'the write waited for the other transaction');
    await b.commit();
    const value = await result;
    if (t.backend === 'postgres') {
      let after = before;
      for (let i = 0; i < 50 && after === before; i++, await sleep(100)) after = await b.deadlocks();
      // At least once; under load the rerun may lose the race again (the door runs it up to three times).
      assert.ok(after >= before + 1, 'PostgreSQL aborted the door’s transaction as a deadlock victim');
    }
    return value;
  } finally {
    await b.close();
  }
}

describeEachBackend('every kind of write survives a conflicting transaction (deadlock on PostgreSQL)', (t) => {
  test('customer upsert', async () => {
    const id = `cr-up-${unique()}`;
    await customer(t(), id);
    const res = await survives(t(), touchCustomer(id), () =>
      t().inject({ method: 'PUT', url: `/customer/${id}`, payload: { FirstName: 'After' } }),
    );
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(json(res).FirstName, 'After');
  });

  test('custom-field value write', async () => {
    const id = `cr-cf-${unique()}`;
    const n = freshNumber();
    await define(t(), n, { Label: 'Retry', FieldType: 'Text' });
    await customer(t(), id);
    const res = await survives(t(), touchCustomer(id), () => setValue(t(), id, n, 'kept'));
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(json(res).Value, 'kept');
  });

  test('order confirmation', async () => {
    const id = `cr-co-${unique()}`;
    await customer(t(), id);
    const orderId = await createOrder(t());
    const res = await survives(t(), touchCustomer(id), () => confirm(t(), orderId, confirmation({ CustomerId: id })));
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(json(res).CustomerId, id);
  });

  test('customer import', async () => {
    const id = `cr-im-${unique()}`;
    await customer(t(), id);
    const records = [{ line: 2, names: ['CustomerId', 'FirstName'], values: [id, 'Imported'] }];
    const written = await survives(t(), touchCustomer(id), () =>
      t().app.writes.run(importBatchWrite, { records, format: 'csv', usesCustomFields: false }),
    );
    assert.equal(written, 1);
    assert.equal(json(await t().inject(`/customer/?Identifiers=${id}`))[0].FirstName, 'Imported');
  });

  test('custom-field definition', async () => {
    const n = freshNumber();
    await define(t(), n, { Label: 'Before', FieldType: 'Text' });
    const resources: Resources = {
      last: 'update custom_field_meta set defs_version = defs_version where id = 1',
      first: 'update custom_field_defs set sort = sort where number = ?',
      firstParams: [n],
    };
    const res = await survives(t(), resources, () =>
      t().inject({ method: 'PUT', url: `/customfields/${n}`, payload: { Label: 'After', FieldType: 'Text' } }),
    );
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(json(res).Label, 'After');
  });
});
