import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import pg from 'pg';
import { assertBuilt, startServer } from '../helpers/cli.js';
import { CliThread } from '../helpers/cli-in-thread.js';
import {
  BACKENDS,
  BACKENDS_WITH_PGBOUNCER,
  PG_TEST_URL,
  PGBOUNCER_TEST_URL,
  requirePgBouncer,
  withDatabase,
} from '../helpers/test-store.js';

// The commands run in one thread of this process, one after another: what each does with the store it is given,
// without a node process each; closed once the file's tests are done. A served store (startServer) is a process.
const thread = new CliThread();
after(() => thread.close());

// Commands that read or change an existing store, and must not make one up from a mistyped URL.
const READERS: readonly string[][] = [
  ['keys', 'list'],
  ['keys', 'create', '--name', 'n'],
  ['customers', 'export'],
  ['customfields', 'list'],
  ['backup', join(tmpdir(), 'ordergate-unused.backup')],
];

describe('a DATABASE_URL naming no SQLite file', { skip: !BACKENDS.includes('sqlite') && 'BACKENDS has no sqlite' }, () => {
  let dir: string;
  before(() => {
    assertBuilt();
    dir = mkdtempSync(join(tmpdir(), 'ordergate-missing-'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  test('every command but serve, migrate, seed and restore refuses it (exit 1) and creates nothing', async () => {
    const file = join(dir, 'typo-dir', 'x.sqlite');
    for (const args of READERS) {
      const r = await thread.cli(args, { DATABASE_URL: `sqlite:${file}` });
      assert.equal(r.code, 1, `${args.join(' ')}: ${r.stderr}`);
      assert.equal(
        r.stderr,
        `ordergate: no SQLite database at ${file}: create it with \`ordergate migrate\` (or start the service), or correct DATABASE_URL\n`,
      );
      assert.equal(existsSync(join(dir, 'typo-dir')), false, `${args.join(' ')} created the directory`);
    }
    const csv = join(dir, 'c.csv');
    writeFileSync(csv, 'CustomerId,FirstName\nc-1,Ann\n');
    const imported = await thread.cli(['customers', 'import', csv], { DATABASE_URL: `sqlite:${file}` });
    assert.equal(imported.code, 1, imported.stderr);
    assert.match(imported.stderr, /no SQLite database at/);
  });

  test('a missing input file reads the same in every command: "no such file", exit 2', async () => {
    const url = `sqlite:${join(dir, 'files', 'f.sqlite')}`;
    assert.equal((await thread.cli(['migrate'], { DATABASE_URL: url })).code, 0);
    for (const [args, usage] of [
      [['customers', 'import', join(dir, 'missing.csv')], 'customers import <file.csv|file.jsonl> [--skip-invalid]'],
      [['restore', join(dir, 'missing.backup')], 'restore <file> [--yes]'],
    ] as const) {
      const r = await thread.cli([...args], { DATABASE_URL: url });
      assert.equal(r.code, 2, r.stderr);
      assert.equal(r.stderr, `ordergate: no such file: ${args.at(-1)}\nusage: ordergate ${usage}\n`);
    }
  });

  test('migrate and seed create it', async () => {
    const migrated = await thread.cli(['migrate'], { DATABASE_URL: `sqlite:${join(dir, 'new', 'a.sqlite')}` });
    assert.equal(migrated.code, 0, migrated.stderr);
    assert.equal((await thread.cli(['keys', 'list'], { DATABASE_URL: `sqlite:${join(dir, 'new', 'a.sqlite')}` })).code, 0);
    const seeded = await thread.cli(['seed', '--customers', '3'], { DATABASE_URL: `sqlite:${join(dir, 'new2', 'b.sqlite')}` });
    assert.equal(seeded.code, 0, seeded.stderr);
    assert.ok(existsSync(join(dir, 'new2', 'b.sqlite')));
  });
});

const admin = async <T>(fn: (c: pg.Client) => Promise<T>): Promise<T> => {
  const c = new pg.Client({ connectionString: PG_TEST_URL });
  await c.connect();
  try {
    return await fn(c);
  } finally {
    await c.end();
  }
};
const exists = (name: string): Promise<boolean> =>
  admin(async (c) => (await c.query('select 1 from pg_database where datname = $1', [name])).rowCount === 1);

describe('a DATABASE_URL naming no PostgreSQL database', { skip: !BACKENDS.includes('postgres') && 'BACKENDS has no postgres' }, () => {
  const suffix = `${process.pid}_${randomBytes(4).toString('hex')}`;
  const role = `og_nocreate_${suffix}`;
  const names = [`og_missing_${suffix}`, `og_served_${suffix}`, `og_refused_${suffix}`];
  const urlOf = (name: string, user?: string): string => {
    const u = new URL(PG_TEST_URL);
    u.pathname = `/${name}`;
    if (user) u.username = user;
    return u.toString();
  };
  before(async () => {
    assertBuilt();
    await admin((c) => c.query(`create role ${role} login nocreatedb`));
  });
  after(async () => {
    await admin(async (c) => {
      for (const name of names) await c.query(`drop database if exists ${name} with (force)`);
      await c.query(`drop role if exists ${role}`);
    });
  });

  test('reading commands refuse it (exit 1) and create nothing; migrate creates it, then they work', async () => {
    const url = urlOf(names[0]!);
    const { hostname, port } = new URL(PG_TEST_URL);
    for (const args of READERS) {
      const r = await thread.cli(args, { DATABASE_URL: url });
      assert.equal(r.code, 1, `${args.join(' ')}: ${r.stderr}`);
      assert.equal(
        r.stderr,
        `ordergate: no PostgreSQL database "${names[0]}" at ${hostname}:${port || 5432}: create it with \`ordergate migrate\` (or start the service), or correct DATABASE_URL\n`,
      );
    }
    assert.equal(await exists(names[0]!), false);
    const migrated = await thread.cli(['migrate'], { DATABASE_URL: url });
    assert.equal(migrated.code, 0, migrated.stderr);
    assert.match(migrated.stderr, new RegExp(`created the PostgreSQL database "${names[0]}"`));
    assert.equal(await exists(names[0]!), true);
    const listed = await thread.cli(['keys', 'list'], { DATABASE_URL: url });
    assert.equal(listed.code, 0, listed.stderr);
  });

  test('serve (npm start) creates it and serves', async (t) => {
    const server = await startServer({ DATABASE_URL: urlOf(names[1]!) });
    t.after(() => server.kill());
    await server.waitUntilReady(30_000);
    assert.equal(await exists(names[1]!), true);
  });

  test('a role that may not create databases gets a one-line answer saying how to create it (exit 1)', async () => {
    const r = await thread.cli(['migrate'], { DATABASE_URL: urlOf(names[2]!, role) });
    assert.equal(r.code, 1, r.stderr);
    assert.match(
      r.stderr,
      new RegExp(
        `^ordergate: no PostgreSQL database "${names[2]}" at .*, and it could not be created \\(the role "${role}" may not create databases\\): create it with \`createdb -h .* ${names[2]}\` as a role that may\\n$`,
      ),
    );
    assert.equal(await exists(names[2]!), false);
  });
});

describe(
  'a DATABASE_URL through PgBouncer naming no database',
  { skip: !BACKENDS_WITH_PGBOUNCER.includes('pgbouncer') && 'BACKENDS has no pgbouncer' },
  () => {
    const suffix = `${process.pid}_${randomBytes(4).toString('hex')}`;
    const names = [`og_pooled_missing_${suffix}`, `og_pooled_served_${suffix}`];

    before(async () => {
      assertBuilt();
      await requirePgBouncer();
    });
    after(async () => {
      await admin(async (c) => {
        for (const name of names) await c.query(`drop database if exists ${name} with (force)`);
      });
    });

    test('reading commands say it does not exist, as PgBouncer reports it (a protocol violation, not 3D000)', async () => {
      const { hostname, port } = new URL(PGBOUNCER_TEST_URL);
      const r = await thread.cli(['keys', 'list'], { DATABASE_URL: withDatabase(PGBOUNCER_TEST_URL, names[0]!) });
      assert.equal(r.code, 1, r.stderr);
      assert.equal(
        r.stderr,
        `ordergate: no PostgreSQL database "${names[0]}" at ${hostname}:${port}: create it with \`ordergate migrate\` (or start the service), or correct DATABASE_URL\n`,
      );
      assert.equal(await exists(names[0]!), false);
    });

    test('serve with DATABASE_DIRECT_URL creates it on the direct connection, then migrates and serves through PgBouncer', async (t) => {
      // Asked through PgBouncer first, the database would stay refused there for server_login_retry (15 s) after its creation.
      const started = Date.now();
      const server = await startServer({
        DATABASE_URL: withDatabase(PGBOUNCER_TEST_URL, names[1]!),
        DATABASE_DIRECT_URL: withDatabase(PG_TEST_URL, names[1]!),
      });
      t.after(() => server.kill());
      await server.waitUntilReady(30_000);
      assert.equal(await exists(names[1]!), true);
      assert.ok(Date.now() - started < 14_000, `ready after ${Date.now() - started} ms`);
    });
  },
);
