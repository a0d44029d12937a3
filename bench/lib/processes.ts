import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { BENCH_KEY, ROOT } from './settings.js';
import type { RequestShape } from './load.js';

export interface ServerProcess {
  readonly url: string;
  readonly pid: number;
  /** The serving processes: the process itself, or its cluster workers. */
  servingPids: () => number[];
  /** Resident set size of each serving process, in MB. */
  rssMb(): number[];
  stop(): Promise<void>;
}

/** A port that was free a moment ago (the server binds it right after). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

export function rssOf(pid: number): number {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
    return kb / 1024;
  } catch {
    return 0;
  }
}

function childrenOf(pid: number): number[] {
  const out: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(join('/proc', entry, 'stat'), 'utf8');
      // Field 4 (ppid) follows the parenthesised command name, which may itself contain spaces.
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid === pid) out.push(Number(entry));
    } catch {
      // the process ended while we looked
    }
  }
  return out;
}

async function waitReady(url: string, child: ChildProcess, stderr: () => string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}: ${stderr()}`);
    try {
      const res = await fetch(url);
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`server at ${url} not ready after ${timeoutMs} ms: ${stderr()}`);
}

function manage(child: ChildProcess, url: string, workers: number, stderr: () => string): ServerProcess {
  const servingPids = (): number[] => (workers > 1 ? childrenOf(child.pid!) : [child.pid!]);
  return {
    url,
    pid: child.pid!,
    servingPids,
    rssMb: () => servingPids().map(rssOf),
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise<void>((r) => child.once('exit', () => r()));
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
      await exited;
      clearTimeout(timer);
      if (child.exitCode !== 0 && child.signalCode === null) process.stderr.write(`server exited with ${child.exitCode}: ${stderr()}\n`);
    },
  };
}

// Servers still running when the bench process ends (an exception, a failed assertion) would stay
// behind holding ports and databases; they are killed on the way out.
const running = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of running) child.kill('SIGKILL');
});

function spawnNode(args: string[], env: Record<string, string>): { child: ChildProcess; stderr: () => string } {
  const child = spawn(process.execPath, args, { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'ignore', 'pipe'] });
  running.add(child);
  child.once('exit', () => running.delete(child));
  let tail = '';
  child.stderr!.on('data', (chunk: Buffer) => {
    tail = (tail + chunk.toString()).slice(-4000);
  });
  return { child, stderr: () => tail };
}

export interface ServeOptions {
  readonly databaseUrl: string;
  readonly workers?: number;
  /** Extra node flags, such as --cpu-prof. */
  readonly nodeArgs?: readonly string[];
  readonly env?: Record<string, string>;
  /** Checkout whose build to run (default: this one), to compare a change against a baseline. */
  readonly root?: string;
}

/** `node bin/ordergate.js serve` as its own process, with logging and the rate limit out of the way. */
export async function startService(opts: ServeOptions): Promise<ServerProcess> {
  const port = await freePort();
  const workers = opts.workers ?? 1;
  const { child, stderr } = spawnNode([...(opts.nodeArgs ?? []), join(opts.root ?? ROOT, 'bin', 'ordergate.js'), 'serve'], {
    DATABASE_URL: opts.databaseUrl,
    HOST: '127.0.0.1',
    PORT: String(port),
    WORKERS: String(workers),
    LOG_LEVEL: 'warn',
    RATE_LIMIT_PER_SECOND: '0',
    ORDERGATE_BOOTSTRAP_KEY: BENCH_KEY,
    NODE_ENV: 'production',
    ...opts.env,
  });
  const url = `http://127.0.0.1:${port}`;
  const server = manage(child, url, workers, stderr);
  try {
    await waitReady(`${url}/health/ready`, child, stderr, 60_000);
    // With several workers each must be up before the load starts.
    while (workers > 1 && server.servingPids().length < workers) await new Promise((r) => setTimeout(r, 100));
  } catch (err) {
    await server.stop();
    throw err;
  }
  return server;
}

/** A server script of bench/ (TypeScript, listening on PORT), ready once `readyPath` answers. */
export async function startBenchServer(script: string, readyPath: string, env: Record<string, string> = {}): Promise<ServerProcess> {
  const port = await freePort();
  const { child, stderr } = spawnNode(['--import', 'tsx', join(ROOT, 'bench', script)], { ...env, PORT: String(port) });
  const url = `http://127.0.0.1:${port}`;
  const server = manage(child, url, 1, stderr);
  await waitReady(`${url}${readyPath}`, child, stderr, 30_000);
  return server;
}

/** What the yardstick answers: its one fixed customer, at every path. */
export const YARDSTICK_REQUESTS: readonly RequestShape[] = [{ path: '/customer/' }];

/** The yardstick: a bare node:http server answering one fixed customer (bench/yardstick-server.ts). */
export const startYardstick = (): Promise<ServerProcess> => startBenchServer('yardstick-server.ts', YARDSTICK_REQUESTS[0]!.path);

/** The limit server on a database (bench/limit-server.ts): the reads with nothing but node:http and the driver. */
export const startLimitServer = (databaseUrl: string): Promise<ServerProcess> =>
  startBenchServer('limit-server.ts', '/health/ready', { DATABASE_URL: databaseUrl });
