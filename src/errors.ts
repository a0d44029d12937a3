/** One failing field, in FluentValidation's terms (ErrorCode such as NotEmpty, Email, Length). */
export interface FieldError {
  readonly errorCode: string;
  readonly fieldName: string;
  readonly message: string;
}

/**
 * Domain errors with stable codes. They know nothing of HTTP: the wire layer maps each kind to a
 * status in one place (wire/error-response.ts).
 */
export type ErrorKind =
  | 'validation'
  | 'serialization'
  | 'unauthenticated'
  | 'forbidden'
  | 'not-found'
  | 'method-not-allowed'
  | 'not-acceptable'
  | 'conflict'
  | 'precondition-failed'
  | 'gone'
  | 'unprocessable'
  | 'payload-too-large'
  | 'uri-too-long'
  | 'unsupported-media-type'
  | 'rate-limited'
  | 'unavailable'
  | 'internal';

/**
 * Every error code the service answers with, each with its kind. Validation failures carry the
 * code of their first field failure instead (NotEmpty, Length, …; see wire/field-rules.ts).
 */
const CODES = {
  ValidationException: 'validation',
  SerializationException: 'serialization',
  BadRequest: 'serialization',
  Unauthorized: 'unauthenticated',
  Forbidden: 'forbidden',
  NotFound: 'not-found',
  MethodNotAllowed: 'method-not-allowed',
  NotImplementedException: 'method-not-allowed',
  NotAcceptable: 'not-acceptable',
  DuplicateOrderNumber: 'conflict',
  ExternalIdTaken: 'conflict',
  AlreadyConfirmed: 'conflict',
  OrderCancelled: 'conflict',
  OrderNotOpen: 'conflict',
  OrderNotConfirmed: 'conflict',
  OrderShipped: 'conflict',
  NothingToShip: 'conflict',
  FieldTypeImmutable: 'conflict',
  AllowedValueInUse: 'conflict',
  IdempotencyKeyInUse: 'conflict',
  LastAdminKey: 'conflict',
  PreconditionFailed: 'precondition-failed',
  EventsExpired: 'gone',
  ForbiddenUrl: 'validation',
  IdempotencyKeyReused: 'unprocessable',
  RequestEntityTooLarge: 'payload-too-large',
  RequestHeaderFieldsTooLarge: 'payload-too-large',
  UriTooLong: 'uri-too-long',
  UnsupportedMediaType: 'unsupported-media-type',
  TooManyRequests: 'rate-limited',
  ServiceUnavailable: 'unavailable',
  RequestTimeout: 'unavailable',
  InternalServerError: 'internal',
} as const satisfies Record<string, ErrorKind>;

export type ErrorCode = keyof typeof CODES;

export class AppError extends Error {
  constructor(
    readonly kind: ErrorKind,
    readonly code: string,
    message: string,
    readonly fieldErrors: readonly FieldError[] = [],
  ) {
    super(message);
    this.name = 'AppError';
  }
}

/** A declared error: call it to make one; its code and kind are readable without making one. */
export interface ErrorType<A extends unknown[]> {
  (...args: A): AppError;
  readonly code: ErrorCode;
  readonly kind: ErrorKind;
}

/**
 * Declares an error once: its code, its message template and, for a conflict about one property,
 * the field it names in Errors (so that `fieldError()` in ServiceStack clients finds it). The same
 * idea as @fastify/error's createError.
 */
function declare<A extends unknown[]>(code: ErrorCode, message: (...args: A) => string, field?: string): ErrorType<A> {
  const kind = CODES[code];
  const make = (...args: A): AppError => {
    const text = message(...args);
    return new AppError(kind, code, text, field ? [{ errorCode: code, fieldName: field, message: text }] : []);
  };
  return Object.assign(make, { code, kind });
}

