import type { Writable } from 'node:stream';
import type { FastifyServerOptions } from 'fastify';
import type { Config } from '../config.js';

// Defence in depth: bodies and headers are never logged, but an error message may quote a value a
// client sent (a driver error naming the offending input, say). Every line is scrubbed of e-mail
// addresses, IBAN-shaped tokens and API keys before it leaves the process.
const EMAIL = /[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)+/g;
const IBAN = /\b[A-Z]{2}\d{2}(?: ?[A-Z0-9]){11,30}\b/g;
const API_KEY = /\bog_[A-Za-z0-9_-]{16,}/g;

/** Masks e-mail addresses, IBANs and API keys in one log line. */
export function scrubLogLine(line: string): string {
  return line.replace(EMAIL, '[email]').replace(IBAN, '[iban]').replace(API_KEY, '[key]');
}

/**
 * A BIC (ISO 9362: bank code 4 letters, country 2 letters, location 2 letters or digits, optional
 * branch 3 letters or digits) standing as a whole path segment or list item, optionally followed by an
 * extension (`.json`). In free text such a token is too much like an ordinary word or code to
 * mask; in a path it is an identifier the client chose, and a BIC-shaped one is masked.
 */
const PATH_BIC = /(?<=[/,;])[A-Z]{6}[A-Z0-9]{2}(?:[A-Z0-9]{3})?(?=$|[/,;]|\.[A-Za-z0-9]+(?:$|[/,;]))/g;

/**
 * The path as the scrubber must see it: percent-escapes decoded, so that an e-mail or IBAN sent
 * encoded in a path segment (`jane%40example.org`, `DE89%203704…`) is masked too, and BIC-shaped
 * segments masked here (the line scrubber does not know where a path starts). Runs of escapes are
 * decoded one by one, so a malformed escape elsewhere in the path does not stop the rest.
 */
export function loggedPath(url: string): string {
  const path = url.split('?')[0] ?? '';
  const decoded = path.includes('%')
    ? path.replace(/(?:%[0-9A-Fa-f]{2})+/g, (run) => {
        try {
          // A decoded `?` would read as the start of a query string, which is never logged.
          return decodeURIComponent(run).replace(/\?/g, '%3F');
        } catch {
          return run;
        }
      })
    : path;
  return decoded.replace(PATH_BIC, '[bic]');
}

interface LoggedRequest {
  method: string;
  url: string;
  ip?: string;
}

interface LoggedError {
  name?: string;
  message?: string;
  stack?: string;
  code?: unknown;
  kind?: unknown;
}

/**
 * Pino options for the service: no query strings (they may carry search terms or `?apikey=`), no
 * headers, and errors reduced to type, code, message and stack (driver errors carry `detail` and
 * `parameters` fields that quote stored values).
 */
export function loggerOptions(config: Pick<Config, 'logLevel'>, stream: Writable | undefined): NonNullable<FastifyServerOptions['logger']> {
  return {
    level: config.logLevel,
    ...(stream ? { stream } : {}),
    redact: { paths: ['req.headers.authorization', 'headers.authorization', '*.authorization'], censor: '[redacted]' },
    hooks: { streamWrite: scrubLogLine },
    serializers: {
      req: (req: LoggedRequest) => ({ method: req.method, url: loggedPath(req.url), remoteAddress: req.ip }),
      err: (err: LoggedError) => ({
        type: err.name ?? 'Error',
        message: err.message ?? '',
        ...(typeof err.code === 'string' ? { code: err.code } : {}),
        ...(typeof err.kind === 'string' ? { kind: err.kind } : {}),
        stack: err.stack ?? '',
      }),
    },
  };
}
