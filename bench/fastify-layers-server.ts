import Fastify, { type FastifyServerOptions } from 'fastify';
import { loadConfig } from '../src/config.js';
import { apiLoad } from '../src/ops/api-load.js';
import { draining } from '../src/ops/draining.js';
import { loggerOptions } from '../src/ops/logging.js';
import { requestLoggerFactory } from '../src/ops/request-logger.js';
import { metrics } from '../src/ops/metrics.js';
import { rateLimits } from '../src/ops/rate-limit.js';
import { requestIdOptions, requestIds } from '../src/ops/request-ids.js';
import { securityHeaders, securityHeaderValues } from '../src/ops/security-headers.js';
import { stripFormatSuffix } from '../src/wire/negotiation.js';
import { serviceStackWire } from '../src/wire/servicestack-wire.js';
import { LAYERS } from './lib/fastify-layers.js';

// The server of bench/fastify-layers.ts: `GET /health/live` on Fastify with the first LAYERS of
// what the service adds to the framework (src/app.ts), in the order of lib/fastify-layers.ts: the
// service's own options and plugins. LAYERS=0 is bare Fastify.

const layers = Number(process.env.LAYERS ?? LAYERS.length);
// HEADERS_ONLY=1: bare Fastify and one onRequest hook setting the headers every answer of the service
// carries (its request id and the security headers), and nothing else the service adds: the least
// Fastify can do and keep the service's headers.
const headersOnly = process.env.HEADERS_ONLY === '1';
const has = (name: (typeof LAYERS)[number]): boolean => LAYERS.indexOf(name) < layers;
const config = loadConfig({ DATABASE_URL: 'sqlite::memory:', RATE_LIMIT_PER_SECOND: '0', AUTH_FAILURE_LIMIT: '0' });

const options: FastifyServerOptions = { logger: has('logger') ? loggerOptions({ logLevel: 'warn' }, undefined) : false };
// The logger as the service sets it up: its options and the request's child made when it writes (src/app.ts).
if (has('logger')) options.childLoggerFactory = requestLoggerFactory;
if (has('request id')) Object.assign(options, requestIdOptions);
if (has('router options')) {
  options.routerOptions = { caseSensitive: false, ignoreTrailingSlash: true, ignoreDuplicateSlashes: true, maxParamLength: 16_384 };
  options.rewriteUrl = stripFormatSuffix;
}
if (headersOnly) Object.assign(options, requestIdOptions);
const app = Fastify(options);

if (headersOnly) {
  const security = await securityHeaderValues(config);
  app.addHook('onRequest', (request, reply, done) => {
    reply.header('x-request-id', request.id);
    reply.headers(security);
    done();
  });
}

if (has('request id')) await app.register(requestIds);
if (has('api load')) await app.register(apiLoad);
if (has('servicestack wire'))
  await app.register(serviceStackWire, { defaults: { casing: config.jsonCasing, dateStyle: config.dateFormat }, bodyLimit: 1024 * 1024 });
if (has('security headers')) await app.register(securityHeaders, { config });
if (has('rate limits (off)')) await app.register(rateLimits, { config });
if (has('draining')) await app.register(draining);
if (has('metrics')) await app.register(metrics, { store: {} });

app.get('/health/live', async () => ({ Status: 'Live' }));
await app.listen({ port: Number(process.env.PORT ?? 0), host: '127.0.0.1' });
process.once('SIGTERM', () => void app.close().then(() => process.exit(0)));
