import { request } from 'node:http';
import { authHeaders } from './load.js';

const NEEDLE = Buffer.from('{"CustomerId":');

export interface StreamResult {
  readonly customers: number;
  readonly bytes: number;
  readonly seconds: number;
  readonly status: number;
  /** Whether the body ended with the closing bracket of the array. */
  readonly complete: boolean;
}

/**
 * Reads one whole-table sync (`GET /customer/`) and counts the customers in the bytes as they
 * arrive, without parsing: the client must not be the bottleneck of what it measures.
 */
export function readSync(baseUrl: string, path = '/customer/', maxSeconds = Infinity): Promise<StreamResult> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const req = request(`${baseUrl}${path}`, { headers: authHeaders() }, (res) => {
      const finish = (): void =>
        resolve({ customers, bytes, seconds: (performance.now() - started) / 1000, status: res.statusCode ?? 0, complete: last === 0x5d });
      // A time cap for tables too big to read whole: the partial count still gives the rate.
      const cap = Number.isFinite(maxSeconds) ? setTimeout(() => (res.destroy(), finish()), maxSeconds * 1000) : undefined;
      let customers = 0;
      let bytes = 0;
      let tail: Buffer = Buffer.alloc(0);
      let last = 0;
      res.on('data', (chunk: Buffer) => {
        bytes += chunk.length;
        // Keep the end of the previous chunk so that a needle split across chunks is still found.
        const buf = tail.length > 0 ? Buffer.concat([tail, chunk]) : chunk;
        let at = buf.indexOf(NEEDLE);
        while (at !== -1) {
          customers++;
          at = buf.indexOf(NEEDLE, at + NEEDLE.length);
        }
        tail = buf.subarray(Math.max(0, buf.length - (NEEDLE.length - 1)));
        last = buf[buf.length - 1] ?? last;
      });
      res.on('end', () => {
        clearTimeout(cap);
        finish();
      });
      // After the cap has resolved, the error of the destroyed response changes nothing.
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}
