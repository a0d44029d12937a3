import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { parse } from 'csv-parse/sync';
import { ORDER_CSV_COLUMNS, ORDER_LINE_CSV_COLUMNS } from '../../src/orders/order.export.js';
import { OrderFeedItem } from '../../src/orders/order.schemas.js';
import { openStore } from '../../src/store/open-store.js';
import type { Store } from '../../src/store/store.js';
import { assertBuilt, BIN } from '../helpers/cli.js';
import { CliThread } from '../helpers/cli-in-thread.js';
import { describeEachBackend, json, storeEnv } from '../helpers/test-app.js';
import { createTestDatabase, type TestDatabase } from '../helpers/test-store.js';
import { BIC, IBAN, MASKED_IBAN, confirm, confirmation, createOrder, unique } from './order-fixtures.js';

const notesOf = async (store: Store, numbers: readonly string[]): Promise<Record<string, string | null>> => {
  const rows = await store.reader.selectFrom('orders').select(['order_number', 'note']).where('order_number', 'in', numbers).execute();
  return Object.fromEntries(rows.map((r) => [r.order_number, r.note]));
};

describeEachBackend(
  'orders export / import (CLI)',
  (t, backend) => {
    let dir: string;
    let fresh: TestDatabase;
    const id = unique();
    const number = (n: string) => `cli-${id}-${n}`;
    let open: number, confirmed: number, cancelled: number;
    /** The watermark before this suite's orders: exports after it show only them. */
    let since: string;

    // The commands run in one thread of this process (a node process each would cost more than most commands);
    // the progress-bar test below spawns the binary, as it is about a terminal.
    let thread: CliThread;
    const cli = (args: string[], store: Record<string, string> = storeEnv(t().config)) =>
      thread.run(args, { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', ...store, LOG_LEVEL: 'silent' });
    const file = (name: string, content: string) => {
      const path = join(dir, name);
      writeFileSync(path, content);
      return path;
    };
    const jsonl = (out: string) =>
      out
        .trimEnd()
        .split('\n')
        .filter((l) => l !== '')
        .map((l) => JSON.parse(l));
    const audit = async (after: number) =>
      json(await t().inject(`/audit/?After=${after}`)) as Array<{
        Sequence: number;
        KeyId: string;
        Action: string;
        ResourceType: string;
        ResourceIds: string[];
      }>;
    const lastSequence = async () => (await audit(0)).at(-1)?.Sequence ?? 0;

    before(async () => {
      assertBuilt();
      thread = new CliThread();
      dir = mkdtempSync(join(tmpdir(), 'ordergate-orders-cli-'));
      fresh = await createTestDatabase(backend);
      const first = await cli(['orders', 'export']);
      assert.equal(first.code, 0, first.err);
      since = `/Date(${/\((\d+)\)/.exec(first.err)![1]})/`;
      open = await createOrder(t(), {
        OrderNumber: number('open'),
        Note: 'an open note',
        Lines: [
          { Sku: 'PEN', Name: 'Pen, blue', Quantity: 3, UnitPrice: 0.1, TaxRate: 19 },
          { Sku: 'BOOK', Name: 'Book', Quantity: 1, UnitPrice: 12.5, TaxRate: 7, Discount: 1.5 },
        ],
      });
      confirmed = await createOrder(t(), { OrderNumber: number('confirmed') });
      assert.equal((await confirm(t(), confirmed, confirmation({ Note: 'ring twice', CustomerCity: 'Köln, Altstadt' }))).statusCode, 200);
      cancelled = await createOrder(t(), { OrderNumber: number('cancelled') });
      assert.equal((await t().inject({ method: 'POST', url: `/orders/${cancelled}/cancel` })).statusCode, 200);
    });
    after(async () => {
      await thread.close();
      rmSync(dir, { recursive: true, force: true });
      await fresh.drop();
    });

    test('JSON Lines: one order per line in the feed shape, in sync order, filtered by status and modification date', async () => {
      const all = await cli(['orders', 'export', '--modified-after', since]);
      assert.equal(all.code, 0, all.err);
      const rows = jsonl(all.out);
      assert.deepEqual(
        rows.map((o) => o.OrderId),
        [open, confirmed, cancelled],
      );
      for (const row of rows) {
        assert.deepEqual(Object.keys(row), Object.keys(OrderFeedItem.properties));
        const { LastModified, ...view } = row;
        assert.match(LastModified, /^\/Date\(\d+-0000\)\/$/);
        assert.deepEqual(view, json(await t().inject(`/orders/${row.OrderId}`)), 'the shape of GET /orders/{id}');
      }
      assert.match(all.err, /exported 3 orders; X-Sync-Watermark \S+ \(\d+\)/);

      const some = await cli(['orders', 'export', '--modified-after', since, '--status', 'Cancelled,confirmed']);
      assert.equal(some.code, 0, some.err);
      assert.deepEqual(
        jsonl(some.out).map((o) => [o.OrderId, o.Status]),
        [
          [confirmed, 'Confirmed'],
          [cancelled, 'Cancelled'],
        ],
      );
      const watermark = /\((\d+)\)/.exec(some.err)![1];
      assert.equal((await cli(['orders', 'export', '--modified-after', `/Date(${watermark})/`])).out, '', 'nothing after the watermark');
    });

    test('CSV: one row per order, nested fields as dotted columns', async () => {
      const r = await cli(['orders', 'export', '--format', 'csv', '--modified-after', since, '--status', 'Open,Confirmed']);
      assert.equal(r.code, 0, r.err);
      const [header, ...rows] = parse(r.out) as string[][];
      assert.deepEqual(header, [...ORDER_CSV_COLUMNS]);
      assert.ok(header!.includes('Confirmation.CustomerCity') && header!.includes('Confirmation.Payment.Amount'));
      const byColumn = rows.map((row) => Object.fromEntries(header!.map((c, i) => [c, row[i]])));
      assert.deepEqual(
        byColumn.map((o) => o.OrderNumber),
        [number('open'), number('confirmed')],
      );
      const [o, c] = byColumn;
      assert.equal(o!['Confirmation.CustomerCity'], '', 'an open order has no confirmation');
      assert.deepEqual([o!.Note, c!.Note, c!['Confirmation.Note']], ['an open note', '', 'ring twice']);
      assert.equal(c!['Confirmation.CustomerCity'], 'Köln, Altstadt');
      assert.equal(c!['Confirmation.Payment.Amount'], '19.99');
      assert.equal(c!['Confirmation.Payment.Type'], 'PayPal');
      assert.equal(c!['Confirmation.CustomerIban'], MASKED_IBAN);
      assert.match(c!.ConfirmedAt!, /^\/Date\(\d+-0000\)\/$/);
      assert.match(r.err, /exported 2 orders/);
    });

    test("CSV: the totals as columns of the order; csv-lines: a row per line, the order's columns repeated", async () => {
      const r = await cli(['orders', 'export', '--format', 'csv', '--modified-after', since, '--status', 'Open,Confirmed']);
      const [header, ...rows] = parse(r.out) as string[][];
      assert.ok(!header!.includes('Lines') && !header!.includes('Totals.TaxBreakdown'), 'lists are no columns of a row per order');
      const byColumn = rows.map((row) => Object.fromEntries(header!.map((c, i) => [c, row[i]])));
      assert.deepEqual(
        byColumn.map((o) => [o.Currency, o['Totals.Net'], o['Totals.Tax'], o['Totals.Gross'], o['Totals.Discount']]),
        [
          ['EUR', '11.3', '0.83', '12.13', '1.5'],
          ['EUR', '0', '0', '0', '0'],
        ],
      );

      const l = await cli(['orders', 'export', '--format', 'csv-lines', '--modified-after', since, '--status', 'Open,Confirmed']);
      assert.equal(l.code, 0, l.err);
      const [lineHeader, ...lineRows] = parse(l.out) as string[][];
      assert.deepEqual(lineHeader, [...ORDER_CSV_COLUMNS, ...ORDER_LINE_CSV_COLUMNS]);
      assert.ok(ORDER_LINE_CSV_COLUMNS.includes('Lines.Sku') && ORDER_LINE_CSV_COLUMNS.includes('Lines.Gross'));
      const lines = lineRows.map((row) => Object.fromEntries(lineHeader!.map((c, i) => [c, row[i]])));
      assert.deepEqual(
        lines.map((o) => [
          o.OrderNumber,
          o['Totals.Gross'],
          o['Lines.LineNumber'],
          o['Lines.Sku'],
          o['Lines.Name'],
          o['Lines.Net'],
          o['Lines.Tax'],
        ]),
        [
          [number('open'), '12.13', '1', 'PEN', 'Pen, blue', '0.3', '0.06'],
          [number('open'), '12.13', '2', 'BOOK', 'Book', '11', '0.77'],
          [number('confirmed'), '0', '', '', '', '', ''],
        ],
      );
      assert.match(l.err, /exported 2 orders/);
    });

    test('bank data is masked without --include-bank-data and audited in full with it', async () => {
      const from = await lastSequence();
      for (const format of ['jsonl', 'csv']) {
        const masked = await cli(['orders', 'export', '--format', format, '--modified-after', since]);
        assert.equal(masked.code, 0, masked.err);
        for (const secret of [IBAN, BIC, 'MANDATE-1']) assert.ok(!masked.out.includes(secret), `${format}: ${secret}`);
      }
      assert.deepEqual(await audit(from), [], 'a masked export records nothing');

      const full = await cli(['orders', 'export', '--modified-after', since, '--include-bank-data']);
      assert.equal(full.code, 0, full.err);
      const view = jsonl(full.out).find((o) => o.OrderId === confirmed).Confirmation;
      assert.deepEqual(
        [view.CustomerIban, view.CustomerBic, view.CustomerSepaMandateReference, view.AccountHolderName],
        [IBAN, BIC, 'MANDATE-1', 'Erika Mustermann'],
      );
      const entries = await audit(from);
      assert.deepEqual(
        entries.map(({ KeyId, Action, ResourceType, ResourceIds }) => ({ KeyId, Action, ResourceType, ResourceIds })),
        [{ KeyId: 'cli', Action: 'bank.read', ResourceType: 'order', ResourceIds: [String(confirmed)] }],
      );
    });

    test('bad flag values: one line naming the flag, exit code 2', async () => {
      for (const [flags, flag] of [
        [['--status', 'Shipped'], '--status'],
        [['--format', 'xml'], '--format'],
        [['--modified-after', 'soon'], '--modified-after'],
      ] as const) {
        const r = await cli(['orders', 'export', ...flags]);
        assert.equal(r.code, 2, flags.join(' '));
        assert.equal(r.out, '');
        assert.ok(r.err.split('\n')[0]!.startsWith(`ordergate: ${flag}: `), r.err);
      }
    });

    test('an export imports into a fresh database: order numbers and notes (JSON Lines and CSV)', async () => {
      assert.equal((await cli(['migrate'], fresh.env)).code, 0);
      const jsonlExport = (await cli(['orders', 'export', '--modified-after', since, '--status', 'Open,Confirmed'])).out;
      let r = await cli(['orders', 'import', file('all.jsonl', jsonlExport)], fresh.env);
      assert.equal(r.code, 0, r.err);
      assert.match(r.out, /^imported 2 orders from 2 rows in [\d.]+ s\n$/);
      const csvExport = (await cli(['orders', 'export', '--format', 'csv', '--modified-after', since, '--status', 'Cancelled'])).out;
      r = await cli(['orders', 'import', file('all.csv', csvExport)], fresh.env);
      assert.equal(r.code, 0, r.err);

      const back = jsonl((await cli(['orders', 'export'], fresh.env)).out);
      assert.deepEqual(
        back.map((o) => [o.OrderNumber, o.Status]),
        [
          [number('open'), 'Open'],
          [number('confirmed'), 'Open'],
          [number('cancelled'), 'Open'],
        ],
      );
      const store = openStore(fresh.url);
      try {
        // An order's own Note travels; the confirmation's stays in Confirmation (the imported order is open).
        assert.deepEqual(await notesOf(store, [number('open'), number('confirmed'), number('cancelled')]), {
          [number('open')]: 'an open note',
          [number('confirmed')]: null,
          [number('cancelled')]: null,
        });
        assert.deepEqual(
          back.map((o) => o.Note),
          ['an open note', null, null],
        );
        // A record without Note (an export of a release that showed the note only in the confirmation) takes Confirmation.Note.
        const older = jsonl(jsonlExport).find((o) => o.OrderNumber === number('confirmed'))!;
        delete older.Note;
        older.OrderNumber = number('older');
        r = await cli(['orders', 'import', file('older.jsonl', `${JSON.stringify(older)}\n`)], fresh.env);
        assert.equal(r.code, 0, r.err);
        assert.deepEqual(await notesOf(store, [number('older')]), { [number('older')]: 'ring twice' });
      } finally {
        await store.close();
      }
      r = await cli(['orders', 'import', file('again.csv', csvExport)], fresh.env);
      assert.equal(r.code, 1, 'the numbers exist now');
      assert.match(r.err, new RegExp(`^line 2: OrderNumber: '${number('cancelled')}' exists already$`, 'm'));
    });

    test('content round trip: JSON Lines and csv-lines import into an empty store as the same orders', async () => {
      const start = jsonl((await cli(['orders', 'export'])).out).at(-1)?.LastModified as string;
      const made = [
        { OrderNumber: number('rt-plain') },
        {
          OrderNumber: number('rt-eur'),
          Lines: [
            { Sku: 'PEN', Name: 'Pen, "blue"', Quantity: 3, UnitPrice: 0.1, TaxRate: 19 },
            { Sku: 'BOOK', Name: 'Book\nsecond line', Quantity: 2, UnitPrice: 12.5, TaxRate: 7, Discount: 1.55 },
            { Sku: 'PEN', Name: 'Pen again', Quantity: 1, UnitPrice: 0.1, TaxRate: 19 },
          ],
          Shipping: { Name: 'DHL', Amount: 4.9, TaxRate: 19 },
        },
        {
          OrderNumber: number('rt-kwd'),
          Currency: 'KWD',
          PricesIncludeTax: true,
          Lines: [{ Sku: 'OIL', Name: 'Oil', Quantity: 7, UnitPrice: 1.235, TaxRate: 5.5 }],
          Shipping: { Amount: 0.5, TaxRate: 5.5 },
        },
        { OrderNumber: number('rt-jpy'), Currency: 'JPY', Lines: [{ Sku: 'TEA', Name: 'Tea', Quantity: 3, UnitPrice: 333, TaxRate: 8 }] },
      ];
      for (const body of made) await createOrder(t(), body);
      const content = (o: Record<string, unknown>) => [o.OrderNumber, o.Currency, o.PricesIncludeTax, o.Lines, o.Shipping, o.Totals];
      const exported = jsonl((await cli(['orders', 'export', '--modified-after', start])).out).filter((o) =>
        o.OrderNumber.includes('-rt-'),
      );
      assert.equal(exported.length, 4);
      assert.ok(exported.some((o) => o.Totals.Gross > 0 && o.Shipping !== null));
      for (const format of ['jsonl', 'csv-lines']) {
        const out = (await cli(['orders', 'export', '--format', format, '--modified-after', start])).out;
        const empty = await createTestDatabase(backend);
        try {
          assert.equal((await cli(['migrate'], empty.env)).code, 0);
          const r = await cli(['orders', 'import', file(`rt.${format === 'jsonl' ? 'jsonl' : 'csv'}`, out)], empty.env);
          assert.equal(r.code, 0, r.err);
          const back = jsonl((await cli(['orders', 'export'], empty.env)).out).filter((o) => o.OrderNumber.includes('-rt-'));
          assert.deepEqual(back.map(content), exported.map(content), format);
          assert.ok(back.every((o) => o.Status === 'Open'));
        } finally {
          await empty.drop();
        }
      }
    });

    test('content: a bad line is named by its row and field; nothing of its order is written', async () => {
      const header =
        'OrderNumber,Currency,PricesIncludeTax,Shipping.Amount,Shipping.TaxRate,Lines.Sku,Lines.Name,Lines.Quantity,Lines.UnitPrice,Lines.TaxRate,Lines.Discount';
      const csv = [
        header,
        `${number('c1')},EUR,false,4.9,19,A,Alpha,1,10,19,`, // line 2
        `${number('c1')},EUR,false,4.9,19,B,Beta,two,10,19,`, // line 3: Lines[1].Quantity
        `${number('c1')},EUR,false,4.9,19,C,Gamma,1,10.123,19,`, // line 4: Lines[2].UnitPrice
        `${number('c2')},EUR,false,,,A,Alpha,2,10,7,0.5`, // line 5
        `${number('c2')},USD,false,,,B,Beta,1,3,7,`, // line 6: Currency differs
        `${number('c3')},XYZ,maybe,,,A,Alpha,1,1,101,`, // line 7: Currency, PricesIncludeTax; Lines[0].TaxRate
        `${number('c4')},JPY,true,500,10,A,Alpha,2,1000,10,`, // line 8
        `${number('c4')},JPY,true,500,10,B,Beta,1,250,8,`, // line 9
      ].join('\n');
      const path = file('content.csv', csv + '\n');
      let r = await cli(['orders', 'import', path]);
      assert.equal(r.code, 1);
      const lines = r.err.split('\n');
      assert.equal(lines[0], `line 2: order '${number('c1')}' is not imported: line 3 is invalid`);
      assert.equal(lines[1], "line 3: Lines[1].Quantity: 'Lines[1].Quantity' must be a number");
      assert.match(
        lines[2]!,
        /^line 4: Lines\[2\]\.UnitPrice: 'Lines\[2\]\.UnitPrice' must not be more than 14 digits in total, with allowance for 2 decimals/,
      );
      assert.equal(lines[3], `line 5: order '${number('c2')}' is not imported: line 6 is invalid`);
      assert.equal(lines[4], `line 6: Currency: 'Currency' differs from line 5, where order '${number('c2')}' begins`);
      assert.match(
        lines[5]!,
        /^line 7: PricesIncludeTax: 'PricesIncludeTax' must be true or false; Currency: 'Currency' must be an ISO 4217 currency code.*; Lines\[0\]\.TaxRate: 'Lines\[0\]\.TaxRate' must be between 0 and 100/,
      );
      assert.match(r.err, /nothing imported: 6 of 8 rows are invalid/);
      assert.deepEqual(await notesOf(t().store, [number('c1'), number('c2'), number('c3'), number('c4')]), {});

      r = await cli(['orders', 'import', path, '--skip-invalid']);
      assert.equal(r.code, 0, r.err);
      assert.match(r.out, /^imported 1 orders from 8 rows, 6 invalid rows skipped/);
      assert.deepEqual(Object.keys(await notesOf(t().store, [number('c1'), number('c2'), number('c3'), number('c4')])), [number('c4')]);
      const [c4] = json(await t().inject(`/orders/?OrderNumbers=${number('c4')}`));
      assert.deepEqual(
        [
          c4.Currency,
          c4.PricesIncludeTax,
          c4.Lines.map((l: { Sku: string; LineNumber: number }) => [l.LineNumber, l.Sku]),
          c4.Totals.Gross,
        ],
        [
          'JPY',
          true,
          [
            [1, 'A'],
            [2, 'B'],
          ],
          2750,
        ],
      );
      const rows = await t()
        .store.reader.selectFrom('order_lines')
        .innerJoin('orders', 'orders.order_id', 'order_lines.order_id')
        .select('orders.order_number')
        .where('orders.order_number', 'in', [number('c1'), number('c2'), number('c3')])
        .execute();
      assert.deepEqual(rows, [], 'no line of a bad order');

      const bad = [
        JSON.stringify({
          OrderNumber: number('j2'),
          Lines: [
            { Sku: 'A', Name: 'A', Quantity: 1, UnitPrice: 1, TaxRate: 19 },
            'x',
            { Sku: 'C', Name: 'C', Quantity: 1.5, UnitPrice: '1', TaxRate: 19, Colour: 'red' },
          ],
        }),
        JSON.stringify({ OrderNumber: number('j3'), Lines: {}, Shipping: { Amount: -1, TaxRate: 19 } }),
        JSON.stringify({ OrderNumber: number('j4'), Lines: [], Shipping: 'DHL', Currency: 5, PricesIncludeTax: 'yes' }),
      ].join('\n');
      r = await cli(['orders', 'import', file('content.jsonl', bad)]);
      assert.equal(r.code, 1);
      assert.deepEqual(r.err.split('\n').slice(0, 3), [
        "line 1: Lines[1]: 'Lines[1]' must be an object; Lines[2].UnitPrice: 'Lines[2].UnitPrice' must be a number; " +
          "Lines[2].Colour: unknown field 'Lines[2].Colour'; Lines[2].Quantity: 'Lines[2].Quantity' must not be more than 7 digits " +
          'in total, with allowance for 0 decimals. 2 digits and 1 decimals were found.',
        "line 2: Lines: 'Lines' must be an array; Shipping.Amount: 'Shipping.Amount' must be greater than or equal to '0'.",
        "line 3: Currency: 'Currency' must be a string; PricesIncludeTax: 'PricesIncludeTax' must be true or false; " +
          "Shipping: 'Shipping' must be an object",
      ]);
      assert.deepEqual(await notesOf(t().store, [number('j2'), number('j3'), number('j4')]), {});
    });

    test('a bad file is reported line by line and imports nothing; --skip-invalid imports the rest', async () => {
      const csv = [
        'OrderNumber,Note',
        `${number('i1')},"first, with a comma"`, // line 2
        ',no number', // line 3
        `${'x'.repeat(256)},`, // line 4
        `${number('i2')},${'n'.repeat(1001)}`, // line 5
        `${number('open')},taken`, // line 6
        `${number('i1')},again`, // line 7
        `${number('i3')},"two`, // line 8: a quoted field over two lines
        'lines"', // (line 9)
        `${number('i4')}`, // line 10
      ].join('\n');
      const path = file('bad.csv', csv + '\n');
      let r = await cli(['orders', 'import', path]);
      assert.equal(r.code, 1);
      const lines = r.err.split('\n');
      assert.equal(lines[0], "line 3: OrderNumber: 'OrderNumber' must not be empty.");
      assert.match(lines[1]!, /^line 4: OrderNumber: The length of 'OrderNumber' must be 255 characters or fewer/);
      assert.match(lines[2]!, /^line 5: Note: The length of 'Note' must be 1000 characters or fewer/);
      assert.equal(lines[3], `line 6: OrderNumber: '${number('open')}' exists already`);
      assert.equal(lines[4], `line 7: OrderNumber: '${number('i1')}' is also on line 2`);
      assert.equal(lines[5], 'line 10: 1 fields where the header has 2');
      assert.match(r.err, /nothing imported: 6 of 8 rows are invalid/);
      assert.deepEqual(await notesOf(t().store, [number('i1'), number('i3')]), {});

      r = await cli(['orders', 'import', path, '--skip-invalid']);
      assert.equal(r.code, 0, r.err);
      assert.match(r.out, /^imported 2 orders from 8 rows, 6 invalid rows skipped/);
      assert.deepEqual(await notesOf(t().store, [number('i1'), number('i2'), number('i3'), number('i4')]), {
        [number('i1')]: 'first, with a comma',
        [number('i3')]: 'two\nlines',
      });
      const created = json(await t().inject(`/orders/?OrderNumbers=${number('i3')}`));
      assert.equal(created[0].Status, 'Open', 'created open, and in the feed');

      const bad = [JSON.stringify({ OrderNumber: 7 }), '{oops', JSON.stringify({ OrderNumber: number('j1'), Colour: 'red' })].join('\n');
      r = await cli(['orders', 'import', file('bad.jsonl', bad)]);
      assert.equal(r.code, 1);
      assert.match(r.err, /^line 1: OrderNumber: 'OrderNumber' must be a string$/m);
      assert.match(r.err, /^line 2: not JSON/m);
      assert.match(r.err, /^line 3: Colour: unknown field 'Colour'$/m);
    });

    test('file problems: a missing file, a header without OrderNumber', async () => {
      const missing = join(dir, 'missing.csv');
      const r = await cli(['orders', 'import', missing]);
      const customers = await cli(['customers', 'import', missing]);
      assert.equal(r.code, 2);
      assert.equal(r.code, customers.code);
      assert.equal(r.err.split('\n')[0], `ordergate: no such file: ${missing}`);
      assert.equal(r.err.split('\n')[0], customers.err.split('\n')[0]);
      const header = await cli(['orders', 'import', file('nonumber.csv', 'Note,Colour\nx,y\n'), '--skip-invalid']);
      assert.equal(header.code, 1);
      assert.match(
        header.err,
        /^header: unknown column 'Colour' \(expected OrderNumber, Note, Currency, PricesIncludeTax, Shipping\.\*, Lines\.\*\)$/m,
      );
      assert.match(header.err, /^header: no OrderNumber column$/m);
    });

    test('on a terminal, export and import show progress bars', () => {
      const env = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', ...storeEnv(t().config), LOG_LEVEL: 'silent' };
      // `script` runs the command on a pseudo-terminal, as an operator's shell would.
      const onTerminal = (args: string) => {
        const r = spawnSync('script', ['-qec', `"${process.execPath}" "${BIN}" ${args}`, '/dev/null'], {
          env,
          encoding: 'utf8',
          timeout: 60_000,
        });
        assert.equal(r.status, 0, r.stdout);
        return r.stdout.replace(/\r/g, '\n');
      };
      const rows = Array.from({ length: 1500 }, (_, i) => `${number(`tty-${i}`)},n`).join('\n');
      const imported = onTerminal(`orders import "${file('tty.csv', `OrderNumber,Note\n${rows}\n`)}"`);
      assert.match(imported, /importing \(rows\) \[[█░]+\] 100% 1500\/1500/);
      const exported = onTerminal(`orders export --modified-after "${since}" --status Open > /dev/null`);
      assert.match(exported, /exporting \(orders\) \[[█░]+\] 100% (\d+)\/\1/);
      assert.match(exported, /exported \d+ orders; X-Sync-Watermark/);
    });
  },
  {},
  { pgbouncer: true },
);