/** Several field failures at once; the first one also becomes the top-level code and message. */
export class ValidationError extends AppError {
  constructor(fieldErrors: readonly FieldError[]) {
    const first = fieldErrors[0];
    super(CODES.ValidationException, first?.errorCode ?? 'ValidationException', first?.message ?? 'Validation failed', fieldErrors);
  }
}

/** A value that cannot be bound to its property's type, such as OrderId=abc. */
export class SerializationError extends AppError {
  /** Also the code of each of its field entries. */
  static readonly CODE: ErrorCode = 'SerializationException';

  constructor(operation: string, fieldErrors: readonly FieldError[]) {
    super(CODES.SerializationException, SerializationError.CODE, `Unable to bind to request '${operation}'`, fieldErrors);
  }
}

/** A request whose field failures are known only after reading the store (one failure, one field). */
const fieldFailure = (errorCode: string, fieldName: string, message: string): ValidationError =>
  new ValidationError([{ errorCode, fieldName, message }]);

// Not found
export const orderNotFound = declare('NotFound', (orderId: number) => `Order ${orderId} does not exist`);
export const customerNotFound = declare('NotFound', (customerId: string) => `Customer '${customerId.slice(0, 100)}' not found`);
export const keyNotFound = declare('NotFound', (id: string) => `API key '${id.slice(0, 100)}' does not exist`);
export const lastAdminKey = declare(
  'LastAdminKey',
  (id: string) => `Key '${id.slice(0, 100)}' is the last unrevoked key with the 'admin' permission; create another one first`,
);
export const webhookNotFound = declare('NotFound', (id: string) => `Webhook endpoint '${id.slice(0, 100)}' does not exist`);
export const customFieldNotDefined = declare('NotFound', (number: number | undefined) => `Custom field ${number} is not defined`);
export const routeNotFound = declare('NotFound', (method: string, path: string) => `Handler for Request not found: ${method} ${path}`);
export const operationNotFound = declare('NotFound', (metadataPath: string) => `No such operation; ${metadataPath} lists them all`);

// Conflicts and refusals of the domain
export const duplicateOrderNumber = declare('DuplicateOrderNumber', () => 'Another order already has this OrderNumber', 'OrderNumber');
export const externalIdTaken = declare('ExternalIdTaken', () => 'Another customer already has this ExternalId', 'ExternalId');
export const orderCancelled = declare('OrderCancelled', (orderId: number) => `Order ${orderId} is cancelled and cannot be confirmed`);
export const orderNotOpen = declare(
  'OrderNotOpen',
  (orderId: number, status: string) => `Order ${orderId} is ${status.toLowerCase()}; only an open order can be updated`,
);
export const alreadyConfirmed = declare(
  'AlreadyConfirmed',
  (orderId: number) => `Order ${orderId} is already confirmed with different data`,
);
export const fieldTypeImmutable = declare(
  'FieldTypeImmutable',
  (number: number, fieldType: string) => `Custom field ${number} has values: its FieldType stays ${fieldType}`,
  'FieldType',
);
export const allowedValueInUse = declare(
  'AllowedValueInUse',
  (values: readonly string[]) => `Allowed values still in use cannot be removed: ${values.join(', ')}`,
  'AllowedValues',
);
export const idempotencyKeyInUse = declare(
  'IdempotencyKeyInUse',
  (header: string) => `A request with this ${header} is still being processed; retry it later`,
);
export const idempotencyKeyReused = declare(
  'IdempotencyKeyReused',
  (header: string) => `This ${header} was already used with a different request`,
);
export const eventsExpired = declare(
  'EventsExpired',
  (purgedThrough: number) =>
    `Events up to Sequence ${purgedThrough} are no longer kept; resync, then follow the feed from a newer Sequence`,
  'After',
);
export const forbiddenUrl = declare('ForbiddenUrl', (reason: string) => `The webhook URL is not allowed: ${reason}`, 'Url');
export const customFieldsChanged = declare(
  'PreconditionFailed',
  () => 'The custom fields changed since they were read: read them again (If-Match does not match the current ETag)',
);
export const orderNotConfirmed = declare(
  'OrderNotConfirmed',
  (orderId: number, status: string) => `Order ${orderId} is ${status.toLowerCase()}: only a confirmed order records this`,
);
/** An amount with more decimals than the order's currency has (known only once the order is read). */
export const amountBeyondCurrency = (field: string, currency: string, digits: number): ValidationError =>
  fieldFailure('ScalePrecision', field, `'${field}' must not have more than ${digits} decimals in ${currency}.`);
