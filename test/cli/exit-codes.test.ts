import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { assertBuilt, runCli } from '../helpers/cli.js';
import { BACKENDS, createTestDatabase, type TestDatabase } from '../helpers/test-store.js';

for (const backend of BACKENDS) {
  describe(`CLI exit codes [${backend}]`, () => {
    let database: TestDatabase;
    let env: Record<string, string>;
    before(async () => {
      assertBuilt();
      database = await createTestDatabase(backend);
      env = { ...database.env };
      const migrated = await runCli(['migrate'], env);
      assert.equal(migrated.code, 0, migrated.stderr);
    });
    after(() => database.drop());

    test('an unknown resource is exit 1 with its message, without the usage line', async () => {
      const cases = [
        [['keys', 'revoke', 'nope'], /^ordergate: no active key with id nope/],
        [['customers', 'export-data', 'no-such-customer'], /^ordergate: .*no-such-customer/],
        [['customfields', 'delete', '42'], /^ordergate: .*42/],
        [['webhooks', 'remove', 'wh_nope'], /^ordergate: .*wh_nope/],
      ] as const;
      const results = await Promise.all(cases.map(([args]) => runCli([...args], env)));
      for (const [i, [args, message]] of cases.entries()) {
        const r = results[i]!;
        assert.equal(r.code, 1, `${args.join(' ')}: ${r.stderr}`);
        assert.match(r.stderr, message, args.join(' '));
        assert.doesNotMatch(r.stderr, /usage:/, args.join(' '));
      }
    });

    test('a usage mistake is exit 2 with the usage line, also when the service finds it', async () => {
      const r = await runCli(['customfields', 'define', '7', '--label', 'Colours', '--type', 'MultiSelect'], env);
      assert.equal(r.code, 2, r.stderr);
      assert.match(r.stderr, /--allowed/);
      assert.match(r.stderr, /\nusage: ordergate customfields define <Number> /);
      const listed = await runCli(['customfields', 'list'], env);
      assert.equal(listed.stdout, '');
    });

    test('`ordergate keys` alone names its subcommands (exit 2)', async () => {
      const r = await runCli(['keys'], env);
      assert.equal(r.code, 2, r.stderr);
      assert.match(r.stderr, /^ordergate keys takes a subcommand: create, list, revoke\n/);
      assert.match(r.stderr, /ordergate keys revoke <id>/);
      assert.doesNotMatch(r.stderr, /ordergate serve/);
    });
  });
}
