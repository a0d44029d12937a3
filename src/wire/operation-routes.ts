import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Authenticator, presentedKey, requirePermission } from '../auth/index.js';
import { AppError, SerializationError, methodNotAllowed, unknownOperation } from '../errors.js';
import type { AccessGuard } from '../ops/rate-limit.js';
import { compileBinder, type Binder, type BindSources } from './binder.js';
import { formatWireDate } from './dates.js';
import { negotiate, type WireDefaults, type WireFormat } from './negotiation.js';
import { KeptText, StreamedArray, type AnyOperation, type HttpMethod, type OperationCall } from './operation.js';
import { compileValidator, type Validator } from './request-validation.js';
import { WRITE_WATERMARK_HEADER } from './read-your-writes.js';
import { sendKept, sendStream, sendValue } from './responses.js';
import { mayContainDates } from './schema-types.js';

export interface WireOptions {
  readonly defaults: WireDefaults;
  readonly authenticator: Authenticator;
  readonly allowApiKeyInQuery: boolean;
  /** Rate limits and the failed-authentication limit (src/ops/rate-limit.ts); none when absent. */
  readonly guard?: AccessGuard;
  /** The primary's committed watermark, read after a write for X-Write-Watermark; none when absent. */
  readonly writeWatermark?: () => Promise<number>;
}

interface Compiled {
  readonly op: AnyOperation;
  readonly bind: Binder;
  readonly validate: Validator;
  readonly mayHaveDates: boolean;
}

const ALL_METHODS: readonly HttpMethod[] = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];
const FORM = 'application/x-www-form-urlencoded';

/** `/customer/{CustomerId}/customfields/` → `/customer/:CustomerId/customfields/`. */
export const toFastifyPath = (path: string): string => path.replace(/\{(\w+)\}/g, ':$1');

/**
 * The per-request call handed to a handler. A class rather than an object of closures: its methods
 * live once on the prototype, so a request allocates one object instead of five.
 */
class Call implements OperationCall {
  #controller: AbortController | undefined;
  readonly log: OperationCall['log'];
  readonly dateStyle: OperationCall['dateStyle'];

  constructor(
    private readonly request: FastifyRequest,
    private readonly reply: FastifyReply,
    format: WireFormat,
    readonly key: OperationCall['key'],
    readonly bodyFields: OperationCall['bodyFields'],
  ) {
    this.log = request.log;
    this.dateStyle = format.dateStyle;
  }

  header(name: string): string | undefined {
    const v = this.request.headers[name.toLowerCase()];
    return Array.isArray(v) ? v.join(', ') : v;
  }

  setHeader(name: string, value: string): void {
    void this.reply.header(name, value);
  }

  setStatus(code: number): void {
    void this.reply.code(code);
  }

  get signal(): AbortSignal {
    if (!this.#controller) {
      const c = new AbortController();
      this.#controller = c;
      const reply = this.reply;
      this.request.raw.once('close', () => {
        if (!reply.raw.writableFinished) c.abort();
      });
    }
    return this.#controller.signal;
  }
}

type Key = OperationCall['key'];

/**
 * The request's key, checked: its permission for the operation, the failed-authentication limit
 * and the key's rate. A promise only where something must be waited for (the key's row read, a
 * rate counted, a failure counted): a trusted key without a rate limit passes synchronously.
 */
function authorize(request: FastifyRequest, reply: FastifyReply, op: AnyOperation, wire: WireOptions, weight = 1): Key | Promise<Key> {
  const q = wire.allowApiKeyInQuery ? (request.query as Record<string, unknown>).apikey : undefined;
  const presented = presentedKey(request.headers, typeof q === 'string' ? q : undefined);
  wire.guard?.beforeAuthentication(request, reply);
  let key: Key | undefined;
  try {
    key = wire.authenticator.authenticateNow(presented);
  } catch (err) {
    return refused(request, reply, wire, presented, err);
  }
  if (key === undefined) {
    return wire.authenticator.authenticate(presented).then(
      (read) => admitted(request, reply, op, wire, weight, read),
      (err: unknown) => refused(request, reply, wire, presented, err),
    );
  }
  return admitted(request, reply, op, wire, weight, key);
}

