import type { FastifyReply, FastifyRequest } from 'fastify';
import formbody from '@fastify/formbody';
import fp from 'fastify-plugin';
import { routeNotFound } from '../errors.js';
import type { WireDefaults } from './negotiation.js';
import { sendError } from './responses.js';

export interface ServiceStackWireOptions {
  readonly defaults: WireDefaults;
  readonly bodyLimit: number;
  /** A request no route takes that is answered otherwise than with the 404 (the console's redirect); true when answered. */
  readonly unrouted?: (request: FastifyRequest, reply: FastifyReply, path: string) => boolean;
}

/**
 * What ServiceStack clients send and get besides the operations: JSON bodies as application/json,
 * as text/plain (JsonApiClient) or with no type at all, form bodies, and every error — a route's,
 * a handler's, no route at all — in the ResponseStatus shape of the negotiated format.
 */
export const serviceStackWire = fp(
  async (app, { defaults, bodyLimit, unrouted }: ServiceStackWireOptions) => {
    const parseJson = app.getDefaultJsonParser('error', 'ignore');
    app.removeContentTypeParser(['application/json', 'text/plain']);
    app.addContentTypeParser(['application/json', 'text/plain'], { parseAs: 'string' }, (req, body, done) => {
      if ((body as string).trim() === '') return done(null, undefined);
      // The default parser answers through `done`; its type also admits the promise-returning kind.
      void parseJson(req, body as string, done);
    });
    app.addHook('onRequest', (request, _reply, next) => {
      const type = request.headers['content-type'];
      if (type === undefined || type.trim() === '') request.headers['content-type'] = 'text/plain';
      next();
    });
    await app.register(formbody, { bodyLimit });
    app.setErrorHandler((err, request, reply) => sendError(request, reply, err, defaults));
    app.setNotFoundHandler((request, reply) => {
      const path = request.url.split('?')[0] ?? '';
      if (unrouted?.(request, reply, path)) return reply;
      return sendError(request, reply, routeNotFound(request.method, path), defaults);
    });
  },
  { name: 'servicestack-wire' },
);
