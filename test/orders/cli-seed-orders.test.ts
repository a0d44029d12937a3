import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { sha256 } from '../../src/digest.js';
import { demoConfirmation, seedOrderNumber, seededContent } from '../../src/orders/order.seed.js';
import { assertBuilt } from '../helpers/cli.js';
import { CliThread } from '../helpers/cli-in-thread.js';
import { describeEachBackend, describeOnce, json } from '../helpers/test-app.js';

describeEachBackend('ordergate seed --orders (CLI)', (t) => {
  // The seeder runs in one thread of this process (the built CLI's main()), without a node process per run.
  let thread: CliThread;
  before(() => (thread = new CliThread()));
  after(() => thread.close());
  const seed = (...args: string[]) => thread.cli(['seed', ...args], { DATABASE_URL: t().config.databaseUrl, LOG_LEVEL: 'silent' });
  const stored = () =>
    t().store.db.selectFrom('orders').select(['order_id', 'order_number', 'status', 'customer_id']).orderBy('order_number').execute();

  test('seed --orders N creates N open orders SEED-00000001…; again adds nothing; a larger N adds the difference', async () => {
    assertBuilt();
    // 1234 crosses the 1000-row inserts of the seeder.
    let r = await seed('--orders', '1234');
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, 'orders: 1234 added (0 existed)\n');
    let rows = await stored();
    assert.equal(rows.length, 1234);
    assert.deepEqual(
      rows.map((o) => o.order_number),
      Array.from({ length: 1234 }, (_, i) => seedOrderNumber(i + 1)),
    );
    assert.ok(rows.every((o) => o.status === 'Open' && o.customer_id === null));

    // Through the API: seeded orders are open orders like any other, and one can be confirmed.
    for (const o of [rows[0]!, rows[999]!, rows[1233]!]) {
      const res = await t().inject(`/orders/${o.order_id}`);
      assert.equal(res.statusCode, 200, res.body);
      assert.deepEqual([json(res).OrderNumber, json(res).Status], [o.order_number, 'Open']);
    }
    // Each holds 1–5 lines of the demo catalogue, the same for the same number, and DHL shipping.
    const perOrder = await t()
      .store.db.selectFrom('order_lines')
      .select((eb) => ['order_id', eb.fn.countAll().as('n')])
      .groupBy('order_id')
      .execute();
    assert.equal(perOrder.length, 1234);
    assert.deepEqual([...new Set(perOrder.map((r) => Number(r.n)))].sort(), [1, 2, 3, 4, 5]);
    const second = json(await t().inject(`/orders/${rows[1]!.order_id}`));
    assert.deepEqual(
      second.Lines.map((l: { Sku: string; Quantity: number }) => [l.Sku, l.Quantity]),
      seededContent(2).Lines.map((l) => [l.Sku, l.Quantity]),
    );
    assert.equal(second.Shipping.Name, 'DHL');
    assert.ok(second.Totals.Gross > second.Totals.Net && second.Totals.Net > 0);
    const confirmed = await t().inject({
      method: 'POST',
      url: `/orders/${rows[0]!.order_id}/confirm`,
      payload: {
        CustomerFirstName: 'Seed',
        CustomerLastName: 'Test',
        CustomerPostalCode: '10115',
        CustomerCity: 'Berlin',
        CustomerCountry: 'DE',
        CustomerStreet: 'Hauptstr. 1',
        CustomerEMail: 'seed@example.org',
        Payment: { Amount: 1, Name: 'Invoice' },
      },
    });
    assert.equal(confirmed.statusCode, 200, confirmed.body);

    // Documented: seeding again adds nothing (order numbers are deterministic), and the confirmed order stays confirmed.
    r = await seed('--orders', '1234');
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, 'orders: 0 added (1234 existed)\n');
    rows = await stored();
    assert.equal(rows.length, 1234);
    assert.equal(rows[0]!.status, 'Confirmed');

    r = await seed('--orders', '1300');
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, 'orders: 66 added (1234 existed)\n');
    rows = await stored();
    assert.equal(rows.length, 1300);
    assert.equal(rows.at(-1)!.order_number, seedOrderNumber(1300));
    assert.equal(rows.filter((o) => o.status === 'Open').length, 1299);
  });
});

