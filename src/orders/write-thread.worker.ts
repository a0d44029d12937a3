// Entry point of the write thread (see write-thread.ts): one SQLite writer connection and
// one group-commit queue, serving the main thread's write requests.
import { parentPort, workerData } from 'node:worker_threads';
import { createSqliteStore } from '../store/sqlite-store.js';
import { Outbox, toThreadError, type WriteReply, type WriteRequest } from './write-thread.js';
import { Writer, type Writes } from './writer.js';

const port = parentPort!;
const writer: Writes = new Writer(createSqliteStore((workerData as { file: string }).file));

const replies = new Outbox<WriteReply>((batch) => port.postMessage(batch));

port.on('message', (requests: WriteRequest[]) => {
  for (const req of requests) {
    const method = writer[req.op] as (...args: unknown[]) => Promise<unknown>;
    method.apply(writer, req.args).then(
      (value) => replies.send({ id: req.id, ok: true, value }),
      (err: unknown) => replies.send({ id: req.id, ok: false, error: toThreadError(err) }),
    );
  }
});
