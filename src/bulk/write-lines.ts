import type { Writable } from 'node:stream';

/** Resolves when the output can take more, or will take nothing more (closed, failed: see onError). */
function drained(out: Writable): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      out.off('drain', done).off('close', done).off('error', done);
      resolve();
    };
    out.on('drain', done).on('close', done).on('error', done);
  });
}

/** Bytes gathered before one write: fewer syscalls, still constant memory. */
const FLUSH_AT = 64 * 1024;

/**
 * Writes text lines to `out` with its backpressure, gathering FLUSH_AT bytes per write; stops
 * quietly when the reader goes away (`| head`), throws any other failure of the output.
 */
export async function writeLines(out: Writable, lines: AsyncIterable<string>): Promise<{ count: number; closed: boolean }> {
  let closed = false;
  let failure: Error | undefined;
  const onError = (err: NodeJS.ErrnoException) => {
    closed = true;
    if (err.code !== 'EPIPE') failure = err;
  };
  out.on('error', onError);
  let count = 0;
  let buffer = '';
  const flush = async () => {
    if (closed || out.write(buffer)) return void (buffer = '');
    buffer = '';
    await drained(out);
  };
  try {
    for await (const line of lines) {
      buffer += line + '\n';
      count++;
      if (buffer.length >= FLUSH_AT) await flush();
      if (closed) break;
    }
    if (buffer.length > 0 && !closed) await flush();
  } finally {
    out.off('error', onError);
  }
  if (failure) throw failure;
  return { count, closed };
}
