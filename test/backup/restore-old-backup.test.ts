import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { promisify } from 'node:util';
import { migrateToLatest } from '../../src/store/migrate.js';
import { assertBuilt, BIN as CLI } from '../helpers/cli.js';
import { describeEachBackend, type TestApp } from '../helpers/test-app.js';
import { assertConvertedAndUnchanged, oldDataBody, plantOldConfirmation, rewindBefore004 } from '../orders/old-stored-form.js';
import { confirm, confirmation, createOrder, unique } from '../orders/order-fixtures.js';

const exec = promisify(execFile);

const cli = (app: TestApp, ...args: string[]) =>
  exec(process.execPath, [CLI, ...args], { env: { ...process.env, DATABASE_URL: app.config.databaseUrl, LOG_LEVEL: 'silent' } });

const applied = async (app: TestApp): Promise<string[]> =>
  (
    await app.store.db
      .selectFrom('schema_migrations' as never)
      .select('name' as never)
      .execute()
  ).map((r) => (r as { name: string }).name);

describeEachBackend('restoring a backup taken before the stored form changed', (t) => {
  test('`ordergate restore` migrates it; its confirmations then answer as before', async () => {
    assertBuilt();
    const dir = mkdtempSync(join(tmpdir(), 'ordergate-old-backup-'));
    try {
      // The store as the release before migration 004 left it.
      const old = await createOrder(t());
      await rewindBefore004(t());
      const planted = await plantOldConfirmation(t(), old, unique());
      const file = join(dir, 'old.backup');
      assert.match((await cli(t(), 'backup', file)).stdout, /backup written to/);

      // The store moves on after the backup, so that the restore shows.
      await migrateToLatest(t().store);
      const later = await createOrder(t());
      assert.equal((await confirm(t(), later, confirmation())).statusCode, 200);

      assert.match((await cli(t(), 'restore', file, '--yes')).stdout, /restored/);
      assert.ok((await applied(t())).includes('004-stored-names'), 'the restore applied the migration');
      assert.equal((await t().inject(`/orders/${later}`)).statusCode, 404, 'the state of the backup');

      const control = await createOrder(t());
      assert.equal((await confirm(t(), control, oldDataBody())).statusCode, 200);
      await assertConvertedAndUnchanged(t(), planted, control);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
