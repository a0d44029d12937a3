// Errors that mean "the store cannot serve now" rather than "this request is wrong": the service
// answers 503 with Retry-After and recovers by itself when the store comes back.

const SQLITE_UNAVAILABLE = new Set([
  'SQLITE_BUSY',
  'SQLITE_LOCKED',
  'SQLITE_FULL',
  'SQLITE_READONLY',
  'SQLITE_IOERR',
  'SQLITE_CANTOPEN',
  'SQLITE_PROTOCOL',
  'SQLITE_NOLFS',
]);
const NODE_NET = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EHOSTUNREACH', 'EAI_AGAIN']);
// PostgreSQL SQLSTATE classes 08 (connection), 28 (authorization), 53 (resources), 57 (operator
// intervention), a database that does not exist (3D000), the read-only error of a standby (25006),
// and a transaction chosen as a deadlock victim or serialization failure (40P01, 40001): nothing was
// written, and the same request sent again succeeds.
const PG_CLASSES = ['08', '28', '53', '57'];
const PG_CODES = new Set(['3D000', '25006', '40P01', '40001']);
// A store handle that was closed under the service: Kysely, better-sqlite3 and pg each say so in words.
const CLOSED = /driver has already been destroyed|database connection is not open|Cannot use a pool after calling end/i;

/** The store, or the write door in front of it, was closed (the process is shutting down). */
export class StoreClosed extends Error {
  readonly code = 'STORE_CLOSED';
  constructor(what: string) {
    super(`${what} is closed`);
    this.name = 'StoreClosed';
  }
}

export function isStoreUnavailable(err: unknown): boolean {
  if (!err || typeof err !== 'object') return false;
  const code = (err as { code?: unknown }).code;
  const message = String((err as { message?: unknown }).message ?? '');
  if (typeof code === 'string') {
    if (SQLITE_UNAVAILABLE.has(code) || [...SQLITE_UNAVAILABLE].some((c) => code.startsWith(c + '_'))) return true;
    if (NODE_NET.has(code) || code === 'STORE_CLOSED') return true;
    if (/^[0-9A-Z]{5}$/.test(code) && (PG_CLASSES.includes(code.slice(0, 2)) || PG_CODES.has(code))) return true;
  }
  if (CLOSED.test(message)) return true;
  return /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|connection.*(closed|ended)/i.test(
    message,
  );
}

/** A PostgreSQL deadlock victim or serialization failure: nothing was written, running it again is safe. */
export const isTransactionConflict = (err: unknown): boolean =>
  ['40P01', '40001'].includes(String((err as { code?: unknown } | null)?.code));

/**
 * A named prepared statement the server connection lacks (26000) or holds already (42P05): a pooler
 * in transaction mode moved the client to another server connection. Nothing was written; the
 * PostgreSQL store then stops naming statements, and the same work sent again succeeds.
 */
export const isPreparedStatementLost = (err: unknown): boolean =>
  ['26000', '42P05'].includes(String((err as { code?: unknown } | null)?.code));
