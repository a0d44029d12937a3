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
  | 'unprocessable'
  | 'payload-too-large'
  | 'uri-too-long'
  | 'unsupported-media-type'
  | 'rate-limited'
  | 'unavailable'
  | 'internal';

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

/** Several field failures at once; the first one also becomes the top-level code and message. */
export class ValidationError extends AppError {
  constructor(fieldErrors: readonly FieldError[]) {
    const first = fieldErrors[0];
    super('validation', first?.errorCode ?? 'ValidationException', first?.message ?? 'Validation failed', fieldErrors);
  }
}

/** A value that cannot be bound to its property's type, such as OrderId=abc. */
export class SerializationError extends AppError {
  constructor(operation: string, fieldErrors: readonly FieldError[]) {
    super('serialization', 'SerializationException', `Unable to bind to request '${operation}'`, fieldErrors);
  }
}

export const notFound = (message: string): AppError => new AppError('not-found', 'NotFound', message);
export const conflict = (message: string, code = 'Conflict', fieldName?: string): AppError =>
  new AppError('conflict', code, message, fieldName ? [{ errorCode: code, fieldName, message }] : []);

/** The store cannot be reached or cannot write (outage, disk full, read-only file). */
export const unavailable = (message = 'The store is unavailable, try again shortly'): AppError =>
  new AppError('unavailable', 'ServiceUnavailable', message);