/** Only a presented key that is wrong counts as a guess; a missing one or a store outage does not. */
async function refused(
  request: FastifyRequest,
  reply: FastifyReply,
  wire: WireOptions,
  presented: string | undefined,
  err: unknown,
): Promise<never> {
  if (presented !== undefined && err instanceof AppError && err.kind === 'unauthenticated')
    await wire.guard?.authenticationFailed(request, reply);
  throw err;
}

function admitted(
  request: FastifyRequest,
  reply: FastifyReply,
  op: AnyOperation,
  wire: WireOptions,
  weight: number,
  key: Key,
): Key | Promise<Key> {
  const counted = wire.guard?.admit(request, reply, key.id, weight);
  if (counted !== undefined)
    return counted.then(() => {
      requirePermission(key, op.permission);
      return key;
    });
  requirePermission(key, op.permission);
  return key;
}

/** Binds, validates and hands the request to its operation (a bad request throws before the handler runs). */
function run(
  c: Compiled,
  sources: BindSources,
  request: FastifyRequest,
  reply: FastifyReply,
  format: WireFormat,
  key: OperationCall['key'],
): unknown {
  const bound = c.bind(sources);
  const call = new Call(request, reply, format, key, bound.body);
  // Handlers receive only requests their schema (and its rules) accepts: the types say so.
  c.validate(bound.request, call).throwIfAny();
  return c.op.handle(bound.request, call);
}

/**
 * After a successful write: X-Write-Watermark, the primary's committed watermark read once the
 * write committed. The write stands whatever happens here: a failed read leaves the header out.
 */
async function markWritten(
  c: Compiled,
  request: FastifyRequest,
  reply: FastifyReply,
  format: WireFormat,
  wire: WireOptions,
): Promise<void> {
  if (!c.op.writeWatermark || !wire.writeWatermark) return;
  try {
    reply.header(WRITE_WATERMARK_HEADER, formatWireDate(await wire.writeWatermark(), format.dateStyle));
  } catch (err) {
    request.log.warn({ err }, 'the write committed; its X-Write-Watermark could not be read');
  }
}

function send(c: Compiled, reply: FastifyReply, format: WireFormat, result: unknown): FastifyReply {
  const status = reply.statusCode !== 200 ? reply.statusCode : (c.op.successStatus ?? 200);
  if (result instanceof StreamedArray) return sendStream(reply, format, status, result, c.mayHaveDates);
  if (result instanceof KeptText) return sendKept(reply, format, status, result, c.mayHaveDates);
  if (result === undefined) return reply.code(204).send();
  return sendValue(reply, format, status, result, c.mayHaveDates);
}

function isForm(request: FastifyRequest): boolean {
  return (request.headers['content-type'] ?? '').toLowerCase().startsWith(FORM);
}

/** A custom route: path variables, query string, and a JSON or form body. */
function customRoute(c: Compiled, method: HttpMethod, wire: WireOptions) {
  const readsQueryFirst = method === 'GET' || method === 'DELETE';
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const format = negotiate(request, wire.defaults);
    const authorized = authorize(request, reply, c.op, wire);
    const key = authorized instanceof Promise ? await authorized : authorized;
    const form = isForm(request);
    const sources: BindSources = {
      body: form ? undefined : request.body,
      path: request.params as Record<string, string>,
      query: request.query as BindSources['query'],
      form: form ? (request.body as BindSources['form']) : undefined,
      queryOverrides: readsQueryFirst,
    };
    const result = await run(c, sources, request, reply, format, key);
    if (c.op.writeWatermark && wire.writeWatermark) await markWritten(c, request, reply, format, wire);
    return send(c, reply, format, result);
  };
}

async function materialize(result: unknown): Promise<unknown> {
  if (result instanceof KeptText) return result.view();
  if (!(result instanceof StreamedArray)) return result;
  const out: unknown[] = [];
  for await (const chunk of result.chunks('view')) for (const element of chunk) out.push(result.view(element));
  return out;
}

