import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { assertBuilt } from '../helpers/cli.js';
import { CliThread } from '../helpers/cli-in-thread.js';
import { createTestDatabase, type TestDatabase, allBackends, leftOut } from '../helpers/test-store.js';

// Each run is the built CLI's main() (dist/bin/main.js, as bin/ordergate.js runs it) in one worker thread of
// this process: one suite, a few runs, both backends.
for (const backend of allBackends()) {
  describe(`customfields CLI [${backend}]`, { skip: leftOut(backend) }, () => {
    let database: TestDatabase;
    let thread: CliThread;
    before(async () => {
      database = await createTestDatabase(backend);
      thread = new CliThread();
    });
    after(async () => {
      await thread.close();
      await database.drop();
    });
    const cli = async (...args: string[]) => {
      const r = await thread.cli(args, { DATABASE_URL: database.url, LOG_LEVEL: 'silent' });
      return { code: r.code, out: r.stdout, err: r.stderr };
    };

    test('define creates and replaces, list shows, invalid input and conflicts are refused, delete removes', async () => {
      assertBuilt();
      assert.equal((await cli('migrate')).code, 0);
      let r = await cli(
        'customfields',
        'define',
        '5',
        '--label',
        'Tier',
        '--type',
        'select',
        '--allowed',
        'Gold,"Silver, plus"',
        '--sort=-2',
        '--read-only',
      );
      assert.equal(r.code, 0, r.err);
      assert.equal(r.out, 'created: 5 Select "Tier" sort -2 read-only allowed Gold,"Silver, plus"\n');
      r = await cli('customfields', 'define', '6', '--label', 'Visits', '--type', 'Number');
      assert.equal(r.out, 'created: 6 Number "Visits" sort 0\n');
      const usage = 'usage: ordergate customfields define <Number> --label L --type T [--read-only] [--allowed a,b] [--sort n]\n';
      r = await cli('customfields', 'define', '6', '--label', 'Visits', '--type', 'Number', '--allowed', 'a');
      assert.equal(r.code, 2);
      assert.equal(r.err, `ordergate: --allowed must be empty for a Number field. (Null)\n${usage}`);
      r = await cli('customfields', 'define', '7', '--label', 'Tags', '--type', 'MultiSelect');
      assert.equal(r.code, 2);
      assert.equal(r.err, `ordergate: --allowed must not be empty. (NotEmpty)\n${usage}`, 'errors name the CLI flag, not the API property');
      r = await cli('customfields', 'define', '6', '--label', 'Paint', '--type', 'Color');
      assert.equal(r.code, 2);
      assert.equal(
        r.err,
        `ordergate: --type takes one of Text, Number, Decimal, Boolean, Date, Select, MultiSelect; got 'Color'\n${usage}`,
      );
      r = await cli('customfields', 'define', '6');
      assert.equal(r.code, 2);
      assert.equal(r.err, `ordergate: give --label and --type\n${usage}`);
      r = await cli('customfields', 'define', '8', '--label', 'Rank', '--type', 'Number', '--sort', '-3');
      assert.equal(r.out, 'created: 8 Number "Rank" sort -3\n', 'a negative number is the value of the flag before it');
      assert.equal((await cli('customfields', 'delete', '8')).code, 0);
      assert.equal((await cli('customfields', 'define', 'six', '--label', 'x', '--type', 'Text')).code, 2);
      r = await cli('customfields', 'list');
      assert.equal(r.code, 0, r.err);
      assert.deepEqual(r.out.trim().split('\n'), [
        '5 Select "Tier" sort -2 read-only allowed Gold,"Silver, plus"',
        '6 Number "Visits" sort 0',
      ]);
      r = await cli('customfields', 'delete', '5');
      assert.equal(r.code, 0, r.err);
      assert.equal((await cli('customfields', 'delete', '5')).code, 1);
      assert.deepEqual((await cli('customfields', 'list')).out.trim().split('\n'), ['6 Number "Visits" sort 0']);
    });
  });
}
