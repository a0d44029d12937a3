import cluster from 'node:cluster';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { buildApp } from './app.js';
import { ensureBootstrapKey } from './keys/index.js';
import { WORKER_ENV } from './ops/cluster-channel.js';
import { serveClusterLimits } from './ops/cluster-limits.js';
import { serveClusterMetrics } from './ops/cluster-metrics.js';
import { sessionDatabaseUrl, type Config } from './config.js';
import { migrateToLatest } from './store/migrate.js';
import { openStore } from './store/open-store.js';
import { PREPARED_STATEMENTS_OFF, warnPreparedStatementsOff } from './store/prepared-statements-off.js';
import { createStoreIfMissing } from './store/store-presence.js';
import type { Store } from './store/store.js';
import { collectWhenIdle, releaseYoungGeneration } from './heap-settings.js';
import { writeRegistry } from './write-registry.js';
import { openWriteDoor } from './writes/write-door.js';

const openConfiguredStore = (
  config: Config,
  withReplica = false,
  onPreparedStatementsOff: (err: Error) => void = warnPreparedStatementsOff,
): Store =>
  openStore(config.databaseUrl, {
    poolSize: config.databasePoolSize,
    preparedStatements: config.databasePreparedStatements,
    onPreparedStatementsOff,
    onPoolError: (err) => process.stderr.write(`ordergate: store connection lost: ${err.message}\n`),
    ...(withReplica && config.databaseReadUrl
      ? {
          replica: {
            url: config.databaseReadUrl,
            onError: (err: Error) =>
              process.stderr.write(`ordergate: read replica failed, its reads go to the primary for now: ${err.message}\n`),
          },
        }
      : {}),
  });

/** Creates a missing PostgreSQL database, migrates and makes sure a first key exists; a generated key is printed once to stderr. */
export async function prepareStore(config: Config): Promise<void> {
  await createStoreIfMissing(sessionDatabaseUrl(config));
  const store = openConfiguredStore(config);
  const writes = openWriteDoor(store, writeRegistry);
  try {
    await migrateToLatest(store);
    const boot = await ensureBootstrapKey(writes, config.bootstrapKey);
    if (boot.key) {
      process.stderr.write(
        `ordergate: no API key existed; created one with permissions all,admin. It is shown only this once:\n${boot.key}\n`,
      );
    } else if (boot.created) {
      process.stderr.write('ordergate: registered ORDERGATE_BOOTSTRAP_KEY as the first API key (all,admin)\n');
    }
    if (!config.webhook.secretKey) {
      process.stderr.write(
        'ordergate: WEBHOOK_SECRET_KEY is not set: webhook signing secrets are stored unencrypted (see docs/events.md)\n',
      );
    }
  } finally {
    await writes.close();
    await store.close();
  }
}

/** A failure to listen, named by the port and the setting that chose it. */
function listenFailure(err: unknown, config: Config): unknown {
  const code = (err as { code?: unknown } | null)?.code;
  if (code === 'EADDRINUSE')
    return new Error(
      `port ${config.port} on ${config.host} is in use (another ordergate or another server): stop it, or set PORT to a free port`,
    );
  if (code === 'EACCES')
    return new Error(`port ${config.port} on ${config.host} may not be opened by this user: set PORT to one above 1023`);
  if (code === 'EADDRNOTAVAIL') return new Error(`${config.host} is not an address of this machine: correct HOST`);
  return err;
}

