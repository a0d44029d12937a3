import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { FastifyServerOptions } from 'fastify';
import fp from 'fastify-plugin';

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/**
 * Fastify's request id options: a client's X-Request-Id is kept when it is a plausible id; anything
 * else (too long, odd characters) is replaced, since it is echoed in the response and written to
 * every log line.
 */
export const requestIdOptions: Pick<FastifyServerOptions, 'requestIdHeader' | 'genReqId'> = {
  requestIdHeader: false,
  genReqId: (req: IncomingMessage) => {
    const given = req.headers['x-request-id'];
    return typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
  },
};

/** Every answer carries its request's id (X-Request-Id), the one its log lines carry. */
export const requestIds = fp(
  (app, _opts: Record<never, never>, done) => {
    app.addHook('onRequest', (request, reply, next) => {
      reply.header('x-request-id', request.id);
      next();
    });
    done();
  },
  { name: 'request-ids' },
);
