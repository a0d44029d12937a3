import { request as httpRequest, type ClientRequest, type IncomingMessage, type OutgoingHttpHeaders } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP } from 'node:net';
import { packageVersion } from '../package-version.js';
import { deliveryLookup } from './webhook.dns-cache.js';
import type { WebhookConnections } from './webhook.connections.js';
import { bareHostname, ForbiddenAddressError, guardedLookup, isForbiddenAddress, parseWebhookUrl } from './webhook.url-guard.js';

/** The user-agent of every delivery. */
export const WEBHOOK_USER_AGENT = `ordergate/${packageVersion()}`;

/** WEBHOOK_TIMEOUT_MS's default. */
export const DEFAULT_WEBHOOK_TIMEOUT_MS = 10_000;

/** delivered: a 2xx; gone: 410 (the endpoint is to be disabled); failed: anything else, to be retried. */
export type WebhookOutcome = 'delivered' | 'failed' | 'gone';

export interface WebhookDelivery {
  readonly url: string | URL;
  /** The JSON body, exactly the bytes that were signed. */
  readonly body: string | Buffer;
  /** The webhook-* headers (signatureHeaders); content-type and user-agent are added unless given. */
  readonly headers: Readonly<Record<string, string>>;
  /** The deadline from the start until the receiver's status line and headers are in. */
  readonly timeoutMs: number;
  /** WEBHOOK_ALLOW_PRIVATE. */
  readonly allowPrivate: boolean;
  /** Keep-alive connections to reuse; without, the attempt has a connection of its own. */
  readonly connections?: WebhookConnections;
}

export interface WebhookAttemptResult {
  readonly outcome: WebhookOutcome;
  /** The receiver's status, when it answered. */
  readonly responseCode?: number;
  readonly durationMs: number;
  /** Why it failed, short; never the body, a header value or a secret. */
  readonly error?: string;
}

type Result = Omit<WebhookAttemptResult, 'durationMs'>;

// setTimeout turns a longer delay into 1 ms (with a warning).
const MAX_TIMER_MS = 2 ** 31 - 1;
/** A kept connection is freed for the next attempt only after an answer body this small is read. */
const MAX_DRAINED_BYTES = 64 * 1024;
/** Attempts again on a fresh connection when a kept one turns out closed by the receiver. */
const STALE_CONNECTION_RETRIES = 2;

/**
 * POSTs one delivery attempt and reports how it went; never throws. node:http(s) `request` follows
 * no redirects, so a 3xx is an answer like any other (a failure). The outcome is known once the
 * status is in; an answer body is read only to free a kept connection, and only up to 64 KiB (a
 * receiver that answers with gigabytes loses its connection instead). Without `connections`, each
 * attempt has a connection of its own, closed once the status is in.
 */
export async function sendWebhook(delivery: WebhookDelivery): Promise<WebhookAttemptResult> {
  const started = performance.now();
  let result: Result;
  try {
    result = await attempt(delivery, started);
  } catch (err) {
    result = { outcome: 'failed', error: describeError(err) };
  }
  return { ...result, durationMs: Math.round(performance.now() - started) };
}

async function attempt(delivery: WebhookDelivery, started: number): Promise<Result> {
  const checked = parseWebhookUrl(delivery.url);
  if (!checked.ok) return { outcome: 'failed', error: checked.reason === 'scheme' ? 'not an http(s) URL' : 'not an absolute URL' };
  const url = checked.url;
  // Node skips `lookup` for an IP literal, so the guard's check is made here for those.
  const host = bareHostname(url);
  if (!delivery.allowPrivate && isIP(host) !== 0 && isForbiddenAddress(host)) return { outcome: 'failed', error: PRIVATE_ADDRESS };
  if (!(delivery.timeoutMs > 0)) return { outcome: 'failed', error: `timeoutMs must be positive, got ${delivery.timeoutMs}` };

  const headers: OutgoingHttpHeaders = { 'content-type': 'application/json', 'user-agent': WEBHOOK_USER_AGENT };
  for (const [name, value] of Object.entries(delivery.headers)) headers[name.toLowerCase()] = value;
  headers['content-length'] = Buffer.byteLength(delivery.body);
  // One deadline for lookup, connect, TLS, sending and the response headers, across stale-connection
  // retries: per-phase timeouts would let a slow receiver take several times timeoutMs.
  const deadline = started + delivery.timeoutMs;
  for (let retries = STALE_CONNECTION_RETRIES; ; retries--) {
    const sent = await post(url, delivery, headers, Math.max(1, deadline - performance.now()));
    if (!(sent.stale && retries > 0)) return sent.result;
  }
}

/** `stale`: the request went out on a kept connection that the receiver had closed. */
interface Sent {
  readonly result: Result;
  readonly stale?: boolean;
}

