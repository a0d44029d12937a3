import type { FastifyInstance } from 'fastify';
import { unavailable } from '../errors.js';
import type { Store } from '../store/store.js';

/**
 * Liveness (the process answers) and readiness (the store answers); no key needed. With a read
 * replica, readiness also reports it (Up with its lag, or Down) without depending on it: reads
 * it would answer go to the primary meanwhile.
 */
export function registerHealth(app: FastifyInstance, store: Store): void {
  app.get('/health/live', async () => ({ Status: 'Live' }));
  app.get('/health/ready', async () => {
    const replica = store.replica?.status();
    try {
      await store.ping();
    } catch {
      throw unavailable('The store does not answer');
    }
    if (!replica) return { Status: 'Ready' };
    const r = await replica;
    return {
      Status: 'Ready',
      Replica: r.up ? { Status: 'Up', LagSeconds: Math.round((r.lagSeconds ?? 0) * 1000) / 1000, Streaming: r.streaming ?? false } : { Status: 'Down' },
    };
  });
}