/** One serving process: app on the shared port, closed gracefully on SIGTERM/SIGINT. */
export async function runWorker(config: Config): Promise<FastifyInstance> {
  let log: FastifyInstance['log'] | undefined;
  // Before the app's logger exists (its first queries), the warning goes to stderr.
  const store = openConfiguredStore(config, true, (err) =>
    log ? log.warn({ err }, PREPARED_STATEMENTS_OFF) : warnPreparedStatementsOff(err),
  );
  const app = await buildApp({ config, store });
  log = app.log;
  let closing = false;
  const shutdown = async (signal: string): Promise<void> => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down: finishing in-flight requests');
    const timer = setTimeout(() => process.exit(1), 15_000);
    timer.unref();
    let code = 0;
    try {
      await app.close();
      await store.close();
    } catch (err) {
      app.log.error({ err }, 'shutdown failed');
      code = 1;
    }
    process.exit(code);
  };
  process.once('SIGTERM', () => void shutdown('SIGTERM'));
  process.once('SIGINT', () => void shutdown('SIGINT'));
  try {
    await app.listen({ port: config.port, host: config.host });
  } catch (err) {
    await app.close().catch(() => undefined);
    await store.close().catch(() => undefined);
    throw listenFailure(err, config);
  }
  // Start-up is over (heap-settings.ts): the young generation may grow with the load, and the
  // heap is collected once now and after each stretch of work.
  releaseYoungGeneration();
  app.server.once('close', collectWhenIdle(app.server));
  // With WORKERS > 1 the primary says it, once for all workers (they share the port it took).
  if (cluster.isPrimary) announcePort(config, app.server.address());
  return app;
}

/**
 * PORT=0 takes a port the system picks: the process says which on stderr, whatever LOG_LEVEL is, so
 * that whoever started it can reach it.
 */
function announcePort(config: Config, address: AddressInfo | string | null): void {
  if (config.port !== 0 || address === null || typeof address === 'string') return;
  process.stderr.write(`ordergate: listening on port ${address.port}\n`);
}

/** `ordergate serve`: migrate once, then WORKERS processes share the port (cluster). */
export async function serve(config: Config): Promise<void> {
  if (!cluster.isPrimary) {
    try {
      await runWorker(config);
    } catch (err) {
      // The IPC channel to the primary would keep a failed worker alive: leave explicitly.
      process.stderr.write(`ordergate: ${err instanceof Error ? err.message : String(err)}\n`);
      process.exit(1);
    }
    return;
  }
  await prepareStore(config);
  if (config.workers <= 1) {
    await runWorker(config);
    return;
  }
  serveClusterMetrics();
  // The workers count their limits here without REDIS_URL, and while Redis is unreachable, so that
  // they hold for the host.
  serveClusterLimits();
  let stopping = false;
  const listening = new Set<number>();
  const fork = (): void => void cluster.fork(WORKER_ENV);
  for (let i = 0; i < config.workers; i++) fork();
  let announced = false;
  cluster.on('listening', (worker, address) => {
    listening.add(worker.id);
    if (announced) return;
    announced = true;
    announcePort(config, { address: address.address, family: String(address.addressType), port: address.port });
  });
  cluster.on('exit', (worker, code, signal) => {
    if (stopping) return;
    if (!listening.has(worker.id)) {
      // It failed before serving (port taken, store unreachable): a new one would fail the same way.
      process.stderr.write(`ordergate: worker ${worker.process.pid} could not start (${signal ?? code}); stopping\n`);
      stop('SIGTERM', 1);
      return;
    }
    listening.delete(worker.id);
    process.stderr.write(`ordergate: worker ${worker.process.pid} exited (${signal ?? code}); starting another\n`);
    setTimeout(fork, 500).unref();
  });
  function stop(signal: NodeJS.Signals, code = 0): void {
    if (stopping) return;
    stopping = true;
    // The primary may end on its own once the last worker is gone, before the check below runs.
    process.exitCode = code;
    for (const w of Object.values(cluster.workers ?? {})) w?.process.kill(signal);
    const check = setInterval(() => {
      if (Object.keys(cluster.workers ?? {}).length === 0) process.exit(code);
    }, 100);
    setTimeout(() => process.exit(1), 20_000).unref();
    check.unref();
  }
  process.once('SIGTERM', () => stop('SIGTERM'));
  process.once('SIGINT', () => stop('SIGINT'));
}
