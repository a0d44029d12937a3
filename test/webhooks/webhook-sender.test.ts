import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { Webhook } from 'standardwebhooks';
import { newWebhookSecret } from '../../src/webhook-settings/webhook-secret.js';
import { signatureHeaders } from '../../src/webhooks/webhook.signature.js';
import { WebhookConnections } from '../../src/webhooks/webhook.connections.js';
import { sendWebhook, type WebhookAttemptResult } from '../../src/webhooks/webhook.sender.js';
import { ROOT } from '../helpers/root.js';

const VERSION = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;

interface Received {
  readonly method: string | undefined;
  readonly url: string | undefined;
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
}

interface Receiver {
  readonly url: string;
  readonly port: number;
  /** Requests whose body has been read in full (handlers that answer without reading are not listed). */
  readonly received: Received[];
  /** Every request that reached the handler, read or not. */
  hits: number;
  /** TCP connections accepted. */
  connections: number;
  close(): Promise<void>;
}

const receivers: Receiver[] = [];
after(async () => {
  await Promise.all(receivers.map((r) => r.close()));
});

/**
 * A real HTTP receiver on 127.0.0.1. `handler` answers; with `readBody` (default) the body is read
 * and recorded first.
 */
async function receiver(handler: (req: IncomingMessage, res: ServerResponse) => void, readBody = true): Promise<Receiver> {
  const server: Server = createServer((req, res) => {
    r.hits++;
    if (!readBody) return handler(req, res);
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      r.received.push({ method: req.method, url: req.url, headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      handler(req, res);
    });
  });
  server.on('connection', () => r.connections++);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  const r: Receiver = {
    url: `http://127.0.0.1:${port}/hooks/orders`,
    port,
    received: [],
    hits: 0,
    connections: 0,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  receivers.push(r);
  return r;
}

function answer(status: number, headers: Record<string, string> = {}): (req: IncomingMessage, res: ServerResponse) => void {
  return (_req, res) => {
    res.writeHead(status, headers);
    res.end('{"ok":true}');
  };
}

const SECRET = newWebhookSecret();
const EVENT = { Id: 'evt_0001', Type: 'order.confirmed', Data: { OrderNumber: 'A-1001', Customer: 'Zoë Ärger' } };
const BODY = JSON.stringify(EVENT);

/** A signed delivery of BODY to `url`, allowed to reach 127.0.0.1. */
function delivery(url: string, timeoutMs = 5000): Parameters<typeof sendWebhook>[0] {
  return {
    url,
    body: BODY,
    headers: signatureHeaders({ id: EVENT.Id, timestamp: new Date(), body: BODY, secrets: [SECRET] }),
    timeoutMs,
    allowPrivate: true,
  };
}

/** The error text says nothing of the body or the secret. */
function assertQuietError(result: WebhookAttemptResult): void {
  if (result.error === undefined) return;
  assert.ok(result.error.length <= 200, result.error);
  for (const hidden of [BODY, EVENT.Data.OrderNumber, SECRET, SECRET.slice('whsec_'.length)])
    assert.ok(!result.error.includes(hidden), result.error);
}

describe('sending a webhook', () => {
  test('2xx: delivered; a POST of the body with the Standard Webhooks headers, verified by the reference library', async () => {
    const r = await receiver(answer(200));
    const result = await sendWebhook(delivery(r.url));
    assert.equal(result.outcome, 'delivered');
    assert.equal(result.responseCode, 200);
    assert.equal(result.error, undefined);
    assert.ok(result.durationMs >= 0 && result.durationMs < 5000, String(result.durationMs));
    assert.equal(r.received.length, 1);
    const got = r.received[0]!;
    assert.equal(got.method, 'POST');
    assert.equal(got.url, '/hooks/orders');
    assert.equal(got.body, BODY);
    assert.equal(got.headers['content-type'], 'application/json');
    assert.equal(got.headers['user-agent'], `ordergate/${VERSION}`);
    assert.equal(got.headers['content-length'], String(Buffer.byteLength(BODY)));
    assert.equal(got.headers['webhook-id'], EVENT.Id);
    assert.deepEqual(new Webhook(SECRET).verify(got.body, got.headers as Record<string, string>), EVENT);

    const noContent = await receiver(answer(204));
    assert.deepEqual(
      { ...(await sendWebhook(delivery(noContent.url))), durationMs: 0 },
      { outcome: 'delivered', responseCode: 204, durationMs: 0 },
    );
  });

  test('during a rotation the receiver verifies with the new secret and with the old one, each alone', async () => {
    const fresh = newWebhookSecret();
    const r = await receiver(answer(202));
    const headers = signatureHeaders({ id: EVENT.Id, timestamp: new Date(), body: Buffer.from(BODY), secrets: [fresh, SECRET] });
    const result = await sendWebhook({ url: r.url, body: Buffer.from(BODY), headers, timeoutMs: 5000, allowPrivate: true });
    assert.equal(result.outcome, 'delivered');
    const got = r.received[0]!;
    assert.equal(String(got.headers['webhook-signature']).split(' ').length, 2);
    assert.deepEqual(new Webhook(fresh).verify(got.body, got.headers as Record<string, string>), EVENT);
    assert.deepEqual(new Webhook(SECRET).verify(got.body, got.headers as Record<string, string>), EVENT);
  });

  test('500: failed, with the code', async () => {
    const r = await receiver(answer(500));
    const result = await sendWebhook(delivery(r.url));
    assert.equal(result.outcome, 'failed');
    assert.equal(result.responseCode, 500);
    assert.match(result.error ?? '', /500/);
    assertQuietError(result);
  });

  test('410: gone', async () => {
    const r = await receiver(answer(410));
    const result = await sendWebhook(delivery(r.url));
    assert.equal(result.outcome, 'gone');
    assert.equal(result.responseCode, 410);
  });

  test('a redirect is a failure and is not followed', async () => {
    const target = await receiver(answer(200));
    for (const status of [301, 302, 307, 308]) {
      const r = await receiver(answer(status, { location: target.url }));
      const result = await sendWebhook(delivery(r.url));
      assert.equal(result.outcome, 'failed', String(status));
      assert.equal(result.responseCode, status);
      assert.match(result.error ?? '', /redirect .* not followed/);
    }
    // A delivery straight to the target, after the redirects: by its answer, a request that followed
    // one of them would have reached the target first.
    assert.equal((await sendWebhook(delivery(target.url))).outcome, 'delivered');
    assert.equal(target.hits, 1, 'the redirect target got no request but the direct one');
  });

  test('a receiver that never answers: failed at the deadline, and the connection is closed', async () => {
    let closed: Promise<void> | undefined;
    const r = await receiver((req) => {
      closed = new Promise((resolve) => req.socket.on('close', () => resolve()));
    });
    const started = performance.now();
    const result = await sendWebhook(delivery(r.url, 300));
    const elapsed = performance.now() - started;
    assert.equal(result.outcome, 'failed');
    assert.equal(result.responseCode, undefined);
    assert.equal(result.error, 'timeout after 300 ms');
    assert.ok(elapsed >= 290 && elapsed < 2300, `took ${elapsed} ms`);
    assert.ok(result.durationMs >= 290 && result.durationMs < 2300, String(result.durationMs));
    assert.ok(closed, 'the request reached the receiver');
    await closed;
  });

  test('a receiver that accepts the connection but never reads or answers: failed at the deadline', async () => {
    const r = await receiver(() => {}, false);
    const result = await sendWebhook({ ...delivery(r.url, 250), body: 'x'.repeat(8 * 1024 * 1024) });
    assert.equal(result.outcome, 'failed');
    assert.equal(result.error, 'timeout after 250 ms');
    assert.ok(result.durationMs < 2250, String(result.durationMs));
  });

  test('a 50 MB answer: delivered at once, the body is not read', async () => {
    const total = 50 * 1024 * 1024;
    let written = 0;
    let finished!: () => void;
    const done = new Promise<void>((resolve) => (finished = resolve));
    const chunk = Buffer.alloc(64 * 1024, 'a');
    const r = await receiver((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(total) });
      const pump = (): void => {
        while (written < total && !res.destroyed) {
          written += chunk.length;
          if (!res.write(chunk)) return void res.once('drain', pump);
        }
        res.end();
      };
      res.on('close', () => finished());
      pump();
    });
    const result = await sendWebhook(delivery(r.url));
    assert.equal(result.outcome, 'delivered');
    assert.equal(result.responseCode, 200);
    assert.ok(result.durationMs < 3000, String(result.durationMs));
    await done;
    assert.ok(written < total / 2, `the receiver got ${written} bytes out before the connection closed`);
  });

  test('a receiver that destroys the socket: failed', async () => {
    const r = await receiver((req) => req.socket.destroy());
    const result = await sendWebhook(delivery(r.url));
    assert.equal(result.outcome, 'failed');
    assert.equal(result.responseCode, undefined);
    assert.match(result.error ?? '', /connection closed by the receiver/);
    assertQuietError(result);
  });

  test('nothing listening: failed, connection refused', async () => {
    const r = await receiver(answer(200));
    await r.close();
    const result = await sendWebhook(delivery(r.url));
    assert.equal(result.outcome, 'failed');
    assert.equal(result.error, 'connection refused');
  });

  test('without allowPrivate, loopback is refused at connection time, by name and as a literal', async () => {
    const r = await receiver(answer(200));
    for (const url of [
      `http://localhost:${r.port}/`,
      `http://127.0.0.1:${r.port}/`,
      `http://[::ffff:127.0.0.1]:${r.port}/`,
      `http://2130706433:${r.port}/`,
    ]) {
      const result = await sendWebhook({ ...delivery(url), allowPrivate: false });
      assert.equal(result.outcome, 'failed', url);
      assert.equal(result.error, 'host resolves to a private address', url);
    }
    assert.equal(r.hits, 0);
  });

  test('never throws: a bad URL, a bad scheme, a bad header or a bad timeout is a failure', async () => {
    const r = await receiver(answer(200));
    const cases: Parameters<typeof sendWebhook>[0][] = [
      { ...delivery('not a url') },
      { ...delivery('ftp://127.0.0.1/') },
      { ...delivery(r.url), headers: { 'x-bad': `line\r\nbreak ${SECRET}` } },
      { ...delivery(r.url), headers: { 'bad header': 'x' } },
      { ...delivery(r.url), timeoutMs: 0 },
      { ...delivery(r.url), timeoutMs: Number.NaN },
    ];
    for (const c of cases) {
      const result = await sendWebhook(c);
      assert.equal(result.outcome, 'failed', JSON.stringify(c.headers));
      assert.ok(result.error, 'a reason');
      assertQuietError(result);
    }
    assert.equal(r.hits, 0);
  });
});

