import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import pg from 'pg';
import { assertBuilt, freePort } from '../helpers/cli.js';
import { CliThread } from '../helpers/cli-in-thread.js';
import { BACKENDS, createTestDatabase, type TestDatabase } from '../helpers/test-store.js';

// Commands that read or change an existing store: none of them may make one in a database that holds none.
const READERS: readonly string[][] = [
  ['keys', 'list'],
  ['keys', 'create', '--name', 'n'],
  ['audit', 'list'],
  ['customers', 'export'],
  ['customfields', 'list'],
  ['orders', 'export'],
  ['webhooks', 'list'],
];

// The commands run in one thread of this process, one after another: what each does with the store it is given,
// without a node process each; closed once the file's tests are done.
const thread = new CliThread();
after(() => thread.close());

const HINT = 'create it with `ordergate migrate` (or start the service), or correct DATABASE_URL';

describe('an empty SQLite database', { skip: !BACKENDS.includes('sqlite') && 'BACKENDS has no sqlite' }, () => {
  let dir: string;
  before(() => {
    assertBuilt();
    dir = mkdtempSync(join(tmpdir(), 'ordergate-empty-'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  test('every command but serve, migrate, seed and restore refuses an empty file (exit 1) and leaves it empty', async () => {
    const file = join(dir, 'empty.sqlite');
    writeFileSync(file, '');
    for (const args of READERS) {
      const r = await thread.cli(args, { DATABASE_URL: `sqlite:${file}` });
      assert.equal(r.code, 1, `${args.join(' ')}: ${r.stderr}`);
      assert.equal(r.stderr, `ordergate: the SQLite database ${file} holds no ordergate store: ${HINT}\n`);
      assert.equal(statSync(file).size, 0, `${args.join(' ')} wrote into the file`);
      assert.equal(existsSync(`${file}-wal`), false, `${args.join(' ')} left a WAL file`);
    }
    const migrated = await thread.cli(['migrate'], { DATABASE_URL: `sqlite:${file}` });
    assert.equal(migrated.code, 0, migrated.stderr);
    const listed = await thread.cli(['keys', 'list'], { DATABASE_URL: `sqlite:${file}` });
    assert.equal(listed.code, 0, listed.stderr);
  });

  test('a file that is not a SQLite database is named, by readers and by migrate alike (exit 1)', async () => {
    const file = join(dir, 'notes.txt');
    writeFileSync(file, 'these are not the tables you are looking for\n'.repeat(40));
    for (const args of [['keys', 'list'], ['migrate']]) {
      const r = await thread.cli(args, { DATABASE_URL: `sqlite:${file}` });
      assert.equal(r.code, 1, `${args.join(' ')}: ${r.stderr}`);
      assert.match(
        r.stderr,
        new RegExp(`^ordergate: ${file.replace(/[.]/g, '\\.')} is not a SQLite database \\(.*\\): correct DATABASE_URL\\n$`),
        args.join(' '),
      );
    }
  });
});

const tablesOf = async (url: string): Promise<string[]> => {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    return (
      await c.query<{ t: string }>("select tablename as t from pg_tables where schemaname not in ('pg_catalog', 'information_schema')")
    ).rows.map((r) => r.t);
  } finally {
    await c.end();
  }
};

describe('an empty PostgreSQL database', { skip: !BACKENDS.includes('postgres') && 'BACKENDS has no postgres' }, () => {
  let database: TestDatabase;
  before(async () => {
    assertBuilt();
    database = await createTestDatabase('postgres');
  });
  after(() => database.drop());

  test('every command but serve, migrate, seed and restore refuses it (exit 1) and creates no table in it', async () => {
    const { pathname, hostname, port } = new URL(database.url);
    for (const args of READERS) {
      const r = await thread.cli(args, { DATABASE_URL: database.url });
      assert.equal(r.code, 1, `${args.join(' ')}: ${r.stderr}`);
      assert.equal(
        r.stderr,
        `ordergate: the PostgreSQL database "${pathname.slice(1)}" at ${hostname}:${port || 5432} holds no ordergate store: ${HINT}\n`,
      );
      assert.deepEqual(await tablesOf(database.url), [], `${args.join(' ')} created tables`);
    }
    const migrated = await thread.cli(['migrate'], { DATABASE_URL: database.url });
    assert.equal(migrated.code, 0, migrated.stderr);
    assert.equal((await thread.cli(['keys', 'list'], { DATABASE_URL: database.url })).code, 0);
  });

  test('a refused connection names the URL without its password and says what to check (exit 1)', async () => {
    const port = await freePort();
    const url = `postgres://ordergate:s3cret-pw@127.0.0.1:${port}/shop`;
    for (const args of [['keys', 'list'], ['migrate']]) {
      const r = await thread.cli(args, { DATABASE_URL: url });
      assert.equal(r.code, 1, `${args.join(' ')}: ${r.stderr}`);
      assert.match(
        r.stderr,
        new RegExp(
          `^ordergate: cannot connect to PostgreSQL at postgres://ordergate@127\\.0\\.0\\.1:${port}/shop \\(.*ECONNREFUSED.*\\): check that PostgreSQL runs and listens on that host and port\\n$`,
        ),
      );
      assert.doesNotMatch(r.stderr, /s3cret/);
    }
  });
});
