import type { TObject, TSchema, Static } from '@sinclair/typebox';
import type { FastifyBaseLogger } from 'fastify';
import type { AuthenticatedKey, Requirement } from '../auth/index.js';
import type { DateStyle } from './dates.js';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** A custom route of an operation; `{Name}` marks a path variable, as in ServiceStack's [Route]. */
export interface RouteDef {
  readonly method: HttpMethod;
  readonly path: string;
}

/** What a handler may know of and do to its HTTP exchange, without seeing Fastify. */
export interface OperationCall {
  readonly key: AuthenticatedKey;
  /** Fields the JSON body alone carried (bound and typed), for rules comparing body and path. */
  readonly bodyFields: Readonly<Record<string, unknown>> | undefined;
  readonly dateStyle: DateStyle;
  readonly log: FastifyBaseLogger;
  header(name: string): string | undefined;
  setHeader(name: string, value: string): void;
  setStatus(code: number): void;
  /** Resolves when the client goes away, so long work can stop early. */
  readonly signal: AbortSignal;
}

/**
 * A response array produced chunk by chunk (as the store reads it) and streamed to the client with
 * constant memory: one turn of the stream per chunk, not per item. `view` makes each item's response
 * value from the chunk's element just before it is written, so that only a few views are alive at
 * a time: a whole chunk of views outlives the young generation of the heap and costs collections.
 */
export class StreamedArray<R = unknown, T = unknown> {
  constructor(
    /** The chunks, read as they are sent: `text` when the items will be written by defaultText. */
    readonly chunks: (writtenAs: 'view' | 'text') => AsyncIterable<readonly R[]>,
    readonly view: (element: R) => T = (element) => element as unknown as T,
    /**
     * The item's JSON text in the wire's default form (PascalCase keys, WCF dates), where the
     * operation can write it cheaper than the serializer writes the view; used for that form only.
     */
    readonly defaultText?: (element: R) => string,
  ) {}
}

/**
 * A response value made only when it is written, with the JSON text the operation kept for the
 * wire's default form (PascalCase keys, WCF dates; undefined where it kept none): that form is sent
 * as the text, every other form is written from `view()`.
 */
export class KeptText<T = unknown> {
  constructor(
    readonly view: () => T,
    readonly defaultText: string | undefined,
  ) {}
}

/** One operation of the service: its name (for predefined routes), routes, permission and schemas. */
export interface Operation<Req extends TObject = TObject, Res extends TSchema = TSchema> {
  readonly name: string;
  readonly summary: string;
  readonly description?: string;
  readonly tag: string;
  readonly routes: readonly RouteDef[];
  /** What the calling key needs: a permission, or `any` valid key. */
  readonly permission: Requirement;
  readonly request: Req;
  readonly response: Res;
  /** A top-level JSON array body binds to this request property (e.g. a PATCH sent as `[{…}]`). */
  readonly arrayBody?: string;
  /**
   * A valid request, shown by /openapi.json, /docs (try-it-out starts from it) and /metadata: the
   * request's fields by their PascalCase names, path variables included. Without it the samples are
   * made up from the schemas.
   */
  readonly example?: Readonly<Record<string, unknown>>;
  /** When the operation answers 404: what the path named that does not exist (documented in OpenAPI). */
  readonly notFound?: string;
  /**
   * The operation writes what the replica-served reads show: a success carries X-Write-Watermark,
   * which a later read sends as X-Min-Watermark to see the write (wire/read-your-writes.ts).
   */
  readonly writeWatermark?: boolean;
  /** Status of a success; 200 unless said otherwise (the handler may still set another). */
  readonly successStatus?: number;
  /** Other statuses of a success that the handler sets (call.setStatus), each with what it means (documented in OpenAPI). */
  readonly otherSuccess?: Readonly<Record<number, string>>;
  // eslint-disable-next-line @typescript-eslint/no-redundant-type-constituents -- names the answers the wire treats specially
  handle(request: Static<Req>, call: OperationCall): Promise<Static<Res> | StreamedArray | KeptText | unknown>;
}

/** Identity helper that keeps the request type of a handler tied to its schema. */
export const defineOperation = <Req extends TObject, Res extends TSchema>(op: Operation<Req, Res>): Operation<Req, Res> => op;

// Operations of different schemas live in one table; the handler types are checked at definition.
// The table keeps the schemas typed: only the handler's request type (a parameter) needs `any`.
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a handler of any one request type must fit the table
export type AnyOperation = Omit<Operation<any, any>, 'request' | 'response'> & { readonly request: TObject; readonly response: TSchema };
