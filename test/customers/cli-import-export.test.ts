import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { importCustomers } from '../../src/customers/customer.import.js';
import { CUSTOMER_FIELDS } from '../../src/customers/customer.schemas.js';
import { demoCustomer } from '../../src/customers/customer.seed.js';
import { toCustomer } from '../../src/customers/customer.mapping.js';
import { CliThread } from '../helpers/cli-in-thread.js';
import { BIN } from '../helpers/root.js';
import { describeEachBackend, json, storeEnv } from '../helpers/test-app.js';
import { currentWatermark, idsOf, putCustomer } from './customer-helpers.js';

describeEachBackend(
  'customers import / export and seed (CLI)',
  (t) => {
    let dir: string;
    // The commands run in one thread of this process (a node process each would cost more than most commands);
    // the progress bars on a terminal and an export whose reader goes away are about a process, and spawn it.
    let thread: CliThread;
    before(() => {
      dir = mkdtempSync(join(tmpdir(), 'ordergate-import-'));
      thread = new CliThread();
    });
    after(async () => {
      await thread.close();
      rmSync(dir, { recursive: true, force: true });
    });

    const env = (): Record<string, string> => {
      const inherited = Object.entries(process.env).filter((e): e is [string, string] => e[1] !== undefined);
      return { ...Object.fromEntries(inherited), ...storeEnv(t().config), LOG_LEVEL: 'silent' };
    };
    const cli = (...args: string[]) => thread.run(args, env());
    const file = (name: string, content: string) => {
      const path = join(dir, name);
      writeFileSync(path, content);
      return path;
    };
    const customer = async (id: string) => json(await t().inject(`/customer/?Identifiers=${encodeURIComponent(id)}`))[0];

    test('a CSV file imports with upsert semantics: quoting, line breaks in fields, BOM, CRLF, any header casing', async () => {
      await putCustomer(t(), 'im-2', { FirstName: 'Old', Company: 'Old GmbH', ExternalId: 'im-x2' });
      const since = await currentWatermark(t().store);
      const csv =
        '\uFEFFcustomerid,EXTERNALID,FirstName,LastName,City,Company,AdditionToAddress\r\n' +
        'im-1,im-x1,Ann,"Müller, geb. Schmidt",Köln,,"Hinterhaus\r\n2. Stock"\r\n' +
        '\r\n' +
        'im-2,im-x2,New,"The ""Boss""",Bonn,,\r\n' +
        'im-3,,Cy,Z,,,\r\n';
      const r = await cli('customers', 'import', file('good.csv', csv));
      assert.equal(r.code, 0, r.err);
      assert.match(r.out, /^imported 3 customers from 3 rows in [\d.]+ s\n$/);
      const one = await customer('im-x1');
      assert.deepEqual(Object.keys(one), [...CUSTOMER_FIELDS]);
      assert.equal(one.CustomerId, 'im-1');
      assert.equal(one.LastName, 'Müller, geb. Schmidt');
      assert.equal(one.AdditionToAddress, 'Hinterhaus\r\n2. Stock');
      assert.equal(one.Company, null);
      const two = await customer('im-2');
      assert.equal(two.FirstName, 'New');
      assert.equal(two.LastName, 'The "Boss"');
      assert.equal(two.Company, null, 'a row replaces the whole customer');
      assert.equal((await customer('im-3')).ExternalId, null);
      const feed = idsOf(await t().inject(`/customer/?LastModifiedAfter=/Date(${since})/`));
      assert.deepEqual([...feed].sort(), ['im-1', 'im-2', 'im-3'], 'imported customers appear in the sync feed');
    });

    test('on a terminal, the import shows progress bars for checking and importing', () => {
      const rows = Array.from({ length: 12_000 }, (_, i) => `tty-${i},Name ${i}`).join('\n');
      const path = file('tty.csv', `CustomerId,LastName\n${rows}\n`);
      // `script` runs the command on a pseudo-terminal, as an operator's shell would.
      const r = spawnSync('script', ['-qec', `"${process.execPath}" "${BIN}" customers import "${path}"`, '/dev/null'], {
        env: env(),
        encoding: 'utf8',
        timeout: 60_000,
      });
      assert.equal(r.status, 0, r.stderr);
      const screen = r.stdout.replace(/\r/g, '\n');
      assert.match(screen, /checking \(bytes\) \[[█░]+\] 100% /);
      assert.match(screen, /importing \(rows\) \[[█░]+\] 100% 12000\/12000/);
      assert.match(screen, /imported 12000 customers from 12000 rows/);
    });

    test('a bad file is reported line by line and imports nothing; --skip-invalid imports the rest', async () => {
      await putCustomer(t(), 'bad-holder', { ExternalId: 'bad-taken' });
      const csv = [
        'CustomerId,ExternalId,FirstName,Street',
        'bad-1,,Ok,', // line 2
        ',,No id,', // line 3
        `bad-3,,${'x'.repeat(256)},`, // line 4
        'bad-4,bad-taken,Taken,', // line 5
        'bad-1,,Again,', // line 6
        'bad-6,,"Multi', // line 7: a quoted field over two lines
        'line",', // (line 8)
        'bad-7,,Short', // line 9
        'bad-8,,Last,Street\u0000', // line 10
      ].join('\n');
      const path = file('bad.csv', csv + '\n');
      let r = await cli('customers', 'import', path);
      assert.equal(r.code, 1);
      const lines = r.err.split('\n');
      assert.match(lines[0]!, /^line 3: CustomerId: 'CustomerId' must not be empty\.$/);
      assert.match(lines[1]!, /^line 4: FirstName: The length of 'FirstName' must be 255 characters or fewer/);
      assert.match(lines[2]!, /^line 5: ExternalId: 'bad-taken' belongs to customer 'bad-holder'$/);
      assert.match(lines[3]!, /^line 6: CustomerId: 'bad-1' is also on line 2$/);
      assert.match(lines[4]!, /^line 9: 3 fields where the header has 4$/);
      assert.match(lines[5]!, /^line 10: Street: 'Street' must not contain NUL characters$/);
      assert.match(r.err, /nothing imported: 6 of 8 rows are invalid/);
      assert.deepEqual(idsOf(await t().inject('/customer/?Identifiers=bad-1,bad-6')), []);

      r = await cli('customers', 'import', path, '--skip-invalid');
      assert.equal(r.code, 0, r.err);
      assert.match(r.out, /^imported 2 customers from 8 rows, 6 invalid rows skipped/);
      assert.deepEqual(idsOf(await t().inject('/customer/?Identifiers=bad-1,bad-6,bad-3,bad-4,bad-7')).sort(), ['bad-1', 'bad-6']);
      assert.equal((await customer('bad-1')).FirstName, 'Ok', 'the first of two rows with one id');
      assert.equal((await customer('bad-6')).FirstName, 'Multi\nline');
    });

    test('problems of the whole file import nothing, even with --skip-invalid', async () => {
      for (const [name, content, message] of [
        ['noid.csv', 'FirstName\nx\n', /no CustomerId column/],
        ['twice.csv', 'CustomerId,city,City\nh-1,a,b\n', /column 'City' appears twice/],
        ['cf.csv', 'CustomerId,cf.987654\nh-2,x\n', /column 'cf.987654': custom field 987654 is not defined/],
        ['quote.csv', 'CustomerId,FirstName\nh-3,"open\nh-4,x\n', /not valid CSV from here on/],
        ['empty.csv', '', /no header line/],
      ] as const) {
        const report = await importCustomers(t().store, t().app.writes, file(name, content), { format: 'csv', skipInvalid: true });
        assert.match(report.fileProblems.join('\n'), message, name);
        assert.equal(report.imported, 0);
      }
      assert.deepEqual(idsOf(await t().inject('/customer/?Identifiers=h-1,h-2,h-3,h-4')), []);
      let r = await cli('customers', 'import', file('header.csv', 'CustomerId,Frist\nh-1,x\n'), '--skip-invalid');
      assert.equal(r.code, 1);
      assert.match(r.err, /^header: unknown column 'Frist' \(expected CustomerId, ExternalId/m);
      assert.match(r.err, /nothing imported: fix the header/);
      r = await cli('customers', 'import', file('x.txt', 'CustomerId\n'));
      assert.equal(r.code, 2);
      assert.match(r.err, /must end in \.csv or \.jsonl/);
    });

    test('JSON Lines: typed values, nulls, blank lines; custom-field columns checked against their definitions', async () => {
      for (const [n, body] of [
        [71, { Label: 'Tier', FieldType: 'Select', AllowedValues: ['Gold', 'Silver'] }],
        [72, { Label: 'Visits', FieldType: 'Number' }],
      ] as const) {
        const res = await t().inject({ method: 'PUT', url: `/customfields/${n}`, payload: body });
        assert.ok(res.statusCode < 300, res.body);
      }
      const good = [
        JSON.stringify({ CustomerId: 'jl-1', postalCode: 1067, FirstName: 'Ann', Company: null, 'cf.71': 'Gold', 'cf.72': 12 }),
        '',
        JSON.stringify({ CustomerId: 'jl-2', City: 'Jena', 'cf.72': '7' }),
      ].join('\n');
      const since = await currentWatermark(t().store);
      const ok = await importCustomers(t().store, t().app.writes, file('good.jsonl', good), { format: 'jsonl', skipInvalid: false });
      assert.deepEqual({ imported: ok.imported, invalid: ok.invalidCount }, { imported: 2, invalid: 0 });
      assert.equal((await customer('jl-1')).PostalCode, '1067');
      const fields = json(await t().inject('/customer/jl-1/customfields/71,72'));
      assert.deepEqual(
        fields.map((f: { Value: unknown }) => f.Value),
        ['Gold', 12],
      );
      assert.equal(json(await t().inject('/customer/jl-2/customfields/72'))[0].Value, 7);
      assert.deepEqual(idsOf(await t().inject(`/customer/?LastModifiedAfter=/Date(${since})/`)).sort(), ['jl-1', 'jl-2']);

      const csv = await importCustomers(t().store, t().app.writes, file('cf.csv', 'CustomerId,cf.71,cf.72\njl-1,Silver,\njl-6,Gold,-3\n'), {
        format: 'csv',
        skipInvalid: false,
      });
      assert.equal(csv.imported, 2);
      assert.deepEqual(
        json(await t().inject('/customer/jl-1/customfields/71,72')).map((f: { Value: unknown }) => f.Value),
        ['Silver', null],
        'an empty cell clears',
      );

      const bad = [
        JSON.stringify({ CustomerId: 'jl-3', 'cf.71': 'Bronze' }),
        JSON.stringify({ CustomerId: 'jl-4', 'cf.72': 1.5, Nickname: 'x' }),
        '{not json',
        '[1,2]',
        JSON.stringify({ CustomerId: 'jl-5', City: { a: 1 } }),
        JSON.stringify({ CustomerId: 'jl-7', 'cf.99999': 1 }),
      ].join('\n');
      const report = await importCustomers(t().store, t().app.writes, file('bad.jsonl', bad), { format: 'jsonl', skipInvalid: false });
      const byLine = new Map(report.invalid.map((i) => [i.line, i.problems.join('; ')]));
      assert.match(byLine.get(1)!, /^cf\.71: .*Bronze/);
      assert.match(byLine.get(2)!, /Nickname: unknown field 'Nickname'/);
      assert.match(byLine.get(2)!, /cf\.72: /);
      assert.match(byLine.get(3)!, /^not JSON/);
      assert.equal(byLine.get(4), 'not a JSON object');
      assert.equal(byLine.get(5), "City: 'City' must be a string");
      assert.match(byLine.get(6)!, /custom field 99999 is not defined/);
      assert.equal(report.imported, 0);
      assert.deepEqual(idsOf(await t().inject('/customer/?Identifiers=jl-3,jl-4,jl-5,jl-7')), []);
    });

    test('export writes every customer as JSON Lines in sync order, and the watermark', async () => {
      const since = await currentWatermark(t().store);
      await putCustomer(t(), 'ex-2', { City: 'Ulm' });
      await putCustomer(t(), 'ex-1', { City: 'Aue' });
      const all = await cli('customers', 'export');
      assert.equal(all.code, 0, all.err);
      const rows = all.out
        .trimEnd()
        .split('\n')
        .map((l) => JSON.parse(l));
      assert.equal(rows.length, Number(/exported (\d+) customers/.exec(all.err)?.[1]));
      for (const row of rows) assert.deepEqual(Object.keys(row), [...CUSTOMER_FIELDS]);
      assert.deepEqual(
        rows.slice(-2).map((c) => c.CustomerId),
        ['ex-2', 'ex-1'],
      );
      const recent = await cli('customers', 'export', '--modified-after', `/Date(${since})/`);
      assert.deepEqual(
        recent.out
          .trimEnd()
          .split('\n')
          .map((l) => JSON.parse(l).CustomerId),
        ['ex-2', 'ex-1'],
      );
      const wm = Number(/\((\d+)\)/.exec(recent.err)?.[1]);
      assert.ok(wm >= since);
      assert.equal((await cli('customers', 'export', '--modified-after', `/Date(${wm})/`)).out, '');
      assert.equal((await cli('customers', 'export', '--modified-after', 'soon')).code, 2);

      // What export writes, import takes back unchanged.
      const back = await cli('customers', 'import', file('roundtrip.jsonl', recent.out));
      assert.equal(back.code, 0, back.err);
      assert.deepEqual(await customer('ex-1'), rows.at(-1));
    });

    test('seed is deterministic and skips existing ids; export streams and stops quietly when the reader goes away', async () => {
      let r = await cli('seed', '--customers', '12000');
      assert.equal(r.code, 0, r.err);
      assert.match(r.out, /customers: 12000 added \(0 existed\)/);
      r = await cli('seed', '--customers', '12000');
      assert.match(r.out, /customers: 0 added \(12000 existed\)/);
      for (const n of [1, 5, 11_999]) {
        const want = toCustomer(demoCustomer(n, 0));
        assert.deepEqual(await customer(want.CustomerId), want);
      }
      const child = spawn(process.execPath, [BIN, 'customers', 'export'], { env: env(), stdio: ['ignore', 'pipe', 'pipe'] });
      const first: Buffer = await new Promise((resolve) => child.stdout.once('data', resolve));
      assert.ok(first.length > 0);
      child.stdout.destroy(); // like `| head -1`
      const code = await new Promise((resolve) => child.once('exit', resolve));
      assert.equal(code, 0);
    });
  },
  { LOG_LEVEL: 'silent' },
  { pgbouncer: true },
);
