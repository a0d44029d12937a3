/**
 * Whether a failed request means that the server process is gone: the connection was refused, reset,
 * or closed by the other side before an answer (undici's UND_ERR_SOCKET, what a killed process's
 * socket looks like to fetch). Anything else (a bad request, an unreadable body, an assertion) is a
 * failure of the test, not the crash it waits for.
 */
export function isServerGone(err: unknown): boolean {
  const codes = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'UND_ERR_SOCKET']);
  for (let e: unknown = err; e instanceof Error; e = e.cause) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && codes.has(code)) return true;
  }
  return false;
}
