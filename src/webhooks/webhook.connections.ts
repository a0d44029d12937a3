import { Agent as HttpAgent } from 'node:http';
import { Agent as HttpsAgent } from 'node:https';

/**
 * Idle connections are closed after this long: below the 5 s that Node's and most servers' keep-alive
 * timeouts default to, so that a connection is rarely reused just as the receiver closes it.
 */
const IDLE_MS = 4_000;

/**
 * The keep-alive connections of one dispatcher to its receivers: a fresh TCP (and TLS) handshake
 * per delivery cost more than the delivery itself. `perHost` bounds the connections to one receiver
 * (the dispatcher's attempts in flight per endpoint). The SSRF guard still sees every connection:
 * its lookup runs whenever a new one is made, and a kept one stays with the address it was checked
 * against.
 */
export class WebhookConnections {
  readonly #http: HttpAgent;
  readonly #https: HttpsAgent;

  constructor(perHost: number) {
    const options = { keepAlive: true, maxSockets: perHost, maxFreeSockets: perHost, scheduling: 'lifo' as const, timeout: IDLE_MS };
    this.#http = new HttpAgent(options);
    this.#https = new HttpsAgent(options);
  }

  agentFor(url: URL): HttpAgent {
    return url.protocol === 'https:' ? this.#https : this.#http;
  }

  /** Closes every connection (at shutdown). */
  close(): void {
    this.#http.destroy();
    this.#https.destroy();
  }
}
