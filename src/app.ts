import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Socket } from 'node:net';
import type { Writable } from 'node:stream';
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import { Authenticator, markKeyUsedWrite } from './auth/index.js';
import type { Config } from './config.js';
import { registerConsole, wantsHtml } from './console/console-routes.js';
import { registerDocs } from './docs/docs-routes.js';
import { allOperations } from './operations.js';
import { apiLoad } from './ops/api-load.js';
import { draining } from './ops/draining.js';
import { registerHealth } from './ops/health.js';
import { loggerOptions } from './ops/logging.js';
import { metrics } from './ops/metrics.js';
import { rateLimits } from './ops/rate-limit.js';
import { requestIdOptions, requestIds } from './ops/request-ids.js';
import { requestLoggerFactory } from './ops/request-logger.js';
import { securityHeaders } from './ops/security-headers.js';
import { primaryWatermark } from './store/read-replica.js';
import type { Store } from './store/store.js';
import { clientErrorHandler, frameworkErrorHandler } from './wire/framework-errors.js';
import { stripFormatSuffix, type WireDefaults } from './wire/negotiation.js';
import type { AnyOperation } from './wire/operation.js';
import { registerOperations } from './wire/operation-routes.js';
import { serviceStackWire } from './wire/servicestack-wire.js';
import { webhookDelivery } from './webhooks/index.js';
import { writeRegistry } from './write-registry.js';
import { writeDoor } from './writes/write-door-plugin.js';
import type { WriteDoor } from './writes/write-door.js';

export const BODY_LIMIT = 1024 * 1024;
// Slow clients: headers must arrive within 10 s, and Node checks its request and header limits every
// second rather than every 30 s, so a connection that trickles bytes is cut close to its limit.
const SLOW_CLIENT_LIMITS = { headersTimeout: 10_000, connectionsCheckingInterval: 1_000 };

export interface AppOptions {
  readonly config: Config;
  readonly store: Store;
  /** Where JSON log lines go (stdout by default); tests pass a collector. */
  readonly logStream?: Writable;
  /** The operation table; the service's own (src/operations.ts) unless given. */
  readonly operations?: (writes: WriteDoor) => readonly AnyOperation[];
}

/** Builds the whole service as one Fastify instance, without listening (tests inject into it). */
export async function buildApp({ config, store, logStream, operations }: AppOptions): Promise<FastifyInstance> {
  const defaults: WireDefaults = { casing: config.jsonCasing, dateStyle: config.dateFormat };
  const app = Fastify({
    logger: loggerOptions(config, logStream),
    childLoggerFactory: requestLoggerFactory,
    bodyLimit: BODY_LIMIT,
    // Path parameters may be as long as a URL can be; length rules belong to validation (400 naming the field).
    routerOptions: { caseSensitive: false, ignoreTrailingSlash: true, ignoreDuplicateSlashes: true, maxParamLength: 16_384 },
    rewriteUrl: stripFormatSuffix,
    ...requestIdOptions,
    trustProxy: config.trustProxy,
    requestTimeout: 30_000,
    connectionTimeout: 60_000,
    keepAliveTimeout: 5_000,
    // While draining, requests still on open connections are served (with Connection: close)
    // rather than refused with a body of Fastify's own shape.
    return503OnClosing: false,
    frameworkErrors: frameworkErrorHandler(defaults),
    clientErrorHandler: clientErrorHandler(defaults) as (error: Error, socket: Socket) => void,
    http: SLOW_CLIENT_LIMITS,
    ...(config.tls ? { https: { cert: config.tls.cert, key: config.tls.key, ...SLOW_CLIENT_LIMITS } } : {}),
  } as FastifyServerOptions);

  // `/` has no operation: a browser is sent to the console, an API client gets the 404 it always got.
  const roots = new Set(['/', config.basePath, `${config.basePath}/`]);
  const toConsole = (request: FastifyRequest, reply: FastifyReply, path: string): boolean => {
    if (request.method !== 'GET' || !roots.has(path) || !wantsHtml(request)) return false;
    void reply.redirect(`${config.basePath}/console/`, 303);
    return true;
  };

  // Plugins close in the reverse order of this list: what needs the write door closes before it.
  await app.register(requestIds);
  await app.register(apiLoad);
  await app.register(serviceStackWire, { defaults, bodyLimit: BODY_LIMIT, unrouted: toConsole });
  await app.register(securityHeaders, { config });
  await app.register(rateLimits, { config });
  await app.register(draining);
  await app.register(metrics, { store });
  await app.register(writeDoor, { store, registry: writeRegistry });
  await app.register(webhookDelivery, {
    store,
    settings: { ...config.webhook, casing: config.jsonCasing, dateStyle: config.dateFormat },
    eventRetentionDays: config.eventRetentionDays,
  });
  const writes = app.writes;

  // LastUsedAt is written in the background, at most once a minute per key; a failed write is only logged.
  const authenticator = new Authenticator(store, (id, at) => {
    writes
      .run(markKeyUsedWrite, { id, at })
      .catch((err: unknown) => app.log.warn({ err, keyId: id }, 'could not record when the key was last used'));
  });
  // Only a store with a read replica hands out X-Write-Watermark: without one, every read sees every write.
  const writeWatermark = store.replica ? { writeWatermark: primaryWatermark(store) } : {};
  await app.register(
    async (scope) => {
      registerHealth(scope, store, app.accessGuard.scope);
      scope.get('/metrics', app.metrics.handler);
      const ops = operations ? operations(writes) : allOperations(store, writes, config);
      registerOperations(scope, ops, {
        defaults,
        authenticator,
        allowApiKeyInQuery: config.allowApiKeyInQuery,
        guard: app.accessGuard,
        ...writeWatermark,
      });
      await registerDocs(scope, ops, config);
      registerConsole(scope, config.basePath);
    },
    { prefix: config.basePath },
  );
  return app;
}
