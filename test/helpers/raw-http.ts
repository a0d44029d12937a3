import { connect } from 'node:net';

export interface RawResponse {
  readonly status: number;
  readonly headers: Record<string, string>;
  readonly body: string;
}

/** Parses one HTTP/1.1 response (Content-Length or connection-close framed; not chunked). */
export function parseRawResponse(text: string): RawResponse {
  const end = text.indexOf('\r\n\r\n');
  const head = end === -1 ? text : text.slice(0, end);
  const [statusLine = '', ...lines] = head.split('\r\n');
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  const body = end === -1 ? '' : text.slice(end + 4);
  const length = headers['content-length'];
  return {
    status: Number(statusLine.split(' ')[1]),
    headers,
    body: length === undefined ? body : Buffer.from(body).subarray(0, Number(length)).toString(),
  };
}

/**
 * Sends bytes exactly as given over a new TCP connection and resolves with what came back when the
 * server closes the connection (send `Connection: close`) or after `timeoutMs`.
 */
export function rawRequest(port: number, data: string | Buffer, timeoutMs = 5000, host = '127.0.0.1'): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const socket = connect({ port, host });
    const chunks: Buffer[] = [];
    const done = (): void => resolve(parseRawResponse(Buffer.concat(chunks).toString('utf8')));
    const timer = setTimeout(() => {
      socket.destroy();
      done();
    }, timeoutMs);
    socket.on('data', (c: Buffer) => chunks.push(c));
    socket.on('error', (err) => {
      clearTimeout(timer);
      if (chunks.length > 0) done();
      else reject(err);
    });
    socket.on('close', () => {
      clearTimeout(timer);
      done();
    });
    socket.write(data);
  });
}

/** One HTTP request on a fresh connection (no keep-alive), for tests against spawned servers. */
export async function httpRequest(
  url: string,
  options: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }> {
  const { request } = await import('node:http');
  return new Promise((resolve, reject) => {
    const req = request(url, { method: options.method ?? 'GET', headers: options.headers, agent: false }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(options.body);
  });
}
