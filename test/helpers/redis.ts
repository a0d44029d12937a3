import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';
import { Redis } from 'ioredis';
import { freePort } from './spawn-server.js';

const REDIS_PORT = 6379;

async function answers(port: number): Promise<boolean> {
  const probe = new Redis({
    port,
    host: '127.0.0.1',
    lazyConnect: true,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
  });
  probe.on('error', () => undefined);
  try {
    await probe.connect();
    return (await probe.ping()) === 'PONG';
  } catch {
    return false;
  } finally {
    probe.disconnect();
  }
}

/** The local Redis (127.0.0.1:6379), or a redis-server of the test's own when none answers there. */
export async function redisPort(): Promise<{ port: number; stop: () => void }> {
  if (await answers(REDIS_PORT)) return { port: REDIS_PORT, stop: () => undefined };
  const port = await freePort();
  const child: ChildProcess = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], {
    stdio: 'ignore',
  });
  let failed: Error | undefined;
  child.on('error', (err) => (failed = err));
  for (let i = 0; i < 50 && !failed && !(await answers(port)); i++) await sleep(100);
  assert.ok(
    await answers(port),
    `no Redis at 127.0.0.1:${REDIS_PORT} and redis-server could not be started here (${failed?.message ?? 'no answer'}); install redis-server`,
  );
  return { port, stop: () => child.kill('SIGTERM') };
}
