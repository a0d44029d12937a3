import { randomUUID } from 'node:crypto';
import Fastify, { type FastifyServerOptions } from 'fastify';
import formbody from '@fastify/formbody';
import { registerMetrics } from '../src/ops/metrics.js';
import { LAYERS } from './lib/fastify-layers.js';

// The server of bench/fastify-layers.ts: `GET /health/live` on Fastify with the first LAYERS of
// what the service adds to the framework (src/app.ts), in the order of lib/fastify-layers.ts.
// LAYERS=0 is bare Fastify.

const layers = Number(process.env.LAYERS ?? LAYERS.length);
const has = (name: (typeof LAYERS)[number]): boolean => LAYERS.indexOf(name) < layers;

const options: FastifyServerOptions = { logger: has('logger') ? { level: 'warn', redact: { paths: ['req.headers.authorization'], censor: '[redacted]' } } : false };
if (has('request id')) {
  options.requestIdHeader = false;
  options.genReqId = (req) => {
    const given = req.headers['x-request-id'];
    return typeof given === 'string' ? given : randomUUID();
  };
}
if (has('router options')) {
  options.routerOptions = { caseSensitive: false, ignoreTrailingSlash: true, ignoreDuplicateSlashes: true, maxParamLength: 16_384 };
  options.rewriteUrl = (req) => {
    const url = req.url ?? '/';
    return /\.(json|xml|jsv|csv)(\/?)$/i.test(url) ? url.replace(/\.[a-z]+\/?$/i, '') : url;
  };
}
const app = Fastify(options);

if (has('onRequest hook')) {
  let inFlight = 0;
  const end = (): void => void inFlight--;
  app.addHook('onRequest', (request, reply, done) => {
    inFlight++;
    reply.raw.on('close', end);
    const type = request.headers['content-type'];
    if (type === undefined || type.trim() === '') request.headers['content-type'] = 'text/plain';
    reply.header('x-request-id', request.id);
    reply.header('x-content-type-options', 'nosniff');
    done();
  });
}
if (has('security headers')) {
  const headers = {
    'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
    'cross-origin-opener-policy': 'same-origin',
    'cross-origin-resource-policy': 'cross-origin',
    'referrer-policy': 'no-referrer',
    'x-frame-options': 'DENY',
  };
  app.addHook('onRequest', (_request, reply, done) => {
    reply.headers(headers);
    done();
  });
}
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