function post(url: URL, delivery: WebhookDelivery, headers: OutgoingHttpHeaders, timeoutMs: number): Promise<Sent> {
  return new Promise((resolve) => {
    let req: ClientRequest | undefined;
    let settled = false;
    const settle = (sent: Sent, keepConnection = false): void => {
      if (settled) return;
      settled = true;
      clearTimeout(deadline);
      if (!keepConnection) req?.destroy();
      resolve(sent);
    };
    const deadline = setTimeout(
      () => settle({ result: { outcome: 'failed', error: `timeout after ${Math.round(delivery.timeoutMs)} ms` } }),
      Math.min(timeoutMs, MAX_TIMER_MS),
    );
    try {
      const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
      const agent = delivery.connections?.agentFor(url) ?? false;
      req = send(url, { method: 'POST', headers, agent, lookup: guardedLookup(delivery.allowPrivate, deliveryLookup) }, (res) => {
        // Destroying the response mid-body may report it as aborted; there is nothing to act on.
        res.on('error', () => {});
        const result = outcomeOfStatus(res.statusCode ?? 0);
        if (agent === false || !(Number(res.headers['content-length'] ?? 0) <= MAX_DRAINED_BYTES)) {
          res.destroy();
          return settle({ result });
        }
        drain(res, delivery.timeoutMs);
        settle({ result }, true);
      });
      req.on('error', (err) => {
        const code = (err as { code?: unknown }).code;
        settle({
          result: { outcome: 'failed', error: describeError(err) },
          stale: req?.reusedSocket === true && (code === 'ECONNRESET' || code === 'EPIPE'),
        });
      });
      req.end(delivery.body);
    } catch (err) {
      // Invalid header names or values throw synchronously.
      settle({ result: { outcome: 'failed', error: describeError(err) } });
    }
  });
}

/** Reads an answer body to its end so that its connection serves the next attempt; a long or slow one is cut. */
function drain(res: IncomingMessage, timeoutMs: number): void {
  let read = 0;
  const cut = setTimeout(() => res.destroy(), Math.min(timeoutMs, MAX_TIMER_MS));
  res.on('data', (chunk: Buffer) => {
    read += chunk.length;
    if (read > MAX_DRAINED_BYTES) res.destroy();
  });
  res.on('close', () => clearTimeout(cut));
}

function outcomeOfStatus(status: number): Result {
  if (status >= 200 && status < 300) return { outcome: 'delivered', responseCode: status };
  if (status === 410) return { outcome: 'gone', responseCode: status, error: 'the receiver answered 410 Gone' };
  if (status >= 300 && status < 400) return { outcome: 'failed', responseCode: status, error: `redirect (${status}) not followed` };
  return { outcome: 'failed', responseCode: status, error: `the receiver answered ${status}` };
}

/** The reason of an attempt refused because its host is (or resolves to) a non-public address. */
export const PRIVATE_ADDRESS = 'host resolves to a private address';

/**
 * Reasons by Node's error codes: short and stable, since operators read them in the deliveries
 * list and may match on them. TLS codes are OpenSSL's (a certificate the receiver's name does not
 * match, one nobody vouches for, one out of date).
 */
const ERROR_TEXTS: Readonly<Record<string, string>> = {
  ECONNREFUSED: 'connection refused',
  ECONNRESET: 'connection closed by the receiver',
  EPIPE: 'connection closed by the receiver',
  ENOTFOUND: 'host not found',
  EAI_AGAIN: 'host lookup failed (temporary)',
  ETIMEDOUT: 'connection timed out',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
  EPROTO: 'TLS handshake failed',
  ERR_SSL_WRONG_VERSION_NUMBER: 'TLS handshake failed (is the receiver speaking plain HTTP?)',
  ERR_TLS_CERT_ALTNAME_INVALID: 'TLS certificate does not name the host',
  CERT_HAS_EXPIRED: 'TLS certificate expired',
  CERT_NOT_YET_VALID: 'TLS certificate not yet valid',
  DEPTH_ZERO_SELF_SIGNED_CERT: 'TLS certificate not trusted (self-signed)',
  SELF_SIGNED_CERT_IN_CHAIN: 'TLS certificate not trusted (self-signed)',
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: 'TLS certificate not trusted',
  UNABLE_TO_GET_ISSUER_CERT_LOCALLY: 'TLS certificate not trusted',
  ERR_TLS_HANDSHAKE_TIMEOUT: 'TLS handshake timed out',
};

/**
 * A short reason. Node's own messages may quote a header value (ERR_HTTP_INVALID_HEADER_VALUE), so
 * beyond the known codes only the code is kept.
 */
function describeError(err: unknown): string {
  if (err instanceof ForbiddenAddressError) return PRIVATE_ADDRESS;
  const code = (err as { code?: unknown } | null)?.code;
  if (typeof code === 'string') return ERROR_TEXTS[code] ?? `request failed (${code.slice(0, 60)})`;
  return 'request failed';
}