describeEachBackend('ordergate seed --orders N --confirmed K (CLI)', (t) => {
  // The seeder runs in one thread of this process (the built CLI's main()), without a node process per run.
  let thread: CliThread;
  before(() => (thread = new CliThread()));
  after(() => thread.close());
  const seed = (...args: string[]) => thread.cli(['seed', ...args], { DATABASE_URL: t().config.databaseUrl, LOG_LEVEL: 'silent' });
  const customer = (id: string) => t().store.db.selectFrom('customers').selectAll().where('customer_id', '=', id).executeTakeFirstOrThrow();

  test('seed --confirmed K: the first K orders confirmed by the demo customers in turn, as a ConfirmOrder of the same data stores them', async () => {
    assertBuilt();
    const r = await seed('--customers', '7', '--orders', '1010', '--confirmed', '1003');
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /^customers: 7 added \(0 existed\) in [\d.]+ s\norders: 1010 added \(0 existed\)\n$/);
    const rows = await t().store.db.selectFrom('orders').selectAll().orderBy('order_number').execute();
    assert.equal(rows.length, 1010);
    // 1003 crosses the 1000-row inserts: the boundary batch holds both kinds.
    rows.forEach((o, i) => {
      if (i >= 1003) return assert.deepEqual([o.status, o.customer_id, o.confirmation], ['Open', null, null], o.order_number);
      assert.equal(o.status, 'Confirmed', o.order_number);
      assert.equal(o.customer_id, `C${String((i % 7) + 1).padStart(8, '0')}`);
      assert.equal(o.confirmed_at, o.created_at);
      assert.equal(o.confirmation_hash, sha256(o.confirmation!));
    });

    // The API shows them as any confirmed order, and the same confirmation again is a retry: the first answer.
    const order = rows[8]!;
    const shown = await t().inject(`/orders/${order.order_id}`);
    assert.equal(shown.statusCode, 200, shown.body);
    assert.equal(json(shown).Status, 'Confirmed');
    assert.equal(json(shown).Confirmation.CustomerLastName, (await customer(order.customer_id!)).last_name);
    assert.equal(json(shown).Confirmation.CustomerIban, 'DE89********3000');
    const again = await t().inject({ method: 'POST', url: `/orders/${order.order_id}/confirm`, payload: demoConfirmation(2) });
    assert.equal(again.statusCode, 200, again.body);
    assert.deepEqual([json(again).OrderNumber, json(again).CustomerId], [order.order_number, 'C00000002']);
  });
});

// The count is refused before the store is opened: one backend shows it.
describeOnce('ordergate seed --orders (CLI): a bad N', (t) => {
  // The seeder runs in one thread of this process (the built CLI's main()), without a node process per run.
  let thread: CliThread;
  before(() => (thread = new CliThread()));
  after(() => thread.close());
  const seed = (...args: string[]) => thread.cli(['seed', ...args], { DATABASE_URL: t().config.databaseUrl, LOG_LEVEL: 'silent' });
  const stored = () => t().store.db.selectFrom('orders').select(['order_id']).execute();

  test('a bad N (0, negative, not a whole number), or --confirmed beyond --orders or without --customers, exits 2 naming the flag, and seeds nothing', async () => {
    assertBuilt();
    const customers = () => t().store.db.selectFrom('customers').select('customer_id').execute();
    const before = (await stored()).length;
    const customersBefore = (await customers()).length;
    const cases: string[][] = [
      ['--orders', '0'],
      ['--orders=0'],
      ['--orders', '-5'],
      ['--orders=-5'],
      ['--orders', 'ten'],
      ['--orders', '1.5'],
      ['--orders', '1e3'],
      ['--orders='],
      ['--orders'],
      ['--customers', '3', '--orders', '0'],
      ['--customers', '3', '--orders', '5', '--confirmed', '0'],
      ['--customers', '3', '--orders', '5', '--confirmed', 'all'],
      ['--customers', '3', '--orders', '5', '--confirmed', '6'],
      ['--customers', '3', '--confirmed', '1'],
      ['--orders', '5', '--confirmed', '2'],
    ];
    for (const args of cases) {
      const r = await seed(...args);
      assert.equal(r.code, 2, `${args.join(' ')}: ${r.stderr}`);
      assert.match(
        r.stderr,
        new RegExp(`^ordergate: .*${args.includes('--confirmed') ? '--confirmed' : '--orders'}`, 'm'),
        `${args.join(' ')}: ${r.stderr}`,
      );
      assert.match(r.stderr, /^usage: ordergate seed \[--customers N\] \[--orders N \[--confirmed N\]\]$/m);
      assert.equal(r.stdout, '', args.join(' '));
    }
    const negative = await seed('--customers', '-5');
    assert.equal(
      negative.stderr,
      "ordergate: --customers takes a whole number of at least 1, got '-5'\nusage: ordergate seed [--customers N] [--orders N [--confirmed N]]\n",
    );
    assert.equal((await stored()).length, before, 'no order was added');
    assert.equal((await customers()).length, customersBefore, 'no customer was added');
  });
});
