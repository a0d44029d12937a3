// Errors that mean "the store cannot serve now" rather than "this request is wrong": the service
// answers 503 with Retry-After and recovers by itself when the store comes back.

const SQLITE_UNAVAILABLE = new Set([
  'SQLITE_BUSY', 'SQLITE_LOCKED', 'SQLITE_FULL', 'SQLITE_READONLY', 'SQLITE_IOERR', 'SQLITE_CANTOPEN',
  'SQLITE_PROTOCOL', 'SQLITE_NOLFS',
]);
const NODE_NET = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EHOSTUNREACH', 'EAI_AGAIN']);
// PostgreSQL SQLSTATE classes 08 (connection), 53 (resources), 57 (operator intervention) and
// the read-only transaction error of a standby.
const PG_CLASSES = ['08', '53', '57'];

export function isStoreUnavailable(err: unknown): boolean {
  if (!err || typeof err !== 'object') return false;
  const code = (err as { code?: unknown }).code;
  const message = String((err as { message?: unknown }).message ?? '');
  if (typeof code === 'string') {
    if (SQLITE_UNAVAILABLE.has(code) || [...SQLITE_UNAVAILABLE].some((c) => code.startsWith(c + '_'))) return true;
    if (NODE_NET.has(code)) return true;
    if (/^[0-9A-Z]{5}$/.test(code) && (PG_CLASSES.includes(code.slice(0, 2)) || code === '25006')) return true;
  }
  return /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|connection.*(closed|ended)/i.test(message);
}
