import { performance } from 'node:perf_hooks';
import fp from 'fastify-plugin';

declare module 'fastify' {
  interface FastifyInstance {
    /** Whether this process's API is saturated (the apiLoad plugin), for background work to make way. */
    readonly apiLoad: ApiLoad;
  }
}

/** How often the load is sampled. */
const SAMPLE_MS = 100;
/**
 * Requests in progress on average over a sample from which the API counts as saturated: an API
 * that keeps up answers each request before the next few arrive (Little's law: rate × time per
 * request), so several at once on average means they queue.
 */
const SATURATED_CONCURRENCY = 4;

/**
 * Whether this process's API is saturated: requests queued during the last sample (several in
 * progress on average while more came in). Background work (webhook delivery) makes way then. The
 * event loop's own business is no sign: the background work keeps it busy itself, and on SQLite a
 * write waits for the disk in another thread while the loop idles.
 */
export class ApiLoad {
  /** Requests begun in this sample. */
  #requests = 0;
  #inProgress = 0;
  /** Requests in progress × milliseconds, since the sample began. */
  #area = 0;
  #changed = performance.now();
  #sampleStart = performance.now();
  #saturated = false;
  #timer: NodeJS.Timeout | undefined;

  /** A request came in. */
  begin(): void {
    this.#account();
    this.#inProgress++;
    this.#requests++;
  }

  /**
   * A request's response closed: answered, or its client went away. Handed to the response's
   * 'close' event, which comes once for every response, however it ends.
   */
  readonly end = (): void => {
    this.#account();
    if (this.#inProgress > 0) this.#inProgress--;
  };

  get saturated(): boolean {
    return this.#saturated;
  }

  start(): void {
    this.#timer ??= setInterval(() => this.#sample(), SAMPLE_MS).unref();
  }

  stop(): void {
    clearInterval(this.#timer);
    this.#timer = undefined;
  }

  #account(): number {
    const now = performance.now();
    this.#area += this.#inProgress * (now - this.#changed);
    this.#changed = now;
    return now;
  }

  #sample(): void {
    const now = this.#account();
    const concurrency = this.#area / Math.max(now - this.#sampleStart, 1);
    this.#saturated = this.#requests > 0 && concurrency >= SATURATED_CONCURRENCY;
    this.#sampleStart = now;
    this.#area = 0;
    this.#requests = 0;
  }
}

/** Counts every request in and out (the response's 'close') and samples the load while the app runs. */
export const apiLoad = fp(
  (app, _opts: Record<never, never>, done) => {
    const load = new ApiLoad();
    app.decorate('apiLoad', load);
    app.addHook('onRequest', (_request, reply, next) => {
      load.begin();
      reply.raw.on('close', load.end);
      next();
    });
    app.addHook('onReady', (next) => {
      load.start();
      next();
    });
    app.addHook('onClose', (_instance, next) => {
      load.stop();
      next();
    });
    done();
  },
  { name: 'api-load' },
);
