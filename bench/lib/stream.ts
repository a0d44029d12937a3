import { request } from 'node:http';
import { authHeaders } from './load.js';
import type { ServerProcess } from './processes.js';

/** What opens each item of a streamed array: a customer of the sync, an order of the order feed. */
export const CUSTOMER_START = '{"CustomerId":';
export const ORDER_START = '{"OrderId":';

export interface StreamResult {
  /** Items counted in the bytes (each opens with the item start). */
  readonly items: number;
  readonly bytes: number;
  readonly seconds: number;
  readonly status: number;
  /** Whether the body ended with the closing bracket of the array. */
  readonly complete: boolean;
}

/**
 * Reads one streamed array (`GET /customer/`, `GET /orders/`) and counts its items in the bytes as
 * they arrive, without parsing: the client must not be the bottleneck of what it measures.
 */
export function readStream(baseUrl: string, path: string, itemStart: string, maxSeconds = Infinity): Promise<StreamResult> {
  const needle = Buffer.from(itemStart);
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const req = request(`${baseUrl}${path}`, { headers: authHeaders() }, (res) => {
      const finish = (): void =>
        resolve({ items, bytes, seconds: (performance.now() - started) / 1000, status: res.statusCode ?? 0, complete: last === 0x5d });
      // A time cap for tables too big to read whole: the partial count still gives the rate.
      const cap = Number.isFinite(maxSeconds) ? setTimeout(() => (res.destroy(), finish()), maxSeconds * 1000) : undefined;
      let items = 0;
      let bytes = 0;
      // The end of the previous chunk (shorter than the needle), so that a needle split across
      // chunks is still found: only the seam is copied, never a whole chunk.
      let tail: Buffer = Buffer.alloc(0);
      let last = 0;
      const count = (buf: Buffer, from = 0): void => {
        for (let at = buf.indexOf(needle, from); at !== -1; at = buf.indexOf(needle, at + needle.length)) items++;
      };
      res.on('data', (chunk: Buffer) => {
        bytes += chunk.length;
        if (tail.length > 0) {
          // Needles that start in the tail and end in this chunk (whole ones in the chunk are counted below).
          const seam = Buffer.concat([tail, chunk.subarray(0, needle.length - 1)]);
          for (let at = seam.indexOf(needle); at !== -1 && at < tail.length; at = seam.indexOf(needle, at + 1)) items++;
        }
        count(chunk);
        const end = chunk.length >= needle.length - 1 ? chunk : Buffer.concat([tail, chunk]);
        tail = Buffer.from(end.subarray(Math.max(0, end.length - (needle.length - 1))));
        last = chunk[chunk.length - 1] ?? last;
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

/** One whole-table customer sync (`GET /customer/`), customers counted as they arrive. */
export const readSync = (baseUrl: string, path = '/customer/', maxSeconds = Infinity): Promise<StreamResult> =>
  readStream(baseUrl, path, CUSTOMER_START, maxSeconds);

/** Samples the serving processes' RSS while `work` runs: the total before, and its peak. */
export async function rssGrowthDuring<T>(
  server: ServerProcess,
  work: () => Promise<T>,
): Promise<{ value: T; before: number; peak: number }> {
  const total = (): number => server.rssMb().reduce((a, b) => a + b, 0);
  const before = total();
  let peak = before;
  const timer = setInterval(() => (peak = Math.max(peak, total())), 50);
  try {
    const value = await work();
    return { value, before, peak: Math.max(peak, total()) };
  } finally {
    clearInterval(timer);
  }
}

export interface Streams {
  readonly streams: StreamResult[];
  readonly seconds: number;
  /** Items of all streams per second of the whole time. */
  readonly itemsPerSec: number;
}

/** Whole streams, one after the other, until both `seconds` have passed and `atLeast` streams were read. */
export async function streamRepeatedly(read: () => Promise<StreamResult>, seconds: number, atLeast = 1): Promise<Streams> {
  const streams: StreamResult[] = [];
  const started = performance.now();
  const elapsed = (): number => (performance.now() - started) / 1000;
  do streams.push(await read());
  while (elapsed() < seconds || streams.length < atLeast);
  const total = elapsed();
  return { streams, seconds: total, itemsPerSec: streams.reduce((s, r) => s + r.items, 0) / total };
}

/** Why a set of streams does not count: an error status, a cut-off body or too few items; undefined when all are whole. */
export function incompleteStream(streams: readonly StreamResult[], atLeastItems: number, noun: string): string | undefined {
  const bad = streams.find((s) => s.status !== 200 || !s.complete || s.items < atLeastItems);
  return bad && `incomplete stream: HTTP ${bad.status}, ${bad.items} of ≥ ${atLeastItems} ${noun}`;
}
