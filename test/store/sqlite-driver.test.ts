import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { test } from 'node:test';
import { BetterSqlite3, DRIVER_PACKAGE } from '../../src/store/sqlite/sqlite-driver.js';

const major = Number(process.versions.node.split('.')[0]);

test(`Node.js ${major} runs SQLite on better-sqlite3 ${major >= 22 ? 13 : 12}`, () => {
  const { version } = createRequire(import.meta.url)(`${DRIVER_PACKAGE}/package.json`) as { version: string };
  assert.equal(Number(version.split('.')[0]), major >= 22 ? 13 : 12, `${DRIVER_PACKAGE}@${version}`);
  const db = new BetterSqlite3(':memory:');
  try {
    assert.deepEqual(db.prepare('select 40 + ? as n').get(2), { n: 42 });
  } finally {
    db.close();
  }
});
