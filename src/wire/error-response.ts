import {
  AppError,
  ValidationError,
  bodyTooLarge,
  internalError,
  invalidJsonBody,
  mediaTypeNotRead,
  pathSegmentTooLong,
  requestTimeout,
  requestTooLarge,
  unavailable,
  unreadableUrl,
  unsupportedMediaType,
  type ErrorKind,
  type FieldError,
} from '../errors.js';
import { isStoreUnavailable } from '../store/store-errors.js';

const STATUS: Record<ErrorKind, number> = {
  validation: 400,
  serialization: 400,
  unauthenticated: 401,
  forbidden: 403,
  'not-found': 404,
  'method-not-allowed': 405,
  'not-acceptable': 406,
  conflict: 409,
  'precondition-failed': 412,
  'payload-too-large': 413,
  'uri-too-long': 414,
  'unsupported-media-type': 415,
  unprocessable: 422,
  'rate-limited': 429,
  gone: 410,
  unavailable: 503,
  internal: 500,
};

export const statusOf = (err: AppError): number => STATUS[err.kind];

interface FastifyLikeError {
  code?: string;
  statusCode?: number;
  message?: string;
  validation?: ReadonlyArray<{ instancePath?: string; keyword?: string; message?: string; params?: Record<string, unknown> }>;
}

/** FluentValidation codes for the JSON-schema keywords Fastify reports. */
const KEYWORD_CODES: Record<string, string> = {
  required: 'NotNull',
  minLength: 'Length',
  maxLength: 'Length',
  minimum: 'GreaterThanOrEqual',
  maximum: 'LessThanOrEqual',
  exclusiveMinimum: 'GreaterThan',
  exclusiveMaximum: 'LessThan',
  enum: 'Enum',
  pattern: 'RegularExpression',
  format: 'RegularExpression',
  type: 'SerializationException',
};

function schemaErrors(validation: NonNullable<FastifyLikeError['validation']>): FieldError[] {
  return validation.map((v) => {
    const missing = typeof v.params?.missingProperty === 'string' ? `/${v.params.missingProperty}` : '';
    const fieldName = `${v.instancePath ?? ''}${missing}`.replace(/^\//, '').replace(/\//g, '.');
    return { errorCode: KEYWORD_CODES[v.keyword ?? ''] ?? 'Predicate', fieldName, message: `'${fieldName}' ${v.message ?? 'is invalid'}.` };
  });
}

/**
 * Turns anything thrown into a domain error: our own errors pass through, Fastify's framework
 * errors (body parsing, limits, media types, schema validation) are mapped, and everything else
 * becomes an anonymous 500 whose details stay in the log.
 */
export function toAppError(err: unknown): AppError {
  if (err instanceof AppError) return err;
  const e = (err ?? {}) as FastifyLikeError;
  if (e.validation) {
    return new ValidationError(schemaErrors(e.validation));
  }
  switch (e.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return bodyTooLarge();
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return mediaTypeNotRead();
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return invalidJsonBody();
    case 'FST_ERR_MAX_PARAM_LENGTH':
      return pathSegmentTooLong();
    case 'FST_ERR_BAD_URL':
    case 'FST_ERR_ASYNC_CONSTRAINT':
      return unreadableUrl();
  }
  if (err instanceof SyntaxError || (e.statusCode === 400 && /json/i.test(e.message ?? ''))) {
    return invalidJsonBody();
  }
  if (e.statusCode === 413) return requestTooLarge();
  if (e.statusCode === 415) return unsupportedMediaType();
  if (isStoreUnavailable(err)) return unavailable();
  if (e.statusCode === 408) return requestTimeout();
  return INTERNAL;
}

const INTERNAL = Object.freeze(internalError());
export const isInternal = (err: AppError): boolean => err === INTERNAL;

/** ServiceStack's error body; every error response of the service has this shape. */
export function responseStatusBody(err: AppError): Record<string, unknown> {
  return {
    ResponseStatus: {
      ErrorCode: err.code,
      Message: err.message,
      Errors: err.fieldErrors.map((f) => ({ ErrorCode: f.errorCode, FieldName: f.fieldName, Message: f.message })),
    },
  };
}
