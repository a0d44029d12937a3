import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { BIN as CLI } from './root.js';

export { CLI };

/** A TCP port that was free on loopback a moment ago (for other processes the tests start: a replica, Redis). */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

export interface ServerProcess {
  readonly child: ChildProcess;
  readonly port: number;
  readonly stderr: () => string;
  readonly stdout: () => string;
  /** Resolves with the exit code (or signal name). */
  readonly exited: Promise<number | string>;
  stop(signal?: NodeJS.Signals): Promise<number | string>;
}

/** A start that failed because the port was taken (EADDRINUSE): worth another try. */
class PortTaken extends Error {}

/**
 * Starts `ordergate serve` (the built dist/) as a real process and waits until it answers
 * /health/live over `scheme`. Env adds to the process environment. Without a PORT in env the server
 * binds port 0 and says which port it got (stderr), so that test files running at once never race
 * for a port. With one (a restart on the port of a killed server), a start that finds the port still
 * taken is tried again, a bounded number of times.
 */
export async function startServer(
  env: Record<string, string>,
  options: { scheme?: 'http' | 'https'; ready?: (port: number) => Promise<boolean> } = {},
): Promise<ServerProcess> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await startOnce(env, options);
    } catch (err) {
      if (!(err instanceof PortTaken) || attempt >= 20) throw err;
      await sleep(250);
    }
  }
}

const ANNOUNCED = /ordergate: listening on port (\d+)/;

async function startOnce(
  env: Record<string, string>,
  options: { scheme?: 'http' | 'https'; ready?: (port: number) => Promise<boolean> },
): Promise<ServerProcess> {
  const fixed = env.PORT ? Number(env.PORT) : undefined;
  const child = spawn(process.execPath, [CLI, 'serve'], {
    env: {
      ...process.env,
      LOG_LEVEL: 'warn',
      WORKERS: '1',
      RATE_LIMIT_PER_SECOND: '0',
      ...env,
      PORT: String(fixed ?? 0),
      HOST: '127.0.0.1',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
  const exited = new Promise<number | string>((resolve) => child.on('exit', (code, signal) => resolve(code ?? signal ?? -1)));
  let done = false;
  void exited.then(() => (done = true));
  const ready =
    options.ready ??
    (async (p: number) => {
      if (options.scheme === 'https') return false;
      try {
        // Bounded: a port can accept a connection and never answer (a process still holding it).
        return (await fetch(`http://127.0.0.1:${p}/health/live`, { signal: AbortSignal.timeout(2000) })).ok;
      } catch {
        return false;
      }
    });
  // The hang guard: 60 s to come up (a cold start of several workers on a loaded machine takes many).
  let port = fixed;
  for (let i = 0; i < 600 && !done; i++) {
    port ??= Number(ANNOUNCED.exec(err)?.[1]) || undefined;
    if (port !== undefined && (await ready(port))) break;
    await sleep(100);
  }
  if (done) {
    const code = await exited;
    if (err.includes('EADDRINUSE')) throw new PortTaken(`port ${fixed} taken: ${err}`);
    throw new Error(`server exited before it was ready (${code}): ${err}${out ? `\nstdout: ${out}` : ''}`);
  }
  if (port === undefined) {
    child.kill('SIGKILL');
    throw new Error(`server did not say its port: ${err}`);
  }
  return {
    child,
    port,
    stderr: () => err,
    stdout: () => out,
    exited,
    async stop(signal = 'SIGTERM') {
      if (!done) child.kill(signal);
      return exited;
    },
  };
}
