import { randomUUID } from 'node:crypto';
import type { Writable } from 'node:stream';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest, type FastifyServerOptions } from 'fastify';
import formbody from '@fastify/formbody';
import { Authenticator } from './auth/authenticator.js';
import type { Config } from './config.js';
import { notFound } from './errors.js';
import { allOperations } from './operations.js';
import { registerHealth } from './ops/health.js';
import { registerMetrics } from './ops/metrics.js';
import type { Store } from './store/store.js';
import { stripFormatSuffix, type WireDefaults } from './wire/negotiation.js';
import { registerOperations } from './wire/operation-routes.js';
import { sendError } from './wire/responses.js';

export const BODY_LIMIT = 1024 * 1024;

export interface AppOptions {
  readonly config: Config;
  readonly store: Store;
  /** Where JSON log lines go (stdout by default); tests pass a collector. */
  readonly logStream?: Writable;
}

function loggerOptions(config: Config, stream: Writable | undefined): FastifyServerOptions['logger'] {
  return {
    level: config.logLevel,
    ...(stream ? { stream } : {}),
    // Bank data, e-mail and keys travel in bodies and headers: log neither, and no query strings.
    redact: { paths: ['req.headers.authorization', 'headers.authorization', '*.authorization'], censor: '[redacted]' },
    serializers: {
      req: (req: { method: string; url: string; id?: string; ip?: string }) => ({
        method: req.method,
        url: req.url.split('?')[0],
        remoteAddress: req.ip,
      }),
    },
  };
}

const wireDefaults = (config: Config): WireDefaults => ({ casing: config.jsonCasing, dateStyle: config.dateFormat });

/** Builds the whole service as one Fastify instance, without listening (tests inject into it). */
export async function buildApp({ config, store, logStream }: AppOptions): Promise<FastifyInstance> {
  const app = Fastify({
    logger: loggerOptions(config, logStream),
    bodyLimit: BODY_LIMIT,
    routerOptions: { caseSensitive: false, ignoreTrailingSlash: true, ignoreDuplicateSlashes: true, maxParamLength: 2000 },
    rewriteUrl: stripFormatSuffix,
    // Router-level failures (bad URL encoding, over-long path parameters) skip setErrorHandler.
    frameworkErrors: (err: Error, request: FastifyRequest, reply: FastifyReply) => sendError(request, reply, err, wireDefaults(config)),
    requestIdHeader: 'x-request-id',
    genReqId: () => randomUUID(),
    trustProxy: config.trustProxy,
    requestTimeout: 30_000,
    connectionTimeout: 60_000,
    keepAliveTimeout: 5_000,
    ...(config.tls ? { https: { cert: config.tls.cert, key: config.tls.key } } : {}),
  } as FastifyServerOptions);

  const defaults = wireDefaults(config);

  // JSON bodies arrive as application/json, as text/plain (JsonApiClient) or with no type at all.
  const parseJson = app.getDefaultJsonParser('error', 'ignore');
  app.removeContentTypeParser(['application/json', 'text/plain']);
  app.addContentTypeParser(['application/json', 'text/plain'], { parseAs: 'string' }, (req, body, done) => {
    if ((body as string).trim() === '') return done(null, undefined);
    parseJson(req, body as string, done);
  });
  app.addHook('onRequest', async (request, reply) => {
    const type = request.headers['content-type'];
    if (type === undefined || type.trim() === '') request.headers['content-type'] = 'text/plain';
    reply.header('x-request-id', request.id);
    reply.header('x-content-type-options', 'nosniff');
  });
  await app.register(formbody, { bodyLimit: BODY_LIMIT });

  app.setErrorHandler((err, request, reply) => sendError(request, reply, err, defaults));
  app.setNotFoundHandler((request, reply) => sendError(request, reply, notFound(`Handler for Request not found: ${request.method} ${request.url.split('?')[0]}`), defaults));

  const authenticator = new Authenticator(store);
  await app.register(
    async (scope) => {
      registerHealth(scope, store);
      registerMetrics(scope);
      registerOperations(scope, allOperations(store), { defaults, authenticator, allowApiKeyInQuery: config.allowApiKeyInQuery });
    },
    { prefix: config.basePath },
  );
  return app;
}
