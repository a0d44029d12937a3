// Entry point of the order write thread (see write-thread.ts): one SQLite writer connection and
// one group-commit queue, serving the main thread's write requests.
import { parentPort, workerData } from 'node:worker_threads';
import { createSqliteStore } from '../store/sqlite-store.js';
import { OrderWriter, type OrderWrites } from './order.service.js';
import { toThreadError, type WriteReply, type WriteRequest } from './write-thread.js';

const port = parentPort!;
const writer: OrderWrites = new OrderWriter(createSqliteStore((workerData as { file: string }).file));

port.on('message', (req: WriteRequest) => {
  const method = writer[req.op] as (...args: unknown[]) => Promise<unknown>;
  method.apply(writer, req.args).then(
    (value) => port.postMessage({ id: req.id, ok: true, value } satisfies WriteReply),
    (err: unknown) => port.postMessage({ id: req.id, ok: false, error: toThreadError(err) } satisfies WriteReply),
  );
});