/** A refund of more than was paid and not yet refunded. */
export const amountAboveRefundable = (field: string, refundable: string): ValidationError =>
  fieldFailure('LessThanOrEqual', field, `'${field}' must be less than or equal to '${refundable}' (what was paid and not yet refunded).`);
export const orderShipped = declare(
  'OrderShipped',
  (orderId: number) => `Order ${orderId} has shipments and cannot be cancelled: record a return instead`,
);
export const nothingToShip = declare('NothingToShip', (orderId: number) => `Every quantity of order ${orderId} is shipped already`);
export const unknownCustomerId = (): ValidationError =>
  fieldFailure('Predicate', 'CustomerId', "'CustomerId' does not name an existing customer.");

// Access
/** 401: no key sent, or (`sent`) a key that is unknown or revoked; the key itself is never echoed. */
export const unauthenticated = declare('Unauthorized', (sent = false) =>
  sent
    ? 'The API key sent is unknown or has been revoked'
    : 'Authentication required: send an API key as a Bearer token or as the Basic user name',
);
export const missingPermission = declare('Forbidden', (permission: string) => `This API key lacks the '${permission}' permission`);
/** Read-only custom fields written without `admin`: one entry per field, the first one's message on top. */
export const readOnlyFields = (fields: readonly FieldError[]): AppError =>
  new AppError(CODES.Forbidden, missingPermission.code, fields[0]?.message ?? 'Read-only fields', fields);
export const keyRateLimited = declare('TooManyRequests', (seconds: number) => `Rate limit of this API key exceeded, retry in ${seconds} s`);
export const addressRateLimited = declare(
  'TooManyRequests',
  (seconds: number) => `Too many failed authentications from this address, retry in ${seconds} s`,
);

// The request as HTTP
export const unknownOperation = declare('NotImplementedException', () => 'The operation does not exist for this service');
export const methodNotAllowed = declare('MethodNotAllowed', (allow: string) => `This route accepts ${allow}`);
export const formatNotServed = declare('NotAcceptable', (format: string) => `The format '${format.slice(0, 60)}' is not served; use JSON`);
export const bodyTooLarge = declare('RequestEntityTooLarge', () => 'The request body is larger than the limit');
export const requestTooLarge = declare('RequestEntityTooLarge', () => 'The request is larger than the limit');
export const headersTooLarge = declare('RequestHeaderFieldsTooLarge', () => 'The request headers are larger than the limit');
export const mediaTypeNotRead = declare('UnsupportedMediaType', () => 'Send JSON (application/json or text/plain) or a form');
export const unsupportedMediaType = declare('UnsupportedMediaType', () => 'Unsupported media type');
export const invalidJsonBody = declare('SerializationException', () => 'The request body is not valid JSON');
export const unreadableUrl = declare('SerializationException', () => 'The request URL cannot be read');
export const pathSegmentTooLong = declare('UriTooLong', () => 'A path segment is longer than the limit');
export const requestTimeout = declare('RequestTimeout', () => 'The request took too long to arrive');
export const invalidHttp = declare('BadRequest', () => 'The request is not valid HTTP');
export const internalError = declare('InternalServerError', () => 'An unexpected error occurred');

/** The store cannot be reached or cannot write (outage, disk full, read-only file). */
export const unavailable = declare('ServiceUnavailable', (message?: string) => message ?? 'The store is unavailable, try again shortly');
