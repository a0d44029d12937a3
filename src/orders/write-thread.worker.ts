// Entry point of the write thread (see write-thread.ts): one SQLite writer connection and
// one group-commit queue, serving the main thread's write requests.
import { parentPort, workerData } from 'node:worker_threads';
import { createSqliteStore, needsNewConnection } from '../store/sqlite-store.js';
import type { Store } from '../store/store.js';
import { Outbox, toThreadError, type WriteReply, type WriteRequest } from './write-thread.js';
import { Writer, type Writes } from './writer.js';

const port = parentPort!;
const file = (workerData as { file: string }).file;

/**
 * A connection that has to be replaced (needsNewConnection: SQLite opened it read-only, or could not
 * open the file) is retired: the next write opens a new one, and the old one is closed once the
 * writes it had taken on have settled. A store that cannot be opened at all is answered as that
 * request's error instead of ending the thread.
 */
interface Connection {
  readonly store: Store;
  readonly writer: Writes;
  inFlight: number;
  retired: boolean;
}

let current: Connection | undefined;

function connection(): Connection {
  if (!current) {
    const store = createSqliteStore(file);
    current = { store, writer: new Writer(store), inFlight: 0, retired: false };
  }
  return current;
}

// Called while c has a write in flight: the last one to settle closes it.
function retire(c: Connection): void {
  if (current === c) current = undefined;
  c.retired = true;
}

const replies = new Outbox<WriteReply>((batch) => port.postMessage(batch));

port.on('message', (requests: WriteRequest[]) => {
  for (const req of requests) {
    let c: Connection;
    try {
      c = connection();
    } catch (err) {
      replies.send({ id: req.id, ok: false, error: toThreadError(err) });
      continue;
    }
    c.inFlight++;
    const method = c.writer[req.op] as (...args: unknown[]) => Promise<unknown>;
    method.apply(c.writer, req.args).then(
      (value) => replies.send({ id: req.id, ok: true, value }),
      (err: unknown) => {
        if (needsNewConnection(err)) retire(c);
        replies.send({ id: req.id, ok: false, error: toThreadError(err) });
      },
    ).finally(() => {
      c.inFlight--;
      if (c.retired && c.inFlight === 0) void c.store.close().catch(() => undefined);
    });
  }
});
