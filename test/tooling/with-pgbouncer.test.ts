import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { ROOT } from '../helpers/root.js';
import { BACKENDS_WITH_PGBOUNCER } from '../helpers/test-store.js';

const SCRIPT = join(ROOT, 'scripts/with-pgbouncer.mjs');

/** Runs `node scripts/with-pgbouncer.mjs node -e <code>` from the checkout, with env in place of the test's own PgBouncer settings. */
function wrapped(
  code: string,
  env: Record<string, string | undefined>,
): Promise<{ status: number | null; stdout: string; stderr: string }> {
  const base: Record<string, string | undefined> = { ...process.env, PGBOUNCER_TEST_URL: undefined, BACKENDS: undefined, ...env };
  const child = spawn(process.execPath, [SCRIPT, process.execPath, '--input-type=module', '-e', code], {
    cwd: ROOT,
    env: Object.fromEntries(Object.entries(base).filter((e): e is [string, string] => e[1] !== undefined)),
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  return new Promise((resolve) => child.on('close', (status) => resolve({ status, stdout, stderr })));
}

/** Whether something accepts a TCP connection on the loopback port. */
const listening = (port: number): Promise<boolean> =>
  new Promise((resolve) => {
    const s = connect(port, '127.0.0.1');
    s.once('connect', () => (s.destroy(), resolve(true)));
    s.once('error', () => resolve(false));
  });

// What the command run inside does: a query through the PgBouncer it was handed, then the exit code 3.
const QUERY_THEN_EXIT_3 = `
import pg from 'pg';
const c = new pg.Client({ connectionString: process.env.PGBOUNCER_TEST_URL });
await c.connect();
const { rows } = await c.query('select current_database() as db');
await c.end();
console.log(JSON.stringify({ url: process.env.PGBOUNCER_TEST_URL, db: rows[0].db }));
process.exit(3);
`;

describe('npm test starts the PgBouncer it needs (scripts/with-pgbouncer.mjs)', () => {
  test('the test command runs the test runner through it', () => {
    const scripts = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).scripts as Record<string, string>;
    assert.match(scripts.test!, /node scripts\/with-pgbouncer\.mjs node scripts\/run-tests\.mjs$/);
    assert.match(scripts['test:only']!, /^node scripts\/with-pgbouncer\.mjs node --import tsx --test /);
  });

  if (BACKENDS_WITH_PGBOUNCER.includes('pgbouncer')) {
    test('a PgBouncer of its own on a free port passes queries; it is stopped, its folder removed, and the exit code kept', async () => {
      const run = await wrapped(QUERY_THEN_EXIT_3, {});
      assert.equal(run.status, 3, run.stderr);
      const { url, db } = JSON.parse(run.stdout) as { url: string; db: string };
      const port = Number(new URL(url).port);
      assert.notEqual(port, 5432);
      assert.equal(db, new URL(process.env.PG_TEST_URL ?? 'postgres://postgres@127.0.0.1:5432/test').pathname.slice(1));
      const folder = /\((?:transaction mode), ([^)]+)\)/.exec(run.stderr)?.[1];
      assert.ok(folder, run.stderr);
      assert.equal(existsSync(folder), false);
      assert.equal(await listening(port), false);
    });
  }

  test('with PGBOUNCER_TEST_URL set, or BACKENDS leaving it out, it starts none', async () => {
    const given = await wrapped('console.log(process.env.PGBOUNCER_TEST_URL ?? "unset")', {
      PGBOUNCER_TEST_URL: 'postgres://postgres@127.0.0.1:1/test',
    });
    assert.equal(given.status, 0, given.stderr);
    assert.equal(given.stdout.trim(), 'postgres://postgres@127.0.0.1:1/test');
    assert.doesNotMatch(given.stderr, /with-pgbouncer/);
    const left = await wrapped('console.log(process.env.PGBOUNCER_TEST_URL ?? "unset")', { BACKENDS: 'sqlite,postgres' });
    assert.equal(left.stdout.trim(), 'unset');
    assert.doesNotMatch(left.stderr, /with-pgbouncer/);
  });
});
