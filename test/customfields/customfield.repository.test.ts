import assert from 'node:assert/strict';
import { test } from 'node:test';
import { customFieldRepository as repo } from '../../src/customfields/customfield.repository.js';
import type { CustomFieldDefRow } from '../../src/store/database.js';
import { createCustomer, describeEachStore, holdTransaction, stillWaiting } from '../helpers/store-suite.js';
import { freshNumber } from './cf-helpers.js';

const definition = (number: number, sort = number): CustomFieldDefRow => ({
  number,
  label: `Field ${number}`,
  field_type: 'Text',
  is_read_only: 0,
  allowed_values: null,
  sort,
  updated_at: 1000,
});

describeEachStore('custom-field repository', (s, backend) => {
  const define = async (...numbers: number[]): Promise<void> =>
    s().write(async (unit) => {
      for (const n of numbers) await repo.saveDefinition(unit.db, definition(n));
      await repo.bumpDefinitionsVersion(unit.db);
    });
  const setValues = (customerId: string, values: Array<{ number: number; value: string }>) =>
    s().write((unit) => repo.upsertValues(unit.db, customerId, values, 2000));
  const readValues = (customerId: string) => repo.readValues(s().store.reader, customerId);
  const versionOf = async (customerId: string) =>
    Number(
      (
        await s()
          .store.reader.selectFrom('customers')
          .select('custom_fields_version')
          .where('customer_id', '=', customerId)
          .executeTakeFirst()
      )?.custom_fields_version,
    );

  test('readValues aggregates the stored values: JSON text on SQLite, parsed JSON on PostgreSQL', async () => {
    const [a, b] = [freshNumber(), freshNumber()];
    await define(a, b);
    const customer = await createCustomer(s());
    await setValues(customer, [
      { number: a, value: '"A"' },
      { number: b, value: '3' },
    ]);
    const row = await readValues(customer);
    assert.ok(row);
    if (backend === 'sqlite') assert.equal(typeof row.vals, 'string');
    else assert.ok(Array.isArray(row.vals));
    const vals = (typeof row.vals === 'string' ? JSON.parse(row.vals) : row.vals) as Array<[number, unknown]>;
    assert.deepEqual(
      [...vals].sort((x, y) => x[0] - y[0]),
      [
        [a, 'A'],
        [b, 3],
      ],
    );
    assert.equal(Number(row.version), await versionOf(customer));
    const { version: defsVersion } = await repo.definitionsWithVersion(s().store.reader);
    assert.equal(Number(row.defs_version), defsVersion);
  });

  test('readValues: no values read as null (PostgreSQL) or [] (SQLite); no customer reads as nothing', async () => {
    const row = await readValues(await createCustomer(s()));
    assert.equal(row?.vals, backend === 'sqlite' ? '[]' : null);
    assert.equal(await readValues('c-nobody'), undefined);
  });

  test('readFields joins the chosen definitions and the values; no field is one row of nulls; no customer is no row', async () => {
    const [a, b] = [freshNumber(), freshNumber()];
    await define(a, b);
    const customer = await createCustomer(s());
    await setValues(customer, [{ number: a, value: '"A"' }]);
    const fields = await repo.readFields(s().store.reader, customer, [a, b]);
    assert.deepEqual(
      fields.map((f) => [f.number, f.label, f.value]),
      [
        [a, `Field ${a}`, '"A"'],
        [b, `Field ${b}`, null],
      ],
    );
    const none = await repo.readFields(s().store.reader, customer, []);
    assert.deepEqual(
      none.map((f) => [f.number, f.value]),
      [[null, null]],
    );
    assert.deepEqual(await repo.readFields(s().store.reader, 'c-nobody', [a]), []);
  });

  test('readFields of every field answers as readFields given every defined number', async () => {
    const [a, b] = [freshNumber(), freshNumber()];
    await define(a, b);
    const customer = await createCustomer(s());
    await setValues(customer, [{ number: b, value: '7' }]);
    const every = (await repo.listDefinitions(s().store.reader)).map((d) => d.number);
    const all = await repo.readFields(s().store.reader, customer);
    assert.ok(all.some((f) => f.number === b && f.value === '7'));
    assert.deepEqual(all, await repo.readFields(s().store.reader, customer, every));
    assert.deepEqual(await repo.readFields(s().store.reader, 'c-nobody'), []);
  });

  test('upsertValues replaces a stored value; deleteValues removes only the numbers given', async () => {
    const [a, b] = [freshNumber(), freshNumber()];
    await define(a, b);
    const customer = await createCustomer(s());
    await setValues(customer, [
      { number: a, value: '1' },
      { number: b, value: '2' },
    ]);
    await setValues(customer, [{ number: a, value: '10' }]);
    await s().write((unit) => repo.deleteValues(unit.db, customer, [b]));
    const fields = await repo.readFields(s().store.reader, customer, [a, b]);
    assert.deepEqual(
      fields.map((f) => [f.number, f.value]),
      [
        [a, '10'],
        [b, null],
      ],
    );
  });

  test("bumpVersion moves one customer's version; the field-wide statements touch only customers with a value of the field", async () => {
    const a = freshNumber();
    await define(a);
    const [holder, other] = [await createCustomer(s()), await createCustomer(s())];
    await setValues(holder, [{ number: a, value: '"x"' }]);
    const bumped = await s().write((unit) => repo.bumpVersion(unit.db, holder));
    assert.equal(bumped?.custom_fields_version, 1);
    assert.equal(await s().write((unit) => repo.bumpVersion(unit.db, 'c-nobody')), undefined);
    await s().write((unit) => repo.bumpCustomersWithValues(unit.db, a));
    assert.deepEqual([await versionOf(holder), await versionOf(other)], [2, 0]);
    assert.equal(await s().write((unit) => repo.hasValues(unit.db, a)), true);
    assert.deepEqual(await repo.distinctValues(s().store.reader, a), ['"x"']);
    await s().write((unit) => repo.deleteValuesOfField(unit.db, a));
    assert.equal(await repo.hasValues(s().store.reader, a), false);
  });

  test("saveDefinition inserts, then updates; the definitions' version moves with bumpDefinitionsVersion", async () => {
    const a = freshNumber();
    const before = (await repo.definitionsWithVersion(s().store.reader)).version;
    await define(a);
    await s().write((unit) => repo.saveDefinition(unit.db, { ...definition(a), label: 'Renamed' }));
    const after = await repo.definitionsWithVersion(s().store.reader);
    assert.equal(after.version, before + 1);
    assert.equal(after.rows.find((r) => r.number === a)?.label, 'Renamed');
    await s().write((unit) => repo.deleteDefinition(unit.db, a));
    assert.equal(
      (await repo.listDefinitions(s().store.reader)).some((r) => r.number === a),
      false,
    );
  });

  // PostgreSQL only: SQLite has no row or table locks (its write transaction holds the file).
  if (backend === 'postgres') {
    test('lockRows: a definition locked for update makes another session wait; shared locks do not wait for each other', async () => {
      // Below the door on purpose: locks held by two sessions at once.
      const [a, b] = [freshNumber(), freshNumber()];
      await define(a, b);
      const { store } = s();
      const [first, second, third] = [await holdTransaction(store), await holdTransaction(store), await holdTransaction(store)];
      try {
        assert.equal((await repo.definitionsForWrite(first, [a])).length, 1);
        // Another shared lock of the same row, and an update lock of another row, go through.
        assert.equal((await repo.definitionsForWrite(second, [a])).length, 1);
        assert.equal((await repo.findDefinitionForUpdate(third, b))?.number, b);
        await second.commit().execute();
        const waiting = repo.findDefinitionForUpdate(third, a);
        assert.ok(await stillWaiting(waiting), 'FOR UPDATE waits for the FOR SHARE of another session');
        await first.commit().execute();
        assert.equal((await waiting)?.number, a);
        // Now the third holds a for update: even a shared lock of it waits.
        const shared = repo.allDefinitionsForWrite(store.db);
        assert.ok(await stillWaiting(shared), 'FOR SHARE waits for the FOR UPDATE of another session');
        await third.commit().execute();
        assert.ok((await shared).length >= 2);
      } finally {
        for (const trx of [first, second, third]) if (!trx.isCommitted && !trx.isRolledBack) await trx.rollback().execute();
      }
    });
  }

  // PostgreSQL only: SQLite has no row or table locks (its write transaction holds the file).
  if (backend === 'postgres') {
    test("lockTable: another session's write of the table waits, its read does not", async () => {
      const a = freshNumber();
      const { store } = s();
      const holder = await holdTransaction(store);
      try {
        await holder.lockTable('custom_field_defs');
        assert.ok(Array.isArray(await repo.listDefinitions(store.db)), 'a read goes on');
        const write = define(a);
        assert.ok(await stillWaiting(write), 'a write waits for the table lock');
        await holder.commit().execute();
        await write;
      } finally {
        if (!holder.isCommitted) await holder.rollback().execute();
      }
      assert.ok((await repo.listDefinitions(store.reader)).some((r) => r.number === a));
    });
  }
});
