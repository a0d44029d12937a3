import { Worker } from 'node:worker_threads';
import { AppError, type ErrorKind, type FieldError } from '../errors.js';
import type { Writes } from './writer.js';

/** An error as it crosses between threads (class identity does not survive structured cloning). */
export type ThreadError =
  | { readonly app: { kind: ErrorKind; code: string; message: string; fieldErrors: readonly FieldError[] } }
  | { readonly other: { name: string; message: string; code?: unknown } };

export type WriteOp = 'confirm' | 'create' | 'cancel' | 'writeCustomFields';
export interface WriteRequest { readonly id: number; readonly op: WriteOp; readonly args: unknown[] }
export type WriteReply = { readonly id: number; readonly ok: true; readonly value: unknown } | { readonly id: number; readonly ok: false; readonly error: ThreadError };

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
export class Outbox<T> {
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

function spawn(file: string): Worker {
  const here = import.meta.url;
  if (here.endsWith('.ts')) {
    // Running from source (tests): the worker compiles TypeScript through the same loader.
    const entry = new URL('./write-thread.worker.ts', here).href;
    const tsx = import.meta.resolve('tsx/esm/api');
    const boot = `import(${JSON.stringify(tsx)}).then((m) => { m.register(); return import(${JSON.stringify(entry)}); })`;
    return new Worker(boot, { eval: true, workerData: { file } });
  }
  return new Worker(new URL('./write-thread.worker.js', here), { workerData: { file } });
}

/**
 * The queued writes of a SQLite store (orders, custom-field values), run in a worker thread with a
 * writer connection of its own. better-sqlite3 is synchronous: a durable commit waits for the disk
 * inside the calling thread. Off the main thread, that wait no longer stalls HTTP, so requests keep
 * arriving and forming the next group commit meanwhile. The worker starts on the first write and
 * stops after a few idle seconds.
 */
export class WriteThread implements Writes {
  readonly #pending = new Map<number, { resolve(v: unknown): void; reject(e: unknown): void }>();
  #worker: Worker | undefined;
  #outbox = new Outbox<WriteRequest>(() => undefined);
  #nextId = 1;
  #idle: NodeJS.Timeout | undefined;

  constructor(private readonly file: string) {}

  confirm(...args: Parameters<Writes['confirm']>): ReturnType<Writes['confirm']> {
    return this.#call('confirm', args) as ReturnType<Writes['confirm']>;
  }

  create(...args: Parameters<Writes['create']>): ReturnType<Writes['create']> {
    return this.#call('create', args) as ReturnType<Writes['create']>;
  }

  cancel(...args: Parameters<Writes['cancel']>): ReturnType<Writes['cancel']> {
    return this.#call('cancel', args) as ReturnType<Writes['cancel']>;
  }

  writeCustomFields(...args: Parameters<Writes['writeCustomFields']>): ReturnType<Writes['writeCustomFields']> {
    return this.#call('writeCustomFields', args) as ReturnType<Writes['writeCustomFields']>;
  }

  #call(op: WriteOp, args: unknown[]): Promise<unknown> {
    const worker = this.#worker ?? this.#start();
    const id = this.#nextId++;
    clearTimeout(this.#idle);
    worker.ref();
    return new Promise((resolve, reject) => {
      this.#pending.set(id, { resolve, reject });
      this.#outbox.send({ id, op, args });
    });
  }

  #start(): Worker {
    const worker = spawn(this.file);
    this.#worker = worker;
    this.#outbox = new Outbox((batch) => worker.postMessage(batch));
    worker.on('message', (replies: WriteReply[]) => {
      for (const reply of replies) {
        const p = this.#pending.get(reply.id);
        this.#pending.delete(reply.id);
        if (reply.ok) p?.resolve(reply.value);
        else p?.reject(fromThreadError(reply.error));
      }
      if (this.#pending.size === 0) this.#rest(worker);
    });
    const fail = (err: Error): void => {
      if (this.#worker === worker) this.#worker = undefined;
      for (const p of this.#pending.values()) p.reject(err);
      this.#pending.clear();
    };
    worker.on('error', fail);
    worker.on('exit', (code) => fail(new Error(`the write thread stopped (exit code ${code})`)));
    return worker;
  }

  // Idle: the worker must not keep the process alive, and goes away after a while.
  #rest(worker: Worker): void {
    worker.unref();
    clearTimeout(this.#idle);
    this.#idle = setTimeout(() => {
      if (this.#pending.size > 0 || this.#worker !== worker) return;
      this.#worker = undefined;
      void worker.terminate();
    }, IDLE_MS);
    this.#idle.unref();
  }
}
