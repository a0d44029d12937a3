import { Readable } from 'node:stream';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppError } from '../errors.js';
import { REALM } from '../auth/index.js';
import { isInternal, responseStatusBody, statusOf, toAppError } from './error-response.js';
import { negotiateForError, type WireDefaults, type WireFormat } from './negotiation.js';
import { contentTypeOf, toJson, wrapJsonp } from './serializer.js';
import type { KeptText, StreamedArray } from './operation.js';

/** The form operations may keep their answers' text in (KeptText, StreamedArray.defaultText): PascalCase, WCF dates. */
const isDefaultForm = (format: WireFormat): boolean => format.casing === 'pascal' && format.dateStyle === 'wcf';

/** Writes a value as the negotiated JSON or JSONP. JSONP is always HTTP 200, as ServiceStack does. */
export function sendValue(reply: FastifyReply, format: WireFormat, status: number, value: unknown, mayHaveDates: boolean): FastifyReply {
  return sendJson(reply, format, status, toJson(value, format.casing, format.dateStyle, mayHaveDates));
}

/** A value whose text was kept: the text in the default form, else the view written as any value. */
export function sendKept(reply: FastifyReply, format: WireFormat, status: number, kept: KeptText, mayHaveDates: boolean): FastifyReply {
  if (kept.defaultText !== undefined && isDefaultForm(format)) return sendJson(reply, format, status, kept.defaultText);
  return sendValue(reply, format, status, kept.view(), mayHaveDates);
}

function sendJson(reply: FastifyReply, format: WireFormat, status: number, json: string): FastifyReply {
  return reply
    .code(format.jsonp ? 200 : status)
    .header('content-type', contentTypeOf(format))
    .header('vary', 'Accept')
    .send(format.jsonp ? wrapJsonp(format.jsonp, json) : json);
}

/**
 * Items written by one JSON.stringify: the text of an array of them is the items' texts joined by
 * commas, and one call for many items costs less than one call each (and one pass that escapes
 * dates).
 */
const ITEMS_PER_CALL = 32;

/**
 * Streams an array chunk by chunk: constant memory, and the event loop stays free between frames.
 * Items are written ITEMS_PER_CALL at a time: by the serializer from their views, or, in the
 * default form, from the texts the operation writes itself (StreamedArray.defaultText).
 */
export function sendStream(
  reply: FastifyReply,
  format: WireFormat,
  status: number,
  result: StreamedArray,
  mayHaveDates: boolean,
): FastifyReply {
  const asText = isDefaultForm(format) ? result.defaultText : undefined;
  // The texts of items [from, to) of a chunk, joined by commas, without the array's brackets.
  const written = (chunk: readonly unknown[], from: number, to: number): string => {
    if (asText) {
      const texts = new Array<string>(to - from);
      for (let i = from; i < to; i++) texts[i - from] = asText(chunk[i]);
      return texts.join(',');
    }
    const items = new Array<unknown>(to - from);
    for (let i = from; i < to; i++) items[i - from] = result.view(chunk[i]);
    return toJson(items, format.casing, format.dateStyle, mayHaveDates).slice(1, -1);
  };
  async function* frames(): AsyncGenerator<string> {
    yield format.jsonp ? `${format.jsonp}([` : '[';
    let batch = '';
    let separator = '';
    for await (const chunk of result.chunks(asText ? 'text' : 'view')) {
      for (let from = 0; from < chunk.length; from += ITEMS_PER_CALL) {
        batch += separator + written(chunk, from, Math.min(from + ITEMS_PER_CALL, chunk.length));
        separator = ',';
        if (batch.length < 64 * 1024) continue;
        yield batch;
        batch = '';
        // A socket that keeps accepting writes never pushes back, and rows that come from the store
        // as resolved promises keep this loop in microtasks: without a macrotask turn here a big
        // sync would hold the event loop until it ends and starve every other request.
        await new Promise<void>((resolve) => setImmediate(resolve));
      }
    }
    yield batch + (format.jsonp ? '])' : ']');
  }
  return reply
    .code(format.jsonp ? 200 : status)
    .header('content-type', contentTypeOf(format))
    .header('vary', 'Accept')
    .send(Readable.from(frames(), { objectMode: false }));
}

/** The one place an error becomes an HTTP response: ResponseStatus body, status, and its headers. */
export function sendError(request: FastifyRequest, reply: FastifyReply, thrown: unknown, defaults: WireDefaults): FastifyReply {
  const err: AppError = toAppError(thrown);
  const status = statusOf(err);
  if (isInternal(err)) request.log.error({ err: thrown }, 'unexpected error');
  else if (status >= 500) request.log.warn({ err: thrown }, 'store unavailable');
  if (status === 401) reply.header('www-authenticate', `Bearer realm="${REALM}", Basic realm="${REALM}"`);
  if (status === 503 || status === 429) reply.header('retry-after', reply.getHeader('retry-after') ?? '1');
  return sendValue(reply, negotiateForError(request, defaults), status, responseStatusBody(err), false);
}