/**
 * ServiceStack's predefined routes, `/api/<Operation>` and `/json/reply/<Operation>`, any verb:
 * GET/DELETE bind the query string, other verbs the body as JSON whatever its Content-Type.
 * `<Operation>[]` runs a batch from a JSON array and answers an array. `/json/oneway/<Operation>`
 * (where `JsonServiceClient.sendOneWay()` posts with `basePath = null`) runs it and answers 204.
 */
function predefinedRoute(byName: ReadonlyMap<string, Compiled>, wire: WireOptions, oneWay = false) {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const format = negotiate(request, wire.defaults);
    let name = (request.params as { operation: string }).operation;
    const batch = name.endsWith('[]');
    if (batch) name = name.slice(0, -2);
    const c = byName.get(name.toLowerCase());
    if (!c) throw unknownOperation();
    const authorized = authorize(request, reply, c.op, wire, batch && Array.isArray(request.body) ? request.body.length : 1);
    const key = authorized instanceof Promise ? await authorized : authorized;
    const method = request.method as HttpMethod;
    const query = request.query as BindSources['query'];
    const viaQuery = method === 'GET' || method === 'DELETE';
    const form = isForm(request);
    if (!batch) {
      const sources: BindSources = viaQuery
        ? { path: {}, query, queryOverrides: true }
        : {
            body: form ? undefined : request.body,
            form: form ? (request.body as BindSources['form']) : undefined,
            query,
            queryOverrides: false,
          };
      const result = await run(c, sources, request, reply, format, key);
      await markWritten(c, request, reply, format, wire);
      if (oneWay) return materialize(result).then(() => reply.code(204).send());
      return send(c, reply, format, result);
    }
    if (!Array.isArray(request.body)) {
      throw new SerializationError(c.op.name, [
        { errorCode: SerializationError.CODE, fieldName: '', message: 'A batch request body must be a JSON array' },
      ]);
    }
    const results: unknown[] = [];
    for (const item of request.body) {
      results.push(await materialize(await run(c, { body: item, queryOverrides: false }, request, reply, format, key)));
    }
    await markWritten(c, request, reply, format, wire);
    if (oneWay) return reply.code(204).send();
    return sendValue(reply, format, 200, results, c.mayHaveDates);
  };
}

/**
 * Registers every operation's custom routes, a 405 for the other verbs on those paths, and the
 * predefined routes — all from the one operation table.
 */
export function registerOperations(app: FastifyInstance, ops: readonly AnyOperation[], wire: WireOptions): void {
  const byName = new Map<string, Compiled>();
  const methodsByPath = new Map<string, { url: string; methods: Set<HttpMethod> }>();
  for (const op of ops) {
    const c: Compiled = {
      op,
      bind: compileBinder(op.name, op.request, op.arrayBody),
      validate: compileValidator(op.request),
      mayHaveDates: mayContainDates(op.response),
    };
    byName.set(op.name.toLowerCase(), c);
    for (const route of op.routes) {
      const url = toFastifyPath(route.path);
      app.route({ method: route.method, url, handler: customRoute(c, route.method, wire) });
      // The router matches case-insensitively, ignores variable names and a trailing slash:
      // `/x/:A` and `/X/:B/` are one path.
      const shape = url.toLowerCase().replace(/:\w+/g, ':').replace(/\/+$/, '');
      const entry = methodsByPath.get(shape) ?? { url, methods: new Set<HttpMethod>() };
      entry.methods.add(route.method);
      methodsByPath.set(shape, entry);
    }
  }
  for (const { url, methods } of methodsByPath.values()) {
    const others = ALL_METHODS.filter((m) => !methods.has(m));
    if (others.length === 0) continue;
    const allow = ALL_METHODS.filter((m) => methods.has(m)).join(', ');
    app.route({
      method: others,
      url,
      handler: async (_req, reply) => {
        reply.header('allow', allow);
        throw methodNotAllowed(allow);
      },
    });
  }
  const predefined = predefinedRoute(byName, wire);
  for (const url of ['/api/:operation', '/json/reply/:operation']) app.route({ method: [...ALL_METHODS], url, handler: predefined });
  app.route({ method: [...ALL_METHODS], url: '/json/oneway/:operation', handler: predefinedRoute(byName, wire, true) });
}
