import assert from 'node:assert/strict';
import { connect, type Socket } from 'node:net';
import { test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { BODY_LIMIT } from '../../src/app.js';
import { describeOnce } from '../helpers/test-app.js';
import { parseRawResponse, rawRequest, type RawResponse } from '../helpers/raw-http.js';

/** A connection that sends `head` and then one byte of `trickle` every `everyMs`, until the server closes it. */
function slowClient(
  port: number,
  head: string,
  trickle: string,
  everyMs: number,
): { done: Promise<{ response: RawResponse; ms: number }>; socket: Socket } {
  const socket = connect({ port, host: '127.0.0.1' });
  const started = Date.now();
  const chunks: Buffer[] = [];
  let timer: NodeJS.Timeout | undefined;
  socket.on('data', (c: Buffer) => chunks.push(c));
  socket.on('error', () => undefined);
  socket.once('connect', () => {
    socket.write(head);
    let i = 0;
    timer = setInterval(() => {
      if (!socket.writable) return;
      socket.write(trickle[i % trickle.length]!);
      i++;
    }, everyMs);
  });
  const done = new Promise<{ response: RawResponse; ms: number }>((resolve) => {
    socket.once('close', () => {
      clearInterval(timer);
      resolve({ response: parseRawResponse(Buffer.concat(chunks).toString('utf8')), ms: Date.now() - started });
    });
  });
  return { done, socket };
}

function assertTimedOut({ response, ms }: { response: RawResponse; ms: number }, limitMs: number): void {
  // Cut at the limit, within the once-a-second check and some slack for a busy machine.
  assert.ok(ms >= limitMs - 50 && ms < limitMs + 4_000, `closed after ${ms} ms (limit ${limitMs} ms)`);
  assert.equal(response.status, 408, JSON.stringify(response));
  assert.equal(JSON.parse(response.body).ResponseStatus.ErrorCode, 'RequestTimeout');
}

describeOnce('slow clients and request limits over real sockets', (t) => {
  let port = 0;
  const listening = async (): Promise<number> => {
    if (port === 0) {
      await t().app.listen({ port: 0, host: '127.0.0.1' });
      port = (t().app.server.address() as { port: number }).port;
    }
    return port;
  };
  const auth = () => `Authorization: Bearer ${t().keys.admin}\r\n`;

  test('the server is configured with header and request limits that Node checks every second', async () => {
    await listening();
    assert.equal(t().app.server.headersTimeout, 10_000);
    assert.equal(t().app.server.requestTimeout, 30_000);
  });

  test('headers sent byte by byte, and a body that never ends, are cut off with 408 while other clients are served', async () => {
    const p = await listening();
    // The limits are lowered on this server only, so that the test takes seconds, not half a minute.
    t().app.server.headersTimeout = 1_000;
    t().app.server.requestTimeout = 2_000;
    try {
      const slowHeaders = Array.from({ length: 20 }, () =>
        slowClient(p, `GET /customer/ HTTP/1.1\r\nHost: x\r\n${auth()}`, 'X-Slow: abcdefghijklmnop\r\n', 100),
      );
      const slowBody = Array.from({ length: 20 }, () =>
        slowClient(
          p,
          `POST /customer/ HTTP/1.1\r\nHost: x\r\n${auth()}Content-Type: application/json\r\nContent-Length: 100000\r\n\r\n{"Identifiers":[`,
          '"x",',
          100,
        ),
      );
      // Meanwhile every ordinary request is answered at once.
      for (let i = 0; i < 10; i++) {
        const started = Date.now();
        const res = await fetch(`http://127.0.0.1:${p}/customer/?Identifiers=x`, {
          headers: { authorization: `Bearer ${t().keys.admin}` },
        });
        assert.equal(res.status, 200);
        assert.deepEqual(await res.json(), []);
        assert.ok(Date.now() - started < 1_000, `answered in ${Date.now() - started} ms`);
        await sleep(100);
      }
      for (const c of slowHeaders) assertTimedOut(await c.done, 1_000);
      for (const c of slowBody) assertTimedOut(await c.done, 2_000);
    } finally {
      t().app.server.headersTimeout = 10_000;
      t().app.server.requestTimeout = 30_000;
    }
  });

  test('a connection that opens and sends nothing does not hold the server up', async () => {
    const p = await listening();
    const idle = Array.from({ length: 50 }, () => connect({ port: p, host: '127.0.0.1' }).on('error', () => undefined));
    try {
      const res = await fetch(`http://127.0.0.1:${p}/health/live`);
      assert.equal(res.status, 200);
    } finally {
      for (const s of idle) s.destroy();
    }
  });

  test('a body over 1 MiB gets 413 in the ResponseStatus shape: with Content-Length at once, chunked when it passes the limit', async () => {
    const p = await listening();
    const big = `{"Identifiers":["${'x'.repeat(BODY_LIMIT)}"]}`;
    const declared = await rawRequest(
      p,
      `POST /customer/ HTTP/1.1\r\nHost: x\r\n${auth()}Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(big)}\r\nConnection: close\r\n\r\n${big}`,
    );
    assert.equal(declared.status, 413, JSON.stringify(declared).slice(0, 300));
    assert.equal(JSON.parse(declared.body).ResponseStatus.ErrorCode, 'RequestEntityTooLarge');
    const chunk = (s: string) => `${Buffer.byteLength(s).toString(16)}\r\n${s}\r\n`;
    const chunked = await rawRequest(
      p,
      `POST /customer/ HTTP/1.1\r\nHost: x\r\n${auth()}Content-Type: application/json\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n` +
        chunk(big.slice(0, 600_000)) +
        chunk(big.slice(600_000)) +
        '0\r\n\r\n',
    );
    assert.equal(chunked.status, 413, JSON.stringify(chunked).slice(0, 300));
    assert.equal(JSON.parse(chunked.body).ResponseStatus.ErrorCode, 'RequestEntityTooLarge');
    // Just under the limit is read (and then judged by the validators: the identifier is too long).
    const under = `{"Identifiers":["${'x'.repeat(BODY_LIMIT - 100)}"]}`;
    const fits = await rawRequest(
      p,
      `POST /customer/ HTTP/1.1\r\nHost: x\r\n${auth()}Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(under)}\r\nConnection: close\r\n\r\n${under}`,
    );
    assert.equal(fits.status, 400, fits.body.slice(0, 300));
    assert.equal(JSON.parse(fits.body).ResponseStatus.Errors[0].FieldName, 'Identifiers[0]');
  });

  test('headers over the size limit get 431 in the ResponseStatus shape', async () => {
    const p = await listening();
    const res = await rawRequest(
      p,
      `GET /customer/ HTTP/1.1\r\nHost: x\r\n${auth()}X-Big: ${'y'.repeat(20_000)}\r\nConnection: close\r\n\r\n`,
    );
    assert.equal(res.status, 431);
    assert.equal(JSON.parse(res.body).ResponseStatus.ErrorCode, 'RequestHeaderFieldsTooLarge');
  });
});
