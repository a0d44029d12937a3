import assert from 'node:assert/strict';
import { test } from 'node:test';
import { DATA_COLUMNS, type CustomerAddress, type CustomerData } from '../../src/customers/customer.columns.js';
import { customerRepository as repo } from '../../src/customers/customer.repository.js';
import { committedWatermark } from '../../src/store/sync-clock.js';
import { describeEachStore, holdTransaction, stillWaiting } from '../helpers/store-suite.js';
import { isPostgres } from '../helpers/test-store.js';
import { unique } from '../orders/order-fixtures.js';

/** The 13 data columns, null unless given. */
const data = (given: Partial<CustomerData> = {}): CustomerData =>
  ({ ...Object.fromEntries(DATA_COLUMNS.map((c) => [c, null])), ...given }) as CustomerData;

describeEachStore(
  'customer repository',
  (s, backend) => {
    /** Writes customers through the door in one transaction (one stamp); returns that stamp. */
    const seed = async (rows: ReadonlyArray<{ id: string } & Partial<CustomerData>>): Promise<number> => {
      await s().write(async (unit) => {
        await repo.writeMany(
          unit.db,
          rows.map(({ id, ...given }) => ({ customerId: id, data: data(given) })),
          0,
        );
        for (const r of rows) unit.touch('customer', r.id);
      });
      return stampOf(rows[0]!.id);
    };
    const find = (id: string) => repo.findById(s().store.reader, id);
    const stampOf = async (id: string): Promise<number> => Number((await find(id))?.modified_at);
    const watermark = () => committedWatermark(s().store.reader);
    const search = (ids: string[], after?: number) => repo.findByIdentifiers(s().store.reader, ids, after);
    const idsOf = (rows: ReadonlyArray<{ customer_id: string }>) => rows.map((r) => r.customer_id);
    const upsert = (newId: string, externalId: string | null, address: CustomerAddress) =>
      s().write(async (unit) => {
        const { customer_id: id } = await repo.upsertByExternalId(unit.db, newId, externalId, address, Date.now());
        unit.touch('customer', id);
        return id;
      });
    const withExternalId = async (externalId: string) =>
      s().store.reader.selectFrom('customers').selectAll().where('external_id', '=', externalId).execute();

    test('findByIdentifiers matches ids and external ids together, each customer once, in sync order', async () => {
      const t = unique();
      await seed([{ id: `${t}-a`, external_id: `${t}-xa` }]);
      // b's external id is a's customer id: one identifier, two customers.
      await seed([{ id: `${t}-b`, external_id: `${t}-a` }]);
      await seed([{ id: `${t}-c` }, { id: `${t}-d` }]);
      const m = await search([`${t}-a`, `${t}-xa`, `${t}-c`]);
      assert.deepEqual(idsOf(m.rows), [`${t}-a`, `${t}-b`, `${t}-c`]);
      assert.equal(m.committed, await watermark());
    });

    test('findByIdentifiers with no match returns no rows and the watermark of the clock row', async () => {
      const t = unique();
      const stamp = await seed([{ id: `${t}-a` }]);
      const m = await search([`${t}-nobody`]);
      assert.deepEqual(m.rows, []);
      assert.equal(m.committed, await watermark());
      assert.ok(m.committed >= stamp);
    });

    test('findByIdentifiers: the lower bound is strict, the upper bound is the committed watermark', async () => {
      const t = unique();
      const first = await seed([{ id: `${t}-a` }]);
      const second = await seed([{ id: `${t}-b` }]);
      assert.ok(second > first);
      const ids = [`${t}-a`, `${t}-b`, `${t}-later`];
      assert.deepEqual(idsOf((await search(ids, first - 1)).rows), [`${t}-a`, `${t}-b`]);
      assert.deepEqual(idsOf((await search(ids, first)).rows), [`${t}-b`]);
      assert.deepEqual(idsOf((await search(ids, second)).rows), []);
      // A row stamped above the watermark (as by a transaction that has not taken its stamp yet).
      const above = (await watermark()) + 60_000;
      await s().store.writeTransaction((trx) => repo.writeMany(trx, [{ customerId: `${t}-later`, data: data() }], above));
      const m = await search(ids);
      assert.deepEqual(idsOf(m.rows), [`${t}-a`, `${t}-b`]);
      assert.ok(m.committed < above);
    });

    test('upsertByExternalId inserts for a new external id and writes the address of its holder for a known one', async () => {
      const t = unique();
      assert.equal(await upsert(`${t}-1`, `${t}-x`, { first_name: 'Erika', city: 'Köln' }), `${t}-1`);
      assert.equal(await upsert(`${t}-2`, `${t}-x`, { city: 'Bonn', company: null }), `${t}-1`);
      const rows = await withExternalId(`${t}-x`);
      assert.deepEqual(
        rows.map((r) => [r.customer_id, r.first_name, r.city, r.company]),
        [[`${t}-1`, 'Erika', 'Bonn', null]],
      );
      assert.equal(await find(`${t}-2`), undefined);
      // No external id: no conflict, a customer each.
      assert.equal(await upsert(`${t}-3`, null, {}), `${t}-3`);
      assert.equal(await upsert(`${t}-4`, null, { last_name: 'Muster' }), `${t}-4`);
      assert.equal((await find(`${t}-4`))?.last_name, 'Muster');
    });

    test('two units naming the same new external id end with one customer', async () => {
      const t = unique();
      const ids = await Promise.all([upsert(`${t}-1`, `${t}-x`, { first_name: 'A' }), upsert(`${t}-2`, `${t}-x`, { first_name: 'B' })]);
      const rows = await withExternalId(`${t}-x`);
      assert.equal(rows.length, 1);
      assert.deepEqual(ids, [rows[0]!.customer_id, rows[0]!.customer_id]);
    });

    // PostgreSQL only: SQLite has no row or table locks (its write transaction holds the file).
    if (isPostgres(backend)) {
      test('two transactions on two connections naming the same new external id end with one customer', async () => {
        // Below the door on purpose: two sessions with transactions open at once.
        const t = unique();
        const { store } = s();
        const first = await holdTransaction(store);
        const second = await holdTransaction(store);
        try {
          assert.equal((await repo.upsertByExternalId(first, `${t}-1`, `${t}-x`, { first_name: 'A' }, Date.now())).customer_id, `${t}-1`);
          const pending = repo.upsertByExternalId(second, `${t}-2`, `${t}-x`, { first_name: 'B' }, Date.now());
          assert.ok(await stillWaiting(pending), 'the second insert waits for the first transaction');
          await first.commit().execute();
          const written = await pending;
          assert.deepEqual([written.customer_id, written.first_name], [`${t}-1`, 'B'], 'the row as the second write left it');
          await second.commit().execute();
        } finally {
          if (!first.isCommitted) await first.rollback().execute();
          if (!second.isCommitted) await second.rollback().execute();
        }
        assert.deepEqual(
          (await withExternalId(`${t}-x`)).map((r) => [r.customer_id, r.first_name]),
          [[`${t}-1`, 'B']],
        );
      });
    }

    test('updateAddress writes the columns given, keeps the absent ones, returns the row as written, and nothing for an unknown customer', async () => {
      const t = unique();
      await seed([{ id: `${t}-a`, external_id: `${t}-x`, first_name: 'Erika', city: 'Köln', company: 'ACME' }]);
      const update = (id: string, address: CustomerAddress) => s().write((unit) => repo.updateAddress(unit.db, id, address));
      const written = await update(`${t}-a`, { city: 'Bonn', company: null });
      const row = await find(`${t}-a`);
      assert.deepEqual([row?.external_id, row?.first_name, row?.city, row?.company], [`${t}-x`, 'Erika', 'Bonn', null]);
      assert.deepEqual(written, row);
      assert.deepEqual(await update(`${t}-a`, {}), row);
      assert.deepEqual(await find(`${t}-a`), row);
      assert.equal(await update(`${t}-nobody`, { city: 'Bonn' }), undefined);
      assert.equal(await update(`${t}-nobody`, {}), undefined);
    });

    test('touch and writeMany handle more than 500 customers (statements of 500 ids)', async () => {
      const t = unique();
      const ids = Array.from({ length: 1203 }, (_, i) => `${t}-${String(i).padStart(4, '0')}`);
      await seed([{ id: `${t}-other` }]);
      const before = await stampOf(`${t}-other`);
      await seed(ids.map((id) => ({ id })));
      const stamps = await s()
        .store.reader.selectFrom('customers')
        .select((eb) => ['modified_at', eb.fn.countAll<number>().as('n')])
        .where('customer_id', 'in', ids)
        .groupBy('modified_at')
        .execute();
      assert.equal(stamps.length, 1, 'every customer of the transaction has its one stamp');
      assert.equal(Number(stamps[0]!.n), ids.length);
      assert.ok(Number(stamps[0]!.modified_at) > before);
      assert.equal(await stampOf(`${t}-other`), before, 'a customer not touched keeps its stamp');
    });

    test('writeMany inserts with the provisional stamp and replaces only the data of existing customers', async () => {
      const t = unique();
      const stamp = await seed([{ id: `${t}-a`, first_name: 'Erika' }]);
      const created = (await find(`${t}-a`))!.created_at;
      await s().store.writeTransaction((trx) =>
        repo.writeMany(
          trx,
          [
            { customerId: `${t}-a`, data: data({ external_id: `${t}-x` }) },
            { customerId: `${t}-b`, data: data({ city: 'Bonn' }) },
          ],
          7,
        ),
      );
      const a = await find(`${t}-a`);
      assert.deepEqual([a?.external_id, a?.first_name, a?.modified_at, a?.created_at], [`${t}-x`, null, stamp, created]);
      const b = await find(`${t}-b`);
      assert.deepEqual([b?.city, b?.modified_at, b?.created_at, b?.custom_fields_version], ['Bonn', 7, 7, 0]);
    });

    test('insertNew inserts only the customers that do not exist and returns their ids', async () => {
      const t = unique();
      await seed([{ id: `${t}-a`, first_name: 'Erika' }]);
      const row = (id: string) => ({
        customer_id: id,
        ...data({ first_name: 'New' }),
        modified_at: 1,
        created_at: 1,
        custom_fields_version: 0,
      });
      const ids = await s().store.writeTransaction((trx) => repo.insertNew(trx, [row(`${t}-a`), row(`${t}-b`)]));
      assert.deepEqual(ids, [`${t}-b`]);
      assert.equal((await find(`${t}-a`))?.first_name, 'Erika');
      assert.equal((await find(`${t}-b`))?.first_name, 'New');
    });

    test('writeData creates, then updates; holdersOfExternalIds names who holds each external id', async () => {
      const t = unique();
      const write = (first: string) =>
        s().write((unit) => repo.writeData(unit.db, `${t}-a`, data({ external_id: `${t}-x`, first_name: first }), Date.now()));
      assert.equal(await write('Erika'), 'created');
      assert.equal(await write('Max'), 'updated');
      assert.equal((await find(`${t}-a`))?.first_name, 'Max');
      const holders = await repo.holdersOfExternalIds(s().store.reader, [`${t}-x`, `${t}-none`]);
      assert.deepEqual([...holders], [[`${t}-x`, `${t}-a`]]);
    });
  },
  { pgbouncer: true },
);
