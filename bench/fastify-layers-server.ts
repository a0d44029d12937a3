import { randomUUID } from 'node:crypto';
import Fastify, { type FastifyServerOptions } from 'fastify';
import formbody from '@fastify/formbody';
import { ApiLoad } from '../src/ops/api-load.js';
import { loggerOptions } from '../src/ops/logging.js';
import { registerMetrics } from '../src/ops/metrics.js';
import { registerSecurityHeaders } from '../src/ops/security-headers.js';
import { stripFormatSuffix } from '../src/wire/negotiation.js';
import { LAYERS } from './lib/fastify-layers.js';

// The server of bench/fastify-layers.ts: `GET /health/live` on Fastify with the first LAYERS of
// what the service adds to the framework (src/app.ts), in the order of lib/fastify-layers.ts: the
// service's own pieces where it has them as functions, its inline hooks written as they are there.
// LAYERS=0 is bare Fastify.

const layers = Number(process.env.LAYERS ?? LAYERS.length);
const has = (name: (typeof LAYERS)[number]): boolean => LAYERS.indexOf(name) < layers;

const options: FastifyServerOptions = { logger: has('logger') ? loggerOptions({ logLevel: 'warn' }, undefined) : false };
if (has('request id')) {
  options.requestIdHeader = false;
  options.genReqId = (req) => {
    const given = req.headers['x-request-id'];
    return typeof given === 'string' && /^[A-Za-z0-9._:-]{1,128}$/.test(given) ? given : randomUUID();
  };
}
if (has('router options')) {
  options.routerOptions = { caseSensitive: false, ignoreTrailingSlash: true, ignoreDuplicateSlashes: true, maxParamLength: 16_384 };
  options.rewriteUrl = stripFormatSuffix;
}
const app = Fastify(options);

if (has('onRequest hook')) {
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
}
if (has('security headers')) await registerSecurityHeaders(app, { tls: undefined });
if (has('metrics')) registerMetrics(app);
if (has('onSend hook')) {
  const closing = false;
  app.addHook('onSend', (_request, reply, payload, done) => {
    if (closing) reply.header('connection', 'close');
    done(null, payload);
  });
}
if (has('form bodies')) await app.register(formbody);

app.get('/health/live', async () => ({ Status: 'Live' }));
await app.listen({ port: Number(process.env.PORT ?? 0), host: '127.0.0.1' });
process.once('SIGTERM', () => void app.close().then(() => process.exit(0)));
