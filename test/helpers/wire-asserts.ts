import assert from 'node:assert/strict';
import type { LightMyRequestResponse } from 'fastify';
import { json } from './test-app.js';

/** Fails when a response text shows a stack trace, SQL, a file path or a framework error code. */
export function assertNoInternals(text: string): void {
  assert.doesNotMatch(text, /\bat .+:\d+:\d+/, 'stack frame in the response');
  assert.doesNotMatch(text, /node_modules|\/srv\/|\/work\/|file:\/\//, 'file path in the response');
  assert.doesNotMatch(text, /\b(select|insert|update|delete)\b[^"]*\b(from|into|set|values)\b/i, 'SQL in the response');
  assert.doesNotMatch(text, /StackTrace|FST_ERR|SQLITE_|ECONNREFUSED|TypeError|SyntaxError/, 'internal detail in the response');
}

export interface ResponseStatusBody {
  ErrorCode: string;
  Message: string;
  Errors: { ErrorCode: string; FieldName: string; Message: string }[];
}

/**
 * Asserts a ServiceStack error response: the status, JSON, exactly `{ResponseStatus:{ErrorCode,
 * Message,Errors}}` (PascalCase), the error code, optionally a field error, and no internals.
 */
export function assertResponseStatus(
  res: LightMyRequestResponse,
  status: number,
  errorCode: string,
  fieldName?: string,
): ResponseStatusBody {
  assert.equal(res.statusCode, status, res.body);
  assert.equal(res.headers['content-type'], 'application/json; charset=utf-8');
  const body = json<{ ResponseStatus: ResponseStatusBody }>(res);
  assert.deepEqual(Object.keys(body), ['ResponseStatus']);
  const rs = body.ResponseStatus;
  assert.deepEqual(Object.keys(rs), ['ErrorCode', 'Message', 'Errors']);
  assert.equal(rs.ErrorCode, errorCode, res.body);
  assert.equal(typeof rs.Message, 'string');
  assert.ok(rs.Message.length > 0);
  assert.ok(Array.isArray(rs.Errors));
  if (fieldName !== undefined) {
    assert.ok(
      rs.Errors.some((e) => e.FieldName === fieldName),
      `no field error for '${fieldName}': ${res.body}`,
    );
  }
  assertNoInternals(res.body);
  return rs;
}
