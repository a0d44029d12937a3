import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { BIN as CLI } from './root.js';

export { CLI };

/** A free TCP port on loopback. */
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

/**
 * Starts `ordergate serve` (the built dist/) as a real process and waits until it answers
 * /health/live over `scheme`. Env adds to the process environment.
 */
export async function startServer(env: Record<string, string>, options: { scheme?: 'http' | 'https'; ready?: (port: number) => Promise<boolean> } = {}): Promise<ServerProcess> {
  const port = env.PORT ? Number(env.PORT) : await freePort();
  const child = spawn(process.execPath, [CLI, 'serve'], {
    env: { ...process.env, LOG_LEVEL: 'warn', WORKERS: '1', RATE_LIMIT_PER_SECOND: '0', ...env, PORT: String(port), HOST: '127.0.0.1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
  const exited = new Promise<number | string>((resolve) => child.on('exit', (code, signal) => resolve(code ?? signal ?? -1)));
  let done = false;
  void exited.then(() => (done = true));
  const ready = options.ready ?? (async (p: number) => {
    if (options.scheme === 'https') return false;
    try {
      return (await fetch(`http://127.0.0.1:${p}/health/live`)).ok;
    } catch {
      return false;
    }
  });
  for (let i = 0; i < 200 && !done; i++) {
    if (await ready(port)) break;
    await sleep(100);
  }
  if (done) throw new Error(`server exited before it was ready (${await exited}): ${err}${out ? `\nstdout: ${out}` : ''}`);
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
