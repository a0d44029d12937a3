import assert from 'node:assert/strict';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { assertBuilt } from '../helpers/cli.js';
import { CliThread } from '../helpers/cli-in-thread.js';
import { BACKENDS, createTestDatabase, type TestDatabase } from '../helpers/test-store.js';
import { sqliteFileOf } from '../../src/store/store-presence.js';

for (const backend of BACKENDS) {
  describe(`backup and restore guard what exists [${backend}]`, () => {
    let database: TestDatabase;
    let env: Record<string, string>;
    // The commands run in one thread of this process: what they do with their arguments and the store, without a node process each.
    let thread: CliThread;
    before(async () => {
      assertBuilt();
      thread = new CliThread();
      database = await createTestDatabase(backend);
      env = { ...database.env };
      const migrated = await thread.cli(['migrate'], env);
      assert.equal(migrated.code, 0, migrated.stderr);
    });
    after(async () => {
      await thread.close();
      await database.drop();
    });

    test('backup replaces a file only with --force; restore into a store with data only with --yes', async () => {
      const file = `${sqliteFileOf(database.url) ?? join(tmpdir(), new URL(database.url).pathname.slice(1))}.backup`;
      writeFileSync(file, 'an earlier backup');
      try {
        const refused = await thread.cli(['backup', file], env);
        assert.equal(refused.code, 2, refused.stderr);
        assert.match(refused.stderr, /exists; add --force to replace it\nusage: ordergate backup <file> \[--force\]\n$/);
        assert.equal(readFileSync(file, 'utf8'), 'an earlier backup');
        const forced = await thread.cli(['backup', file, '--force'], env);
        assert.equal(forced.code, 0, forced.stderr);
        assert.notEqual(readFileSync(file, 'utf8'), 'an earlier backup');

        // restore: an empty store is restored into without asking; one that holds data asks for --yes.
        const intoEmpty = await thread.cli(['restore', file], env);
        assert.equal(intoEmpty.code, 0, intoEmpty.stderr);
        const created = await thread.cli(['keys', 'create', '--name', 'kept'], env);
        assert.equal(created.code, 0, created.stderr);
        const asked = await thread.cli(['restore', file], env);
        assert.equal(asked.code, 2, asked.stderr);
        assert.match(asked.stderr, /the store holds data.*add --yes to restore\nusage: ordergate restore <file> \[--yes\]\n$/);
        assert.match((await thread.cli(['keys', 'list'], env)).stdout, / kept /);
        const restored = await thread.cli(['restore', file, '--yes'], env);
        assert.equal(restored.code, 0, restored.stderr);
        assert.doesNotMatch((await thread.cli(['keys', 'list'], env)).stdout, / kept /);
      } finally {
        for (const f of [file, `${file}.partial`]) rmSync(f, { force: true });
      }
    });
  });
}
