import { Worker } from 'node:worker_threads';
import { releaseFreedMemory } from '../freed-memory.js';
import { AppError, type ErrorKind, type FieldError } from '../errors.js';
import { StoreClosed } from '../store/store-errors.js';
import type { AnyWriteCommand, WriteCommand, WriteDoor } from './unit.js';

/** An error as it crosses between threads (class identity does not survive structured cloning). */
export type ThreadError =
  | { readonly app: { kind: ErrorKind; code: string; message: string; fieldErrors: readonly FieldError[] } }
  | { readonly other: { name: string; message: string; code?: unknown } };

/** A command crossing to the write thread: its name and input (both plain data). */
export interface WriteRequest {
  readonly id: number;
  readonly name: string;
  readonly input: unknown;
}
export type WriteReply =
  | { readonly id: number; readonly ok: true; readonly value: unknown }
  | { readonly id: number; readonly ok: false; readonly error: ThreadError };
/** What the main thread sends: requests, or `close` (finish what is in flight, close the store, exit). */
export type ToWriteThread = readonly WriteRequest[] | 'close';

/** What the write thread is started with. */
export interface WriteThreadData {
  /** The store to open (DATABASE_URL form). */
  readonly url: string;
  /** The module that exports `writeRegistry`. */
  readonly registry: string;
}

export function toThreadError(err: unknown): ThreadError {
  if (err instanceof AppError) return { app: { kind: err.kind, code: err.code, message: err.message, fieldErrors: [...err.fieldErrors] } };
  const e = (err ?? {}) as { name?: unknown; message?: unknown; code?: unknown };
  return { other: { name: String(e.name ?? 'Error'), message: String(e.message ?? err), code: e.code } };
}

export function fromThreadError(t: ThreadError): Error {
  if ('app' in t) return new AppError(t.app.kind, t.app.code, t.app.message, t.app.fieldErrors);
  // Keeps the driver's code, so that store outages still map to 503.
  return Object.assign(new Error(t.other.message), { name: t.other.name, code: t.other.code });
}

const IDLE_MS = 5000;

/**
 * Messages sent in the same turn of the event loop travel together: one postMessage (and one event
 * on the other side) per group instead of per message.
 */
export class Batcher<T> {
  #items: T[] = [];

  constructor(private readonly post: (items: T[]) => void) {}

  send(item: T): void {
    if (this.#items.push(item) > 1) return;
    setImmediate(() => {
      const items = this.#items;
      this.#items = [];
      this.post(items);
    });
  }
}

/**
 * Starts the worker. Node 20 does not apply the process's `--import` loaders to a worker's entry, so
 * an entry that Node cannot load by itself (TypeScript, when the service runs from its sources)
 * registers the same TypeScript loader (tsx) in the worker first.
 */
function spawn(data: WriteThreadData): Worker {
  const entry = new URL(`./write-thread.worker${import.meta.url.endsWith('.ts') ? '.ts' : '.js'}`, import.meta.url);
  if (!entry.pathname.endsWith('.ts')) return new Worker(entry, { workerData: data });
  const tsx = import.meta.resolve('tsx/esm/api');
  const boot = `import(${JSON.stringify(tsx)}).then((m) => { m.register(); return import(${JSON.stringify(entry.href)}); })`;
  return new Worker(boot, { eval: true, workerData: data });
}

/**
 * The write door of a SQLite file: the commands run in a worker thread with a writer connection of
 * its own. better-sqlite3 is synchronous: a durable commit waits for the disk inside the calling
 * thread. Off the main thread, that wait no longer stalls HTTP, so requests keep arriving and
 * forming the next group commit meanwhile. The worker starts on the first write and stops after a
 * few idle seconds; close() lets it finish what is in flight.
 */
export class WriteThread implements WriteDoor {
  /** Requests awaiting their reply, each with the worker it was sent to. */
  readonly #pending = new Map<number, { resolve(v: unknown): void; reject(e: unknown): void; worker: Worker }>();
  #worker: Worker | undefined;
  #batcher = new Batcher<WriteRequest>(() => undefined);
  #nextId = 1;
  #idle: NodeJS.Timeout | undefined;
  #closed = false;

  constructor(
    private readonly url: string,
    private readonly registry: string,
    private readonly table: ReadonlyMap<string, AnyWriteCommand>,
  ) {}

  run<I, O>(command: WriteCommand<I, O>, input: I): Promise<O> {
    if (this.#closed) return Promise.reject(new StoreClosed('the write door'));
    if (this.table.get(command.name) !== command) return Promise.reject(new Error(`write command ${command.name} is not registered`));
    const worker = this.#worker ?? this.#start();
    const id = this.#nextId++;
    clearTimeout(this.#idle);
    worker.ref();
    return new Promise<O>((resolve, reject) => {
      this.#pending.set(id, { resolve: resolve as (v: unknown) => void, reject, worker });
      this.#batcher.send({ id, name: command.name, input });
    });
  }

  async close(): Promise<void> {
    this.#closed = true;
    clearTimeout(this.#idle);
    const worker = this.#worker;
    if (!worker) return;
    this.#worker = undefined;
    const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
    worker.ref(); // an idle worker is unref'd: waiting for its exit must keep the process alive
    // Sent after any batch of this turn: the worker answers those first.
    setImmediate(() => worker.postMessage('close' satisfies ToWriteThread));
    await exited;
  }

  #start(): Worker {
    const worker = spawn({ url: this.url, registry: this.registry });
    this.#worker = worker;
    this.#batcher = new Batcher((batch) => worker.postMessage(batch satisfies ToWriteThread));
    worker.on('message', (replies: WriteReply[]) => {
      for (const reply of replies) {
        const p = this.#pending.get(reply.id);
        this.#pending.delete(reply.id);
        if (reply.ok) p?.resolve(reply.value);
        else p?.reject(fromThreadError(reply.error));
      }
      // Closing: the worker stays referenced until it exits (close() waits for that).
      if (this.#pending.size === 0 && !this.#closed) this.#rest(worker);
    });
    const fail = (err: Error): void => {
      if (this.#worker === worker) this.#worker = undefined;
      // Only this worker's requests: a worker that went away idle may exit after a new one took over.
      for (const [id, p] of this.#pending) {
        if (p.worker !== worker) continue;
        this.#pending.delete(id);
        p.reject(err);
      }
    };
    worker.on('error', fail);
    worker.on('exit', (code) => {
      fail(new Error(`the write thread stopped (exit code ${code})`));
      // The thread's malloc arena outlives it, with its connection's and isolate's freed pages.
      releaseFreedMemory();
    });
    return worker;
  }

  // Idle: the worker must not keep the process alive, and goes away after a while.
  #rest(worker: Worker): void {
    worker.unref();
    clearTimeout(this.#idle);
    this.#idle = setTimeout(() => {
      if (this.#pending.size > 0 || this.#worker !== worker) return;
      this.#worker = undefined;
      worker.postMessage('close' satisfies ToWriteThread);
    }, IDLE_MS);
    this.#idle.unref();
  }
}
