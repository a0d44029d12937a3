import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { createServer } from 'node:net';
import { join, relative } from 'node:path';
import { BIN, ROOT } from './root.js';

export { BIN, ROOT };

function* sources(dir: string): Generator<string> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* sources(path);
    else if (entry.name.endsWith('.ts')) yield path;
  }
}

/**
 * Spawned processes run the built CLI (dist/bin/, bundled from dist/; `npm test` builds first, run
 * `npm run build` before running one file by hand). Fails when there is no build; warns when a
 * source is newer than its output, since the spawned process then runs older code than the tests
 * were written against.
 */
export function assertBuilt(): void {
  if (!existsSync(join(ROOT, 'dist/bin/main.js'))) throw new Error('dist/bin/ is missing: run `npm run build` first');
  for (const src of sources(join(ROOT, 'src'))) {
    const out = join(ROOT, 'dist', relative(join(ROOT, 'src'), src)).replace(/\.ts$/, '.js');
    if (!existsSync(out) || statSync(out).mtimeMs < statSync(src).mtimeMs) {
      console.warn(`warning: ${relative(ROOT, out)} is missing or older than its source; spawned processes run the last build`);
      return;
    }
  }
}

/** A clean environment for a spawned CLI: nothing of the test runner's configuration leaks in. */
export function cliEnv(env: Record<string, string>): Record<string, string> {
  return { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: process.env.HOME ?? '/tmp', LOG_LEVEL: 'warn', WORKERS: '1', ...env };
}

export interface CliResult {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs `node bin/ordergate.js <args>` to completion. */
export function runCli(args: string[], env: Record<string, string>, timeoutMs = 30_000): Promise<CliResult> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], { cwd: ROOT, env: cliEnv(env), stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`ordergate ${args.join(' ')} did not finish in ${timeoutMs} ms; stderr: ${stderr}`));
    }, timeoutMs);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolvePromise({ code, stdout, stderr });
    });
  });
}

/** A TCP port that was free a moment ago (for a test that must name the port itself). */
export function freePort(): Promise<number> {
  return new Promise((resolvePromise, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolvePromise(port));
    });
  });
}

/** A started `ordergate serve` process with its output collected as it comes. */
export interface ServerProcess {
  readonly child: ChildProcess;
  readonly port: number;
  readonly url: string;
  stdout(): string;
  stderr(): string;
  /** Resolves with the exit code (or the signal name) once the process has ended. */
  readonly exited: Promise<number | string | null>;
  /** Resolves when `text` has appeared on stderr, rejects after the timeout. */
  waitForStderr(pattern: RegExp, timeoutMs?: number): Promise<RegExpExecArray>;
  /** Polls `/health/ready` until it answers 200. */
  waitUntilReady(timeoutMs?: number): Promise<void>;
  /** SIGKILL if still running (for `after` hooks). */
  kill(): Promise<void>;
}

async function poll<T>(what: string, timeoutMs: number, fn: () => Promise<T | undefined> | T | undefined): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const v = await fn();
    if (v !== undefined) return v;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/**
 * Spawns `node bin/ordergate.js serve` with the given environment. Without a PORT in it, the server
 * binds port 0 and this waits until it says which port it got (stderr), so that test files running at
 * once never race for a port; a server that ends before saying it is returned as it is (port 0), for
 * the tests of a failing start.
 */
export async function startServer(env: Record<string, string>): Promise<ServerProcess> {
  const child = spawn(process.execPath, [BIN, 'serve'], {
    cwd: ROOT,
    env: cliEnv({ HOST: '127.0.0.1', PORT: '0', ...env }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout!.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr!.on('data', (c: Buffer) => (err += c.toString()));
  const exited = new Promise<number | string | null>((r) => child.on('exit', (code, signal) => r(code ?? signal)));
  let ended = false;
  void exited.then(() => (ended = true));
  const port = env.PORT
    ? Number(env.PORT)
    : await poll(`the port on stderr (got: ${err.slice(-500)})`, 60_000, () => {
        const said = /ordergate: listening on port (\d+)/.exec(err);
        if (said) return Number(said[1]);
        return ended ? 0 : undefined;
      });
  const url = `http://127.0.0.1:${port}`;
  return {
    child,
    port,
    url,
    stdout: () => out,
    stderr: () => err,
    exited,
    waitForStderr: (pattern, timeoutMs = 15_000) =>
      poll(`${pattern} on stderr (got: ${err.slice(-500)})`, timeoutMs, () => {
        if (ended && !pattern.test(err)) throw new Error(`server exited; stderr: ${err}`);
        return pattern.exec(err) ?? undefined;
      }),
    waitUntilReady: (timeoutMs = 15_000) =>
      poll(`${url}/health/ready (stderr: ${err.slice(-500)})`, timeoutMs, async () => {
        if (ended) throw new Error(`server exited; stderr: ${err}`);
        try {
          return (await fetch(`${url}/health/ready`)).status === 200 ? true : undefined;
        } catch {
          return undefined;
        }
      }).then(() => undefined),
    async kill() {
      if (!ended) {
        child.kill('SIGKILL');
        await exited;
      }
    },
  };
}
