import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import type { Writable } from 'node:stream';
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import formbody from '@fastify/formbody';
import { Authenticator, markKeyUsedWrite } from './auth/index.js';
import type { Config } from './config.js';
import { registerConsole, wantsHtml } from './console/console-routes.js';
import { registerDocs } from './docs/docs-routes.js';
import { routeNotFound } from './errors.js';
import { allOperations } from './operations.js';
import { registerHealth } from './ops/health.js';
import { loggerOptions } from './ops/logging.js';
import { registerMetrics } from './ops/metrics.js';
import { registerReplicaMetrics } from './ops/replica-metrics.js';
import { registerRateLimits } from './ops/rate-limit.js';
import { registerSecurityHeaders } from './ops/security-headers.js';
import { primaryWatermark } from './store/read-replica.js';
import type { Store } from './store/store.js';
import { clientErrorHandler, frameworkErrorHandler } from './wire/framework-errors.js';
import { stripFormatSuffix, type WireDefaults } from './wire/negotiation.js';
import type { AnyOperation } from './wire/operation.js';
import { registerOperations } from './wire/operation-routes.js';
import { sendError } from './wire/responses.js';
import { writeRegistry } from './write-registry.js';
import { openWriteDoor, type WriteDoor } from './writes/write-door.js';
import { registerWebhookMetrics, startEventRetention, WebhookDispatcher } from './webhooks/index.js';
import { ApiLoad } from './ops/api-load.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** The write door of this app: opened with it, closed when it closes. */
    readonly writes: WriteDoor;
  }
}

export const BODY_LIMIT = 1024 * 1024;
const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;
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
    bodyLimit: BODY_LIMIT,
    // Path parameters may be as long as a URL can be; length rules belong to validation (400 naming the field).
    routerOptions: { caseSensitive: false, ignoreTrailingSlash: true, ignoreDuplicateSlashes: true, maxParamLength: 16_384 },
    rewriteUrl: stripFormatSuffix,
    // A client's X-Request-Id is kept when it is a plausible id; anything else (too long, odd
    // characters) is replaced, since it is echoed in the response and written to every log line.
    requestIdHeader: false,
    genReqId: (req: IncomingMessage) => {
      const given = req.headers['x-request-id'];
      return typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
    },
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

  // JSON bodies arrive as application/json, as text/plain (JsonApiClient) or with no type at all.
  const parseJson = app.getDefaultJsonParser('error', 'ignore');
  app.removeContentTypeParser(['application/json', 'text/plain']);
  app.addContentTypeParser(['application/json', 'text/plain'], { parseAs: 'string' }, (req, body, done) => {
    if ((body as string).trim() === '') return done(null, undefined);
    // The default parser answers through `done`; its type also admits the promise-returning kind.
    void parseJson(req, body as string, done);
  });
  // Callback-style hooks on the per-request path: an async hook costs a promise per request.
  const load = new ApiLoad();
  app.addHook('onRequest', (request, reply, done) => {
    load.begin();
    reply.raw.on('close', load.end);
    const type = request.headers['content-type'];
    if (type === undefined || type.trim() === '') request.headers['content-type'] = 'text/plain';
    reply.header('x-request-id', request.id);
    reply.header('x-content-type-options', 'nosniff');
    done();
  });
  // Once shutdown begins, each answer closes its connection: a keep-alive client moves on to
  // another instance at once, and close() need not wait for idle connections to time out.
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
  });
  app.addHook('onSend', (_request, reply, payload, done) => {
    if (closing) reply.header('connection', 'close');
    done(null, payload);
  });
  await app.register(formbody, { bodyLimit: BODY_LIMIT });
  await registerSecurityHeaders(app, config);
  const guard = await registerRateLimits(app, config);

  app.setErrorHandler((err, request, reply) => sendError(request, reply, err, defaults));
  // `/` has no operation: a browser is sent to the console, an API client gets the 404 it always got.
  const roots = new Set(['/', config.basePath, `${config.basePath}/`]);
  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0] ?? '';
    if (request.method === 'GET' && roots.has(path) && wantsHtml(request)) return reply.redirect(`${config.basePath}/console/`, 303);
    return sendError(request, reply, routeNotFound(request.method, path), defaults);
  });

  // The app owns its write door: on a SQLite file a write thread, which must not outlive it.
  const writes = openWriteDoor(store, writeRegistry, { thread: true });
  app.decorate('writes', writes);

  // Counted at the root so that 404s and every other error response are measured too.
  const metrics = registerMetrics(app);
  if (store.replica) registerReplicaMetrics(metrics.registry, store.replica);
  // Every instance delivers webhooks and purges old events; both stop before the door closes.
  const dispatcher = new WebhookDispatcher(
    store,
    writes,
    { ...config.webhook, casing: config.jsonCasing, dateStyle: config.dateFormat },
    registerWebhookMetrics(metrics.registry, store),
    app.log,
    load,
  );
  let stopRetention: (() => Promise<void>) | undefined;
  app.addHook('onReady', async () => {
    load.start();
    dispatcher.start();
    stopRetention = startEventRetention(store, writes, config.eventRetentionDays, app.log);
  });
  app.addHook('onClose', async () => {
    await dispatcher.stop();
    load.stop();
    await stopRetention?.();
    await writes.close();
  });

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
      registerHealth(scope, store, guard.scope);
      scope.get('/metrics', metrics.handler);
      const ops = operations ? operations(writes) : allOperations(store, writes, config);
      registerOperations(scope, ops, { defaults, authenticator, allowApiKeyInQuery: config.allowApiKeyInQuery, guard, ...writeWatermark });
      await registerDocs(scope, ops, config);
      registerConsole(scope, config.basePath);
    },
    { prefix: config.basePath },
  );
  return app;
}
