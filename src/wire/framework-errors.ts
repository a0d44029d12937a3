import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import type { FastifyBaseLogger, FastifyReply, FastifyRequest } from 'fastify';
import { headersTooLarge, invalidHttp, requestTimeout, type AppError } from '../errors.js';
import { responseStatusBody } from './error-response.js';
import type { WireDefaults } from './negotiation.js';
import { sendError } from './responses.js';
import { toJson } from './serializer.js';

/**
 * Errors Fastify raises before a route is found (a URL that cannot be decoded, a path parameter
 * over the limit) go through the same error response as everything else.
 */
export function frameworkErrorHandler(defaults: WireDefaults) {
  return (err: Error, request: FastifyRequest, reply: FastifyReply): void => {
    reply.header('x-request-id', request.id);
    sendError(request, reply, err, defaults);
  };
}

function clientErrorStatus(code: string | undefined): { status: number; error: AppError } {
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT' || code === 'ERR_HTTP_HEADERS_TIMEOUT') {
    return { status: 408, error: requestTimeout() };
  }
  if (code === 'HPE_HEADER_OVERFLOW') {
    return { status: 431, error: headersTooLarge() };
  }
  return { status: 400, error: invalidHttp() };
}

/**
 * Node's HTTP parser rejects a request before Fastify sees it (malformed request line, headers over
 * the size limit, a request that never finishes). The answer still has the ResponseStatus body.
 */
export function clientErrorHandler(defaults: WireDefaults) {
  // Fastify calls it bound to the instance, hence a function rather than an arrow.
  return function (this: { log: FastifyBaseLogger }, err: Error & { code?: string }, socket: Duplex): void {
    if (err.code === 'ECONNRESET' || socket.destroyed) return;
    const { status, error } = clientErrorStatus(err.code);
    this.log.debug({ err }, 'client error');
    if (socket.writable) {
      const body = toJson(responseStatusBody(error), defaults.casing, defaults.dateStyle, false);
      socket.write(
        `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\n` +
          `Content-Length: ${Buffer.byteLength(body)}\r\nVary: Accept\r\nConnection: close\r\n\r\n${body}`,
      );
    }
    socket.destroy(err);
  };
}
