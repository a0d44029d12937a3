import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { assertBuilt, cliEnv, freePort, ROOT } from '../helpers/cli.js';
import { BACKENDS } from '../helpers/test-store.js';

/** The pids of every living descendant of `pid`, from /proc (Linux). */
function descendants(pid: number): number[] {
  const parentOf = new Map<number, number>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      // The command name (2nd field) is in parentheses and may hold spaces: the ppid follows the last ')'.
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      parentOf.set(Number(entry), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
    } catch {
      // The process ended meanwhile.
    }
  }
  const found: number[] = [];
  const walk = (parent: number): void => {
    for (const [child, ppid] of parentOf) {
      if (ppid !== parent) continue;
      found.push(child);
      walk(child);
    }
  };
  walk(pid);
  return found;
}

const alive = (pid: number): boolean => existsSync(`/proc/${pid}`) && !/^\S+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));

const accepts = (port: number): Promise<boolean> =>
  new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(false));
  });

describe(
  'npm start',
  { skip: (!BACKENDS.includes('sqlite') && 'BACKENDS has no sqlite') || (process.platform !== 'linux' && 'reads /proc') },
  () => {
    let dir: string;
    before(() => {
      assertBuilt();
      dir = mkdtempSync(join(tmpdir(), 'ordergate-npm-start-'));
    });
    after(() => rmSync(dir, { recursive: true, force: true }));

    test('SIGTERM to npm stops the server and its workers, and frees the port', async () => {
      const port = await freePort();
      const env = cliEnv({ DATABASE_URL: `sqlite:${join(dir, 'a.sqlite')}`, HOST: '127.0.0.1', PORT: String(port), WORKERS: '2' });
      const npm = spawn('npm', ['start'], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
      let output = '';
      npm.stdout.on('data', (c: Buffer) => (output += c.toString()));
      npm.stderr.on('data', (c: Buffer) => (output += c.toString()));
      const exited = new Promise((r) => npm.on('exit', r));
      let server: number[] = [];
      try {
        // `npm start` builds first: a generous guard against a hang, not a speed limit.
        const until = Date.now() + 300_000;
        for (;;) {
          const ready = await fetch(`http://127.0.0.1:${port}/health/ready`).then(
            (r) => r.status === 200,
            () => false,
          );
          if (ready) break;
          assert.ok(npm.exitCode === null, `npm start ended: ${output}`);
          assert.ok(Date.now() < until, `not ready: ${output}`);
          await new Promise((r) => setTimeout(r, 250));
        }
        server = descendants(npm.pid!);
        assert.ok(server.length >= 3, `the server and its two workers run under npm: ${server.join(' ')}`);
        npm.kill('SIGTERM');
        await exited;
        // The server's own graceful shutdown (at most 20 s) runs on after npm has gone.
        const stopped = Date.now() + 30_000;
        while (server.some(alive) && Date.now() < stopped) await new Promise((r) => setTimeout(r, 100));
        assert.deepEqual(server.filter(alive), [], 'no server process remains');
        assert.equal(await accepts(port), false, `port ${port} is free`);
      } finally {
        for (const pid of [npm.pid!, ...server]) if (alive(pid)) process.kill(pid, 'SIGKILL');
      }
    });
  },
);
