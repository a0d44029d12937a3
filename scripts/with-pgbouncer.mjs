// Runs a command (the test runner) with a PgBouncer of its own in front of the tests' PostgreSQL:
// the suites marked [pgbouncer] run through one in transaction mode (PGBOUNCER_TEST_URL). It starts
// the installed binary on a free port, with its configuration in a temporary folder, hands the
// command PGBOUNCER_TEST_URL, and stops it and removes the folder when the command ends — also when
// the command fails or is interrupted. With PGBOUNCER_TEST_URL set, or BACKENDS leaving `pgbouncer`
// out, the command runs as it is.
//
//   node scripts/with-pgbouncer.mjs node --test …
import { spawn, execFileSync } from 'node:child_process';
import { accessSync, chownSync, constants, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';

const [command, ...args] = process.argv.slice(2);
if (!command) {
  process.stderr.write('usage: node scripts/with-pgbouncer.mjs <command> [args…]\n');
  process.exit(2);
}

const backends = (process.env.BACKENDS ?? 'sqlite,postgres,pgbouncer').split(',').map((s) => s.trim());
const wanted = backends.includes('pgbouncer') && !process.env.PGBOUNCER_TEST_URL;
const pgbouncer = wanted ? await startPgBouncer() : undefined;

const child = spawn(command, args, {
  stdio: 'inherit',
  env: pgbouncer ? { ...process.env, PGBOUNCER_TEST_URL: pgbouncer.url } : process.env,
});
// Ctrl-C reaches the command too (one process group); this process waits for it to end, then cleans up.
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => child.kill(signal));
const code = await new Promise((resolve) => {
  child.on('error', (err) => {
    process.stderr.write(`with-pgbouncer: ${command}: ${err.message}\n`);
    resolve(127);
  });
  child.on('exit', (status, signal) => resolve(status ?? (signal ? 128 + (signalNumber(signal) ?? 1) : 1)));
});
await pgbouncer?.stop();
process.exit(code);

function signalNumber(signal) {
  return { SIGHUP: 1, SIGINT: 2, SIGKILL: 9, SIGTERM: 15 }[signal];
}

/** The pgbouncer binary: on PATH, or where Debian's package puts it (/usr/sbin, often not on a user's PATH). */
function findBinary() {
  const dirs = [...(process.env.PATH ?? '').split(delimiter).filter(Boolean), '/usr/sbin', '/usr/local/sbin', '/usr/local/bin', '/usr/bin'];
  for (const dir of dirs) {
    const path = join(dir, 'pgbouncer');
    try {
      accessSync(path, constants.X_OK);
      return path;
    } catch {
      // not here
    }
  }
  return undefined;
}

function freePort() {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

async function startPgBouncer() {
  const bin = findBinary();
  if (!bin) {
    process.stderr.write(
      'with-pgbouncer: PgBouncer is not installed, and the suites marked [pgbouncer] run through one: ' +
        'install the `pgbouncer` package (Debian/Ubuntu: apt-get install pgbouncer; `.ci/run` does), ' +
        'or point PGBOUNCER_TEST_URL at a running one, or leave them out with BACKENDS=sqlite,postgres.\n',
    );
    process.exit(1);
  }
  // The PostgreSQL the tests use (test/helpers/test-store.ts): PgBouncer goes in front of it, for every database.
  const server = new URL(process.env.PG_TEST_URL ?? 'postgres://postgres@127.0.0.1:5432/test');
  const user = decodeURIComponent(server.username || 'postgres');
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'ordergate-pgbouncer-'));
  // PostgreSQL trusts the tests' connections; PgBouncer's trust still wants the user in its auth_file.
  writeFileSync(join(dir, 'userlist.txt'), `"${user}" ""\n`);
  writeFileSync(
    join(dir, 'pgbouncer.ini'),
    `[databases]
; every database of the server: each test file creates databases of its own
* = host=${server.hostname} port=${server.port || 5432}

[pgbouncer]
listen_addr = 127.0.0.1
listen_port = ${port}
unix_socket_dir =
auth_type = trust
auth_file = ${join(dir, 'userlist.txt')}
pool_mode = transaction
; server connections per database and user: a test file's processes hold a few transactions open at once
default_pool_size = 20
max_client_conn = 2000
; give idle server connections back soon: other work shares the server's max_connections
server_idle_timeout = 10
log_connections = 0
log_disconnections = 0
ignore_startup_parameters = extra_float_digits
logfile = ${join(dir, 'pgbouncer.log')}
`,
  );
  // PgBouncer refuses to run as root: then it runs as the PostgreSQL package's user, who must read the folder.
  const asRoot = process.getuid?.() === 0;
  if (asRoot) {
    const id = (flag) => {
      try {
        return Number(execFileSync('id', [flag, 'postgres'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim());
      } catch {
        process.stderr.write(
          'with-pgbouncer: PgBouncer refuses to run as root, and there is no user postgres to run it as: run the tests as another user.\n',
        );
        rmSync(dir, { recursive: true, force: true });
        process.exit(1);
      }
    };
    const uid = id('-u');
    const gid = id('-g');
    for (const path of [dir, join(dir, 'userlist.txt'), join(dir, 'pgbouncer.ini')]) chownSync(path, uid, gid);
  }
  const proc = spawn(bin, [...(asRoot ? ['-u', 'postgres'] : []), join(dir, 'pgbouncer.ini')], { stdio: ['ignore', 'ignore', 'pipe'] });
  let output = '';
  proc.stderr.on('data', (d) => (output += d.toString()));
  let exited = false;
  const gone = new Promise((resolve) => proc.on('exit', () => resolve((exited = true))));
  const url = `postgres://${encodeURIComponent(user)}@127.0.0.1:${port}${server.pathname || '/postgres'}`;

  const stop = async () => {
    if (!exited) {
      proc.kill('SIGTERM'); // immediate shutdown: the tests are over
      await Promise.race([gone, sleep(5000)]);
      if (!exited) proc.kill('SIGKILL');
    }
    rmSync(dir, { recursive: true, force: true });
  };
  const log = () => {
    try {
      return readFileSync(join(dir, 'pgbouncer.log'), 'utf8');
    } catch {
      return '';
    }
  };

  for (let i = 0; i < 100 && !exited; i++) {
    const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2000 });
    try {
      await client.connect();
      await client.query('select 1');
      await client.end();
      process.stderr.write(`with-pgbouncer: PgBouncer ${bin} on 127.0.0.1:${port} (transaction mode, ${dir})\n`);
      return { url, stop };
    } catch {
      await client.end().catch(() => undefined);
      await sleep(200);
    }
  }
  const said = output + log();
  await stop();
  process.stderr.write(
    `with-pgbouncer: PgBouncer (${bin}) did not pass a query to PostgreSQL at ${server.host} (is PostgreSQL running?):\n${said}\n`,
  );
  process.exit(1);
}
