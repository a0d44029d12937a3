import cluster from 'node:cluster';
import { forkedByServe, SERVE_WORKER_ENV } from '../config.js';

// Workers and the primary talk over node:cluster's IPC channel (a pipe per worker, JSON per
// message). A topic is one question a worker may ask: `<topic>:ask` {id, body} goes to the primary,
// which answers `<topic>:answer` {id, body | error} to that worker alone. The primary may also tell
// every worker something unasked: `<topic>:notice` {body}.

interface Envelope {
  readonly type?: string;
  readonly id?: number;
  readonly body?: unknown;
  readonly error?: string;
}

const messageOf = (err: unknown): string => (err instanceof Error ? err.message : String(err));

/** In the primary: answers every worker's questions on `topic`. */
export function answerWorkers<Q, A>(topic: string, answer: (question: Q) => A | Promise<A>): void {
  const ask = `${topic}:ask`;
  const reply = `${topic}:answer`;
  cluster.on('message', (worker, message: Envelope) => {
    if (message?.type !== ask) return;
    const id = message.id;
    try {
      const a = answer(message.body as Q);
      if (a instanceof Promise) {
        a.then(
          (body) => worker.send({ type: reply, id, body }),
          (err: unknown) => worker.send({ type: reply, id, error: messageOf(err) }),
        );
      } else {
        worker.send({ type: reply, id, body: a });
      }
    } catch (err) {
      worker.send({ type: reply, id, error: messageOf(err) });
    }
  });
}

/** In the primary: sends `body` to every worker on `topic`. */
export function tellWorkers(topic: string, body: unknown): void {
  const message = { type: `${topic}:notice`, body };
  for (const worker of Object.values(cluster.workers ?? {})) if (worker?.isConnected()) worker.send(message);
}

/** The environment `ordergate serve` forks its workers with: only such a worker's primary answers. */
export const WORKER_ENV = SERVE_WORKER_ENV;

/** True in a worker forked by `ordergate serve` (not by another cluster manager), which can ask its primary. */
export const inClusterWorker = (): boolean => cluster.isWorker && typeof process.send === 'function' && forkedByServe();

/**
 * In a cluster worker: a function that asks the primary on `topic` and resolves with its answer,
 * rejecting after `timeoutMs` without one. Outside a cluster: undefined.
 */
export function askPrimary<Q, A>(topic: string, timeoutMs: number): ((question: Q) => Promise<A>) | undefined {
  const send = process.send?.bind(process);
  if (!inClusterWorker() || !send) return undefined;
  const ask = `${topic}:ask`;
  const reply = `${topic}:answer`;
  const pending = new Map<number, (m: Envelope) => void>();
  let next = 0;
  process.on('message', (message: Envelope) => {
    if (message?.type === reply && message.id !== undefined) pending.get(message.id)?.(message);
  });
  return (question) =>
    new Promise<A>((resolve, reject) => {
      const id = ++next;
      const timer = setTimeout(() => {
        pending.delete(id);
        reject(new Error(`the primary did not answer (${topic})`));
      }, timeoutMs);
      pending.set(id, (m) => {
        clearTimeout(timer);
        pending.delete(id);
        if (m.error === undefined) resolve(m.body as A);
        else reject(new Error(m.error));
      });
      send({ type: ask, id, body: question });
    });
}

/** In a cluster worker: calls `listener` with everything the primary tells the workers on `topic`. */
export function onPrimaryNotice<N>(topic: string, listener: (body: N) => void): void {
  if (!inClusterWorker()) return;
  const notice = `${topic}:notice`;
  process.on('message', (message: Envelope) => {
    if (message?.type === notice) listener(message.body as N);
  });
}