describe('sending a webhook over kept connections', () => {
  const connections = new WebhookConnections(4);
  after(() => connections.close());
  const kept = (url: string): Parameters<typeof sendWebhook>[0] => ({ ...delivery(url), connections });

  test('attempts one after another share one connection, and each is delivered and verifiable', async () => {
    const r = await receiver(answer(200));
    for (let i = 0; i < 5; i++) assert.equal((await sendWebhook(kept(r.url))).outcome, 'delivered');
    assert.equal(r.connections, 1);
    const wh = new Webhook(SECRET);
    for (const got of r.received) assert.deepEqual(wh.verify(got.body, got.headers as Record<string, string>), EVENT);
  });

  test('attempts at once use at most perHost connections', async () => {
    const r = await receiver(answer(204));
    const results = await Promise.all(Array.from({ length: 12 }, () => sendWebhook(kept(r.url))));
    assert.deepEqual(new Set(results.map((x) => x.outcome)), new Set(['delivered']));
    assert.ok(r.connections <= 4, `${r.connections} connections`);
  });

  test('a kept connection the receiver closed meanwhile: sent again on a new one, delivered', async () => {
    // Answers the first request of each connection; a second one on the same connection finds it closed.
    const served = new WeakSet<object>();
    const r = await receiver((req, res) => {
      if (served.has(req.socket)) return void req.socket.destroy();
      served.add(req.socket);
      answer(200)(req, res);
    });
    assert.equal((await sendWebhook(kept(r.url))).outcome, 'delivered');
    const second = await sendWebhook(kept(r.url));
    assert.equal(second.outcome, 'delivered', second.error);
    assert.equal(r.connections, 2);
  });

  test('a 50 MB answer: delivered at once, its connection is dropped, not read to the end', async () => {
    const total = 50 * 1024 * 1024;
    let written = 0;
    const r = await receiver((_req, res) => {
      res.writeHead(200, { 'content-length': String(total) });
      const chunk = Buffer.alloc(64 * 1024, 'a');
      const pump = (): void => {
        while (written < total && !res.destroyed) {
          written += chunk.length;
          if (!res.write(chunk)) return void res.once('drain', pump);
        }
        res.end();
      };
      pump();
    });
    const first = await sendWebhook(kept(r.url));
    assert.equal(first.outcome, 'delivered');
    assert.equal((await sendWebhook(kept(r.url))).outcome, 'delivered');
    assert.equal(r.connections, 2);
    assert.ok(written < total / 2, `the receiver got ${written} bytes out`);
  });

  test('an answer without a length that goes on and on: delivered, its connection is cut after 64 KiB', async () => {
    let written = 0;
    let closed!: (bytes: number) => void;
    const cut = new Promise<number>((resolve) => (closed = resolve));
    const r = await receiver((_req, res) => {
      res.writeHead(200);
      const chunk = Buffer.alloc(16 * 1024, 'a');
      const timer = setInterval(() => {
        written += chunk.length;
        res.write(chunk);
      }, 1);
      res.on('close', () => {
        clearInterval(timer);
        closed(written);
      });
    });
    assert.equal((await sendWebhook(kept(r.url))).outcome, 'delivered');
    const bytes = await Promise.race([cut, new Promise<string>((resolve) => setTimeout(() => resolve('still open after 2 s'), 2000))]);
    assert.equal(typeof bytes, 'number', String(bytes));
    assert.ok((bytes as number) < 1024 * 1024, `${bytes} bytes written before the cut`);
  });
});
