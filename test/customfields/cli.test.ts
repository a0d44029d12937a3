import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { BACKENDS, createTestDatabase, type TestDatabase } from '../helpers/test-store.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const ENTRY = "const { main } = await import('./src/cli/main.ts'); process.exitCode = await main(process.argv.slice(1));";

// Each run starts a process (the real CLI entry, from source): one suite, a few runs, both backends.
for (const backend of BACKENDS) {
  describe(`customfields CLI [${backend}]`, () => {
    let database: TestDatabase;
    before(async () => {
      database = await createTestDatabase(backend);
    });
    after(async () => {
      await database.drop();
    });
    const cli = (...args: string[]) => {
      const r = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', ENTRY, ...args], {
        cwd: ROOT,
        env: { ...process.env, DATABASE_URL: database.url, LOG_LEVEL: 'silent' },
        encoding: 'utf8',
        timeout: 60_000,
      });
      return { code: r.status, out: r.stdout, err: r.stderr };
    };

    test('define creates and replaces, list shows, invalid input and conflicts are refused, delete removes', () => {
      assert.equal(cli('migrate').code, 0);
      let r = cli('customfields', 'define', '5', '--label', 'Tier', '--type', 'select', '--allowed', 'Gold,"Silver, plus"', '--sort=-2', '--read-only');
      assert.equal(r.code, 0, r.err);
      assert.equal(r.out, 'created: 5 Select "Tier" sort -2 read-only allowed Gold,"Silver, plus"\n');
      r = cli('customfields', 'define', '6', '--label', 'Visits', '--type', 'Number');
      assert.equal(r.out, 'created: 6 Number "Visits" sort 0\n');
      r = cli('customfields', 'define', '6', '--label', 'Visits', '--type', 'Number', '--allowed', 'a');
      assert.equal(r.code, 1);
      assert.equal(r.err, 'ordergate: --allowed must be empty for a Number field. (Null)\n');
      r = cli('customfields', 'define', '7', '--label', 'Tags', '--type', 'MultiSelect');
      assert.equal(r.code, 1);
      assert.equal(r.err, 'ordergate: --allowed must not be empty. (NotEmpty)\n', 'errors name the CLI flag, not the API property');
      const usage = 'usage: ordergate customfields define <Number> --label L --type T [--read-only] [--allowed a,b] [--sort n]\n';
      r = cli('customfields', 'define', '6', '--label', 'Paint', '--type', 'Color');
      assert.equal(r.code, 2);
      assert.equal(r.err, `ordergate: --type takes one of Text, Number, Decimal, Boolean, Date, Select, MultiSelect; got 'Color'\n${usage}`);
      r = cli('customfields', 'define', '6');
      assert.equal(r.code, 2);
      assert.equal(r.err, `ordergate: give --label and --type\n${usage}`);
      r = cli('customfields', 'define', '8', '--label', 'Rank', '--type', 'Number', '--sort', '-3');
      assert.equal(r.out, 'created: 8 Number "Rank" sort -3\n', 'a negative number is the value of the flag before it');
      assert.equal(cli('customfields', 'delete', '8').code, 0);
      assert.equal(cli('customfields', 'define', 'six', '--label', 'x', '--type', 'Text').code, 2);
      r = cli('customfields', 'list');
      assert.equal(r.code, 0, r.err);
      assert.deepEqual(r.out.trim().split('\n'), ['5 Select "Tier" sort -2 read-only allowed Gold,"Silver, plus"', '6 Number "Visits" sort 0']);
      r = cli('customfields', 'delete', '5');
      assert.equal(r.code, 0, r.err);
      assert.equal(cli('customfields', 'delete', '5').code, 1);
      assert.deepEqual(cli('customfields', 'list').out.trim().split('\n'), ['6 Number "Visits" sort 0']);
    });
  });
}
