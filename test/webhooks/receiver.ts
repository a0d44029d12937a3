import { once } from 'node:events';
import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request a receiver got. */
export interface Received {
  readonly path: string;
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
  readonly at: number;
}

/** How a receiver answers one request (default: 200); it may also hold or break the answer. */
export type Answer = (req: Received, res: ServerResponse) => void | Promise<void>;

/** A real HTTP receiver for webhook tests, on 127.0.0.1. */
export class Receiver {
  readonly received: Received[] = [];
  answer: Answer = (_req, res) => void res.end('ok');
  #server: Server;
  url = '';

  private constructor() {
    this.#server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const got: Received = { path: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8'), at: Date.now() };
        this.received.push(got);
        void Promise.resolve(this.answer(got, res)).catch(() => res.destroy());
      });
    });
  }

  static async start(): Promise<Receiver> {
    const r = new Receiver();
    r.#server.listen(0, '127.0.0.1');
    await once(r.#server, 'listening');
    r.url = `http://127.0.0.1:${(r.#server.address() as AddressInfo).port}/hook`;
    return r;
  }

  /** Waits until `count` requests arrived (or fails after `ms`). */
  async waitFor(count: number, ms = 15_000): Promise<Received[]> {
    const until = Date.now() + ms;
    while (this.received.length < count) {
      if (Date.now() > until) throw new Error(`receiver got ${this.received.length} of ${count} requests in ${ms} ms`);
      await new Promise((r) => setTimeout(r, 20));
    }
    return this.received;
  }

  async close(): Promise<void> {
    this.#server.closeAllConnections();
    this.#server.close();
    await once(this.#server, 'close').catch(() => undefined);
  }
}
