// Entry point of the write thread (see write-thread.ts): one store with its writer connection and
// an inline write door over it, running the main thread's commands by name.
import { parentPort, workerData } from 'node:worker_threads';
import { openStore } from '../store/open-store.js';
import type { Store } from '../store/store.js';
import type { WriteRegistry } from './unit.js';
import { InlineDoor } from './write-door.js';
import { Batcher, toThreadError, type ToWriteThread, type WriteReply, type WriteThreadData } from './write-thread.js';

const port = parentPort!;
const data = workerData as WriteThreadData;
const { writeRegistry } = (await import(data.registry)) as { writeRegistry: WriteRegistry };

// Opened on the first command, and again on the next one if opening failed (a file that cannot be
// opened yet is that command's error, not the end of the thread). A connection that SQLite opened
// read-only is replaced by the store itself on the next write.
let current: { store: Store; door: InlineDoor } | undefined;
const open = (): InlineDoor => {
  if (!current) {
    const store = openStore(data.url);
    current = { store, door: new InlineDoor(store, writeRegistry) };
  }
  return current.door;
};

const replies = new Batcher<WriteReply>((batch) => port.postMessage(batch));
let inFlight = 0;
let closing = false;

async function finish(): Promise<void> {
  await current?.door.close();
  await current?.store.close().catch(() => undefined);
  port.close();
}

port.on('message', (message: ToWriteThread) => {
  if (message === 'close') {
    closing = true;
    if (inFlight === 0) void finish();
    return;
  }
  for (const req of message) {
    let door: InlineDoor;
    try {
      door = open();
    } catch (err) {
      replies.send({ id: req.id, ok: false, error: toThreadError(err) });
      continue;
    }
    inFlight++;
    door
      .runNamed(req.name, req.input)
      .then(
        (value) => replies.send({ id: req.id, ok: true, value }),
        (err: unknown) => replies.send({ id: req.id, ok: false, error: toThreadError(err) }),
      )
      .finally(() => {
        // The replies go out on the next turn: close after them.
        if (--inFlight === 0 && closing) setImmediate(() => void finish());
      });
  }
});
